"""``dice-miner branch``: a what-if branch of a logged game, to play on another way.

    dice-miner branch game.dmlog --at 37 --luck same --out what-if.dmlog
    dice-miner play --resume what-if.dmlog

The new log holds the game's first N events as they were logged, then the fact
that it was branched (from which log, where, with what luck); ``core.branch``
says what the same and fresh luck promise. Exit 0, or 2 with one line.
"""

from __future__ import annotations

import argparse
import secrets

from core import write_branch
from frontends.cli.args import CliError, non_negative_int, seed_int
from frontends.cli.launcher import command


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``branch`` subcommand."""
    p = sub.add_parser(
        "branch",
        help="a what-if: a new log that is LOG's first N events, to play on another way",
        description="Write a new log holding the first N events of LOG record for record "
        "(N must be where a command's events end), then the fact that it was branched: "
        "LOG's SHA-256, N and the luck. With --luck same every position rolls the dice the "
        "original rolled there, so an unchanged move brings the same dice; with --luck "
        "fresh the dice come from a new seed (--seed, or a random one, recorded). Undo in "
        "the branch goes back no further than N. Play it with 'dice-miner play --resume "
        "NEW'. Exit 0, or 2 with one line saying why not.",
    )
    p.add_argument("log", metavar="LOG", help="the game to branch")
    p.add_argument(
        "--at",
        metavar="N",
        type=non_negative_int,
        required=True,
        help="keep the first N events (where a command's events end)",
    )
    p.add_argument(
        "--luck",
        choices=("same", "fresh"),
        required=True,
        help="same: the original's dice at every position; fresh: a new seed's",
    )
    p.add_argument("--out", metavar="NEW", required=True, help="the new log (must not exist)")
    p.add_argument(
        "--seed", type=seed_int, default=None, help="--luck fresh: the new seed (default random)"
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Write the branch and say how to play it."""
    seed = args.seed
    if args.luck == "same" and seed is not None:
        raise CliError("--seed goes with --luck fresh: the same luck rolls the original's dice")
    if args.luck == "fresh" and seed is None:
        seed = secrets.randbits(64)
    made = write_branch(args.log, args.out, args.at, args.luck, seed)
    luck = (
        "the same luck (the original's dice at every position)"
        if made.luck == "same"
        else f"fresh luck (seed {made.seed})"
    )
    print(
        f"{made.path}: a branch of {args.log} (SHA-256 {made.parent[:16]}...) after its "
        f"first {made.at} events ({made.records} records), with {luck}"
    )
    print(f"Play it with: {command('play', '--resume', made.path)}")
    return 0
