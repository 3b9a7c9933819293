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
    stats,
    storetools,
    worker,
)
from frontends.cli.launcher import command
from frontends.cli.remote import command as remote

#: Modules that add a subcommand: each has ``register(subparsers)``.
COMMANDS = [
    demo,
    play,
    remote,
    stats,
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
    _list_commands_under(sub.choices["play"], sub)
    return parser


def _list_commands_under(play: argparse.ArgumentParser, sub: argparse._SubParsersAction) -> None:
    """End the game's help with the other commands: ``./play --help`` is the game's
    help (the wrapper starts the game given options alone), so it must also say what
    else there is, or the other commands would be found nowhere."""
    helps = {action.dest: action.help or "" for action in sub._choices_actions}
    width = max(len(name) for name in sub.choices)
    lines = [f"  {name:<{width}}  {text}" for name, text in helps.items() if name != "play"]
    play.epilog = (
        "other commands (each has --help: "
        f"{command('COMMAND', '--help').replace(chr(39), '')}):\n" + "\n".join(lines)
    )
    play.formatter_class = argparse.RawDescriptionHelpFormatter
    play.prog = command("play", "--help").removesuffix(" --help")  # ./play under the wrapper


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
