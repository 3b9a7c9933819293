"""``dice-miner replay LOG``: the state after the first N events, as a board or as JSON.

The JSON shape is ``core.read.views.state_view`` (documented in docs/reference/cli.md);
the board is ``board_text``. Replay only folds the logged events: it never rolls.
"""

from __future__ import annotations

import argparse
import json

from core import board_text, replay_batches, state_view
from frontends.cli.args import CliError, event_count, positive_int, read_log
from frontends.cli.logtools import show_lines


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``replay`` subcommand."""
    p = sub.add_parser(
        "replay",
        help="show the state of a logged game after N events",
        description="Show the state after the first N events of LOG (all of them by "
        "default): a readable board, or one JSON object with --json.",
    )
    p.add_argument("log", metavar="LOG", help="a game's log file")
    p.add_argument(
        "--at",
        type=positive_int,
        metavar="N",
        help="after the first N events, the last of them event N-1 of 'log show' (default: all)",
    )
    p.add_argument("--json", action="store_true", help="print the state as one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Fold the log up to N events and print the state."""
    _, batches = read_log(args.log)
    total = event_count(batches)
    at = total if args.at is None else args.at
    if not 1 <= at <= total:
        raise CliError(f"--at must be 1 to {total} (the log holds {total} events), not {at}")
    state = replay_batches(batches, upto=at).state
    if args.json:
        print(json.dumps(state_view(state, at)))
    else:
        print(f"{args.log}: after {at} of {total} events; the last of them:")
        print(last_event(batches, at - 1))
        print(board_text(state), end="")
    return 0


def last_event(batches, seq: int) -> str:
    """Event ``seq`` as ``log show`` prints it: seqs count from 0, so ``--at N`` ends at N - 1."""
    return next(line for n, line in enumerate(show_lines(batches)) if n == seq)
