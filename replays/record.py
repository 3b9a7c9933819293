"""Re-record the golden replays: ``python -m replays.record [NAME ...]``.

Run it after an intended change to the rules, the events or the bots, and say
in CHANGELOG.md why the golden games changed. ``--check`` records in memory and
reports which files would change, without writing. ``--find-tiebreak`` searches
for a seed whose game between two greedy bots ends in a tie-break.
"""

from __future__ import annotations

import argparse
import os
import sys

from core.bots.series import log_bytes
from core.modes.multiplayer.events import TieBreakBegan
from replays.golden import SPECS, dump, record, save


def find_tiebreak(bots: tuple[str, ...], start: int, tries: int) -> int | None:
    """The first seed from ``start`` whose game between ``bots`` has a tie-break."""
    from replays.golden import Spec

    for seed in range(start, start + tries):
        game = record(Spec("search", bots, seed))
        if any(isinstance(e, TieBreakBegan) for _, e in game.events()):
            return seed
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m replays.record", description=__doc__)
    parser.add_argument("names", nargs="*", help="golden games to record (default: all)")
    parser.add_argument("--check", action="store_true", help="only report what would change")
    parser.add_argument("--find-tiebreak", type=int, metavar="TRIES", help="search seeds")
    args = parser.parse_args(argv)
    if args.find_tiebreak:
        seed = find_tiebreak(("greedy", "greedy"), 1, args.find_tiebreak)
        print(f"tie-break seed: {seed}" if seed is not None else "no tie-break found")
        return 0 if seed is not None else 1
    specs = [s for s in SPECS if not args.names or s.name in args.names]
    unknown = set(args.names) - {s.name for s in SPECS}
    if unknown:
        print(f"unknown golden games: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    stale = 0
    for spec in specs:
        game = record(spec)
        if args.check:
            same = (
                _read(spec.log_path) == log_bytes(game)
                and _read(spec.dump_path)
                == dump(game.batches(), os.path.basename(spec.log_path)).encode()
            )
            stale += not same
            print(f"{spec.name}: {'up to date' if same else 'would change'}")
        else:
            save(spec, game)
            print(f"{spec.name}: {game.seq} events -> {spec.log_path}")
    return 1 if stale else 0


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


if __name__ == "__main__":
    raise SystemExit(main())
