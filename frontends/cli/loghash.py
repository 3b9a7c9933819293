"""State hashes for the ``log`` tools: ``log show --hash`` and ``log diff --hash``.

Each event's state is hashed with ``core.projections.statehash`` (see
``docs/reference/state-hash.md``), so two logs, written by two engine versions or on two
machines, can be compared state by state: ``log diff --hash A B`` names the
first event after which their states part.
"""

from __future__ import annotations

import argparse
from typing import Any

from core import Step, event_text, state_hash, walk
from frontends.cli.args import EXIT_DIFFERENT, EXIT_OK, read_log

#: Hex digits of the hash in ``log show --hash``'s text column (the JSON has all 64).
SHORT = 12


def add_show_option(show: argparse.ArgumentParser) -> None:
    """``log show --hash``."""
    show.add_argument(
        "--hash",
        action="store_true",
        help=f"add the hash of the state after each event (text: its first {SHORT} hex "
        "digits after the seq; --json: a 'hash' key with all 64; docs/reference/state-hash.md)",
    )


def add_diff_option(diff: argparse.ArgumentParser) -> None:
    """``log diff --hash``."""
    diff.add_argument(
        "--hash",
        action="store_true",
        help="compare the state after each event (its hash) instead of the events: "
        "name the first event after which the two logs' states part",
    )


def hashed_line(line: str, step: Step) -> str:
    """A ``log show`` line with the state's short hash after the seq."""
    return f"{line[:5]}  {state_hash(step.after)[:SHORT]}{line[5:]}"


def hashed_record(record: dict[str, Any], step: Step) -> dict[str, Any]:
    """A ``log show --json`` record with the state's hash."""
    record["hash"] = state_hash(step.after)
    return record


def run_diff(args: argparse.Namespace) -> int:
    """Walk both logs side by side up to the first event after which the states differ."""
    a = list(walk(read_log(args.a)[1]))
    b = list(walk(read_log(args.b)[1]))
    events_part = next(
        (i for i in range(max(len(a), len(b))) if _event(a, i) != _event(b, i)), None
    )
    for i in range(max(len(a), len(b))):
        left = a[i] if i < len(a) else None
        right = b[i] if i < len(b) else None
        left_hash = state_hash(left.after) if left else None
        right_hash = state_hash(right.after) if right else None
        if left_hash != right_hash:
            agree = f"the states after events 0 to {i - 1} agree" if i else "no state agrees"
            print(f"the states part at event {i} ({agree}):")
            print(_side(args.a, "A", left, left_hash))
            print(_side(args.b, "B", right, right_hash))
            if events_part is not None and events_part < i:
                print(f"(the events themselves first differ at event {events_part})")
            return EXIT_DIFFERENT
    note = "" if events_part is None else f" (their events first differ at event {events_part})"
    print(f"the states agree after each of the {len(a)} events{note}")
    return EXIT_OK


def _event(steps: list[Step], i: int):
    return steps[i].event if i < len(steps) else None


def _side(name: str, label: str, step: Step | None, digest: str | None) -> str:
    if step is None:
        return f"  {label}: {name}: (no such event: the log ends here)"
    kind = type(step.event).TAG
    return f"  {label}: {name}: {kind}: {event_text(step)}\n     state {digest}"


__all__ = [
    "SHORT",
    "add_diff_option",
    "add_show_option",
    "hashed_line",
    "hashed_record",
    "run_diff",
]
