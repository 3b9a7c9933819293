"""``dice-miner analyse``: every decision of a logged game weighed on sampled futures.

    dice-miner analyse game.dmlog               # per seat: accuracy and the biggest mistakes
    dice-miner analyse game.dmlog --json        # the whole analysis as one JSON document
    dice-miner analyse game.dmlog --samples 64 --jobs 2

The analysis is kept beside the log (``game.dmlog.analysis-v2-<key>.json``), so
a second look is instant; a changed log, other options or a new analysis
version compute it again. What it means is in ``core.analysis`` and docs/reference/analysis.md.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import ExitStack

from core import DEFAULT_SAMPLES, DEFAULT_SOLO_SAMPLES, analyse_log, analysis_text
from core import analysis_dumps as dumps
from frontends.cli.args import positive_int


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``analyse`` subcommand."""
    p = sub.add_parser(
        "analyse",
        aliases=["analyze"],
        help="weigh every decision of a logged game: its best moves and mistakes",
        description="Weigh every decision of the game in LOG as the montecarlo bot would, "
        "on sampled futures of the dice no one had seen yet: each move's value against the "
        "best move found, marked as an inaccuracy, a mistake or a blunder by what it lost, "
        "each seat's win chance after every event (solo: the expected final score) and a "
        "summary per seat. The analysis is kept beside the log and read back next time.",
    )
    p.add_argument("log", metavar="LOG")
    p.add_argument("--json", action="store_true", help="print the whole analysis as JSON")
    p.add_argument(
        "--samples",
        type=positive_int,
        default=None,
        help=f"sampled futures per decision (default {DEFAULT_SAMPLES}; "
        f"solo {DEFAULT_SOLO_SAMPLES}): more is steadier and slower",
    )
    p.add_argument(
        "--jobs",
        type=positive_int,
        default=1,
        help="weigh the decisions in this many processes (the same result; default 1)",
    )
    p.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help="show a progress bar: auto = when stderr is a terminal",
    )
    p.add_argument(
        "--no-cache",
        dest="cache",
        action="store_false",
        help="neither read nor keep the analysis beside the log",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Analyse the log (or read the kept analysis) and print it."""
    outcome = analyse_log(
        args.log,
        args.samples,
        jobs=args.jobs,
        keep=args.cache,
        progress=_progress(args),
    )
    if outcome.warning:
        print(f"dice-miner: {outcome.warning}", file=sys.stderr)
    if args.json:
        sys.stdout.write(dumps(outcome.document))
        return 0
    print(analysis_text(outcome.document, os.path.basename(args.log)))
    if outcome.path is not None:
        how = "read back from" if outcome.cached else "kept in"
        print(f"\n(analysis {how} {outcome.path})")
    return 0


def _progress(args: argparse.Namespace):
    """A progress bar on stderr for the decisions weighed, or None (stdout is the result's).

    It reads keys from the terminal when there is one; otherwise from an idle pipe,
    as prompt-toolkit cannot run without input (as ``simulate`` does).
    """
    show = args.progress == "always" or (args.progress == "auto" and sys.stderr.isatty())
    if not show:
        return None

    def wrap(judged: Iterable, total: int) -> Iterator:
        from prompt_toolkit.input import create_pipe_input
        from prompt_toolkit.output import create_output
        from prompt_toolkit.shortcuts import ProgressBar

        with ExitStack() as stack:
            keys = None if sys.stdin.isatty() else stack.enter_context(create_pipe_input())
            bar = ProgressBar(
                title=f"analysing {os.path.basename(args.log)}: {total} positions",
                output=create_output(stdout=sys.stderr),
                input=keys,
            )
            stack.enter_context(bar)
            yield from bar(judged, total=total)

    return wrap
