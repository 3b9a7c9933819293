"""``dice-miner demo``: a seeded game between bots, shown move by move in words."""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterable

from core import Game, Step, StepReader, event_text, make_bot, parse_bots, play_game
from core import bot_choices as choices
from frontends.cli.args import CliError, seconds, seed_int


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``demo`` subcommand."""
    p = sub.add_parser("demo", help="watch a seeded game between bots, move by move")
    p.add_argument("--players", type=int, default=3, choices=(2, 3, 4), help="how many bots")
    p.add_argument("--seed", type=seed_int, default=2019, help="the game's seed (default 2019)")
    p.add_argument(
        "--delay", type=seconds, default=0.0, help="seconds to pause between moves (default 0)"
    )
    p.add_argument(
        "--bots",
        default="random",
        metavar="NAMES",
        help=f"bots by seat, comma-separated (by strength: {choices()}; default random)",
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
    reader = StepReader()
    print_steps(reader.read(game.batches()))

    def show(game: Game, command, events) -> None:
        print_steps(reader.read(game.batches(game.seq - len(events))))
        if args.delay:
            time.sleep(args.delay)

    state = play_game(game, [make_bot(kind) for kind in kinds], on_move=show)
    totals = state.totals()
    print()
    for seat, name in enumerate(names):
        print(f"  {name:6s} {totals[seat]:4d}  ({state.heroes[seat]}, {kinds[seat]} bot)")
    return 0


def print_steps(steps: Iterable[Step]) -> None:
    """Print each event worded from the state just before it (a spend names the faces
    its dice had, not the ones they rolled), as ``log show`` does."""
    for step in steps:
        print(f"{step.seq:4d}  {event_text(step)}")
