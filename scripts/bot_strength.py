"""Measure a bot against others: ``python scripts/bot_strength.py --games 200``.

By default one ``montecarlo`` bot plays three ``greedy`` bots in 4-player games
(``--lineup montecarlo,montecarlo,greedy,greedy`` sets the table); the seats
rotate from game to game so no bot keeps a seat's advantage. The report gives,
per kind of bot, the games it won with a 95% Wilson interval (a fair share is
its seats / players), its mean score, and how often it finished above each
player of another kind in the same game (head to head). Shared wins (an unbreakable tie) count as
a fraction to each winner. Games are seeded (``derive_seed(seed, i)``), so the
same command always gives the same figures; ``--jobs`` splits them over processes.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.bots.registry import BOTS
from core.bots.series import GameResult, play_series


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 0.0
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    denominator = 1 + z * z / games
    return (centre - spread) / denominator, (centre + spread) / denominator


def _chunk(job: tuple[list[str], int, int, int]) -> list[GameResult]:
    bots, seed, start, games = job
    return list(play_series(bots, seed, games, rotate=True, start=start))


def measure(bots: list[str], seed: int, games: int, jobs: int) -> list[GameResult]:
    """Play the games (in ``jobs`` processes) and return their results in order."""
    size = math.ceil(games / jobs)
    chunks = [(bots, seed, s, min(size, games - s)) for s in range(0, games, size)]
    if jobs == 1:
        return [r for chunk in chunks for r in _chunk(chunk)]
    with ProcessPoolExecutor(jobs) as pool:
        return [r for part in pool.map(_chunk, chunks) for r in part]


def report(results: list[GameResult], bots: list[str]) -> str:
    """Wins (with a 95% interval), mean score and head-to-head record per bot kind."""
    games = len(results)
    kinds = list(dict.fromkeys(bots))
    lines = [
        f"{'bot':<12} {'seats':>5} {'wins':>7} {'win %':>7} {'95% interval':>13} "
        f"{'fair':>6} {'mean':>6} {'head to head':>13}"
    ]
    for kind in kinds:
        seats = bots.count(kind)
        wins = sum(sum(1 / len(r.winners) for s in r.winners if r.bots[s] == kind) for r in results)
        scores = [r.totals[s] for r in results for s, b in enumerate(r.bots) if b == kind]
        ahead = [
            r.totals[s] > r.totals[o]
            for r in results
            for s, b in enumerate(r.bots)
            if b == kind
            for o, other in enumerate(r.bots)
            if other != kind
        ]
        low, high = wilson(wins, games)
        duel = f"{100 * sum(ahead) / len(ahead):.1f}%" if ahead else "-"
        lines.append(
            f"{kind:<12} {seats:>5} {wins:>7.1f} {100 * wins / games:>6.1f}% "
            f"{100 * low:>5.1f}-{100 * high:.1f}% {100 * seats / len(bots):>5.1f}% "
            f"{sum(scores) / len(scores):>6.1f} {duel:>13}"
        )
    lines.append(
        "wins: games won (a shared win split); fair: the share of wins its seats would get "
        "by chance; head to head: how often it scored more than a bot of another kind"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--lineup",
        default="montecarlo,greedy,greedy,greedy",
        help="the bots at the table, comma-separated (default: 1 montecarlo, 3 greedy)",
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2019)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    bots = [name.strip() for name in args.lineup.split(",")]
    if not 2 <= len(bots) <= 4 or any(name not in BOTS for name in bots):
        parser.error(f"--lineup needs 2 to 4 of: {', '.join(sorted(BOTS))}")
    started = time.perf_counter()
    results = measure(bots, args.seed, args.games, args.jobs)
    elapsed = time.perf_counter() - started
    print(
        f"{args.games} games of {len(bots)} players ({', '.join(bots)}), seed {args.seed}, "
        f"seats rotating, {elapsed:.0f} s"
    )
    print(report(results, bots))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
