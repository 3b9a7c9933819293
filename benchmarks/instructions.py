"""Instructions per random 4-player game, counted by valgrind: a figure other jobs cannot move.

    python -m benchmarks.instructions [--games 20]

The timed figures of ``python -m benchmarks`` move by a third between runs on a
shared machine; an instruction count does not. This runs a worker (this module
with ``--worker N``: one warm-up game, then N seeded games of four ``random``
bots, logs written as ``simulate`` writes them) under ``valgrind
--tool=callgrind`` twice, with N games and with none, and prints the
difference per game, so start-up and imports cancel out. It takes about a
minute for 20 games, and needs valgrind (Debian's ``valgrind`` package).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile

from core.bots.series import play_series

_COLLECTED = re.compile(r"Collected : (\d+)")


def play(games: int, out_dir: str) -> None:
    """The worker's work: a warm-up game in memory, then ``games`` games with their logs."""
    for _ in play_series(["random"] * 4, 77, 1):
        pass  # first calls build caches (converter hooks, generated code)
    for _ in play_series(["random"] * 4, 1, games, out_dir=out_dir):
        pass


def collected(stderr: str) -> int:
    """The instruction count callgrind reports on its standard error."""
    found = _COLLECTED.search(stderr)
    if found is None:
        raise ValueError(f"callgrind reported no count: {stderr.strip()[-200:]!r}")
    return int(found.group(1))


def count(games: int) -> int:
    """Instructions of one worker run playing ``games`` games, start-up included."""
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        sys.executable, "-m", "benchmarks.instructions", "--worker", str(games),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return collected(done.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.instructions", description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="games to count (default 20)")
    parser.add_argument("--worker", type=int, metavar="N", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker is not None:
        with tempfile.TemporaryDirectory(prefix="dm-instr-") as folder:
            play(args.worker, folder)
        return 0
    if args.games < 1:
        parser.error("--games must be at least 1")
    if shutil.which("valgrind") is None:
        print("benchmarks.instructions: valgrind is not installed", file=sys.stderr)
        return 2
    per_game = (count(args.games) - count(0)) // args.games
    print(f"{per_game:,} instructions per random 4-player game ({args.games} games, logs written)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
