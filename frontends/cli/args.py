"""Argument types and log loading shared by the headless subcommands.

Each turns bad input into a one-line message: argparse types raise
``ArgumentTypeError`` (argparse prints usage and exits 2), and ``read_log``
raises the engine's own ``LogError`` family, which ``main`` reports in one line.
"""

from __future__ import annotations

import argparse
import math
import os

from core import Batch, DiceMinerError, LogError, LogScan, load_batches, replay_scan

#: Exit codes shared by the subcommands (documented in docs/reference/cli.md).
EXIT_OK, EXIT_DIFFERENT, EXIT_USAGE = 0, 1, 2


class CliError(DiceMinerError):
    """A command-line request that cannot be carried out (reported in one line, exit 2)."""


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def non_negative_int(text: str) -> int:
    """An argparse type: a whole number of at least 0."""
    value = _whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def seed_int(text: str) -> int:
    """An argparse type: a seed, 0 to 2**64 - 1 (decimal, or hex with 0x)."""
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 0 <= value < 1 << 64:
        raise argparse.ArgumentTypeError("a seed is a whole number from 0 to 2**64 - 1")
    return value


def seconds(text: str, *, most: float | None = None) -> float:
    """An argparse type: a pause in seconds, 0 or more (and at most ``most``), never nan or inf."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(value) or value < 0 or (most is not None and value > most):
        span = "0 or more" if most is None else f"0 to {most:g}"
        raise argparse.ArgumentTypeError(f"a number of seconds, {span}, not {text!r}")
    return value


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def read_log(path: str) -> tuple[LogScan, list[Batch]]:
    """A whole log, checked and decoded; a missing file or a directory is a LogError."""
    if os.path.isdir(path):
        raise LogError(f"{path}: is a directory, not a log")
    scan, batches = load_batches(path)
    replay_scan(scan, batches)  # a record that cannot be applied is damage, named where it is
    return scan, batches


def event_count(batches: list[Batch]) -> int:
    """How many events the batches hold."""
    return batches[-1].end if batches else 0


__all__ = [
    "EXIT_DIFFERENT",
    "EXIT_OK",
    "EXIT_USAGE",
    "CliError",
    "event_count",
    "non_negative_int",
    "positive_int",
    "read_log",
    "seconds",
    "seed_int",
]
