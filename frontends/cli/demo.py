"""``dice-miner demo``: a seeded game between bots, shown move by move in words."""

from __future__ import annotations

import argparse
import time

from core.bots import BOTS, make_bot
from core.bots.play import play_game
from core.bots.registry import parse_bots
from core.game import Game
from core.projections.text import describe
from frontends.cli.args import CliError, seed_int


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``demo`` subcommand."""
    p = sub.add_parser("demo", help="watch a seeded game between bots, move by move")
    p.add_argument("--players", type=int, default=3, choices=(2, 3, 4), help="how many bots")
    p.add_argument("--seed", type=seed_int, default=2019, help="the game's seed (default 2019)")
    p.add_argument("--delay", type=float, default=0.0, help="seconds to pause between moves")
    p.add_argument(
        "--bots",
        default="random",
        metavar="NAMES",
        help=f"bots by seat, comma-separated ({', '.join(sorted(BOTS))}; default random)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the game and print every event as it happens."""
    try:
        kinds = parse_bots(args.bots, args.players)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    names = ["Ada", "Brok", "Cira", "Dain"][: args.players]
    game = Game.new(names, seed=args.seed)
    for seq, event in game.events():
        print(f"{seq:4d}  {describe(game.state, event)}")

    def show(game: Game, command, events) -> None:
        for i, event in enumerate(events):
            print(f"{game.seq - len(events) + i:4d}  {describe(game.state, event)}")
        if args.delay:
            time.sleep(args.delay)

    state = play_game(game, [make_bot(kind) for kind in kinds], on_move=show)
    totals = state.totals()
    print()
    for seat, name in enumerate(names):
        print(f"  {name:6s} {totals[seat]:4d}  ({state.heroes[seat]}, {kinds[seat]} bot)")
    return 0
