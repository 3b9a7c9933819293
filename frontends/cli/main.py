"""The ``dice-miner`` command: one subcommand per module, each registering itself.

Every subcommand has ``--help``; a bad argument or an unreadable file ends with a
one-line error and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from core import DiceMinerError
from frontends.cli import (
    analyse,
    branch,
    demo,
    logtools,
    play,
    replay,
    serve,
    simulate,
    storetools,
    worker,
)
from frontends.cli.remote import command as remote

#: Modules that add a subcommand: each has ``register(subparsers)``.
COMMANDS = [
    demo,
    play,
    remote,
    simulate,
    replay,
    analyse,
    branch,
    logtools,
    storetools,
    serve,
    worker,
]

EXIT_ERROR = 2


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="dice-miner", description="Dice Miner: the dwarven dice-drafting game."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return args.run(args) or 0
    except DiceMinerError as exc:
        print(f"dice-miner: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:  # the reader went away (``dice-miner ... | head``)
        # Before OSError, which it is a kind of; stdout goes to /dev/null so the
        # interpreter's final flush cannot fail again on the closed pipe.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:
        where = f": {exc.filename}" if exc.filename else ""
        print(f"dice-miner: {exc.strerror or exc}{where}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("dice-miner: interrupted", file=sys.stderr)
        return 130
