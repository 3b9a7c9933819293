"""``dice-miner demo``: a seeded game between bots, shown move by move in words."""

from __future__ import annotations

import argparse
import time

from core.bots import RandomBot, bot_rng
from core.game import Game
from core.projections.text import describe


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``demo`` subcommand."""
    p = sub.add_parser("demo", help="watch a seeded game between bots, move by move")
    p.add_argument("--players", type=int, default=3, choices=(2, 3, 4), help="how many bots")
    p.add_argument("--seed", type=int, default=2019, help="the game's seed (default 2019)")
    p.add_argument("--delay", type=float, default=0.0, help="seconds to pause between moves")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the game and print every event as it happens."""
    names = ["Ada", "Brok", "Cira", "Dain"][: args.players]
    bot = RandomBot()
    game = Game.new(names, seed=args.seed)
    shown = 0
    while True:
        for seq, event in game.events(shown):
            print(f"{seq:4d}  {describe(game.state, event)}")
        shown = game.seq
        if game.state.is_over:
            break
        seat = game.to_act()
        rng = bot_rng(game.state, game.timeline.depth, seat)
        game.issue(bot.choose(game.state, game.legal(), rng))
        if args.delay:
            time.sleep(args.delay)
    totals = game.state.totals()
    print()
    for seat, name in enumerate(names):
        print(f"  {name:6s} {totals[seat]:4d}  ({game.state.heroes[seat]})")
    return 0
