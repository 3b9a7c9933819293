"""Measure a bot against others: ``python scripts/bot_strength.py --games 200``.

``--solo greedy,montecarlo`` measures solo play instead: each bot plays the same
``--games`` seeded solo games, and the report gives each bot's mean solo score
(with a 95% interval), its games per rating band, and the paired difference
between every two bots (the same seeds, so much of the luck of the dice cancels).

By default one ``montecarlo`` bot plays three ``greedy`` bots in 4-player games
(``--lineup montecarlo,montecarlo,greedy,greedy`` sets the table); the seats
rotate from game to game so no bot keeps a seat's advantage. The report gives,
per kind of bot, the games it won with a 95% Wilson interval (a fair share is
its seats / players), its mean score, and how often it finished above each
player of another kind in the same game (head to head). Shared wins (an unbreakable tie) count as
a fraction to each winner. Games are seeded (``derive_seed(seed, i)``), so the
same command always gives the same figures; ``--jobs`` splits them over processes.

``--tables BOT`` prints the issue's three tables for one bot, on the same seeds:
solo, 2 players against ``montecarlo`` and 4 players against three of them.

``--timing N`` adds the milliseconds each kind of bot takes per decision (median
and 95th percentile), timed over the first N games in this one process, after
the measurement (so ``--jobs`` never shares its core with the timing).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.bots.play import bot_choice
from core.bots.registry import BOTS, make_bot
from core.bots.series import GameResult, lineup, play_series
from core.game import Game
from core.modes.solo.scoring import RATINGS, rating
from core.rng import derive_seed
from frontends.cli.args import positive_int, seed_int


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


def mean_interval(values: list[float], z: float = 1.96) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal approximation)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, z * math.sqrt(variance / n)


def solo_report(scores: dict[str, list[int]]) -> str:
    """Per bot: mean solo score (95% interval) and games per rating band; then for every
    two bots, the later one's paired difference from the earlier one."""
    bands = [band for _, band in RATINGS]
    lines = [f"{'bot':<12} {'mean':>6} {'95%':>7}  " + "  ".join(bands)]
    for bot, values in scores.items():
        mean, half = mean_interval(values)
        counts = [sum(rating(v) == band for v in values) for band in bands]
        cells = "  ".join(f"{c:>{len(b)}}" for c, b in zip(counts, bands, strict=True))
        lines.append(f"{bot:<12} {mean:>6.2f} {'±' + format(half, '.2f'):>7}  {cells}")
    for first, bot in combinations(scores, 2):
        diffs = [b - a for a, b in zip(scores[first], scores[bot], strict=True)]
        mean, half = mean_interval(diffs)
        better, worse = sum(d > 0 for d in diffs), sum(d < 0 for d in diffs)
        lines.append(
            f"{bot} - {first}: {mean:+.2f} ± {half:.2f} points a game; "
            f"more in {better} games, less in {worse}, the same in {len(diffs) - better - worse}"
        )
    return "\n".join(lines)


def decision_times(bots: list[str], seed: int, games: int) -> dict[str, list[float]]:
    """Milliseconds per decision by kind of bot, over the first ``games`` games of the
    series (seats rotating as in the measurement), one process."""
    times: dict[str, list[float]] = {name: [] for name in bots}
    for index in range(games):
        seats = lineup(bots, index, rotate=True)
        mode = "solo" if len(seats) == 1 else "multi"
        game = Game.new([f"p{s}" for s in range(len(seats))], derive_seed(seed, index), mode=mode)
        players = [make_bot(name) for name in seats]
        while not game.state.is_over:
            state, depth = game.state, game.timeline.depth
            seat = state.to_act()
            assert seat is not None, "a game not over waits for a seat"
            started = time.perf_counter()
            command = bot_choice(players[seat], state, depth)
            times[seats[seat]].append(1000 * (time.perf_counter() - started))
            game.issue(command)
    return times


def timing_report(times: dict[str, list[float]], games: int) -> str:
    """Per bot: decisions timed, and their median, mean and 95th percentile in ms."""
    lines = [
        f"ms per decision, over the first {games} games in one process:",
        f"{'bot':<12} {'decisions':>9} {'median':>7} {'mean':>7} {'p95':>7}",
    ]
    for bot, values in times.items():
        ordered = sorted(values)
        median = ordered[len(ordered) // 2]
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        mean = sum(ordered) / len(ordered)
        lines.append(f"{bot:<12} {len(ordered):>9} {median:>7.1f} {mean:>7.1f} {p95:>7.1f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--lineup",
        default="montecarlo,greedy,greedy,greedy",
        help="the bots at the table, comma-separated (default: 1 montecarlo, 3 greedy)",
    )
    parser.add_argument("--games", type=positive_int, default=200)
    # The seeds simulate takes (0 to 2**64 - 1), so its games and these are the same games.
    parser.add_argument("--seed", type=seed_int, default=2019)
    parser.add_argument("--jobs", type=positive_int, default=1)
    parser.add_argument(
        "--solo", metavar="BOTS", help="solo games instead: each of these bots plays the same games"
    )
    parser.add_argument(
        "--timing",
        type=positive_int,
        metavar="N",
        help="also time each bot's decisions over the first N games (median, p95 in ms)",
    )
    parser.add_argument(
        "--tables",
        metavar="BOT",
        help="the three tables for BOT: solo, and against montecarlo at 2 and 4 players",
    )
    args = parser.parse_args(argv)
    try:
        if args.tables is not None:
            return tables_main(parser, args)
        if args.solo is not None:
            return solo_main(parser, args)
        return table_main(parser, args)
    except KeyboardInterrupt:
        print("bot_strength.py: interrupted (nothing is reported before the end)", file=sys.stderr)
        return 130


def table_main(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Games at one table: the bots of ``--lineup``, seats rotating."""
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
    if args.timing:
        print(timing_report(decision_times(bots, args.seed, args.timing), args.timing))
    return 0


def tables_main(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """``--tables BOT``: solo, then 2 and 4 players against ``montecarlo``, seats rotating."""
    bot = args.tables.strip()
    if bot not in BOTS:
        parser.error(f"--tables needs one of: {', '.join(sorted(BOTS))}")
    for lineup_text in (None, f"{bot},montecarlo", f"{bot},montecarlo,montecarlo,montecarlo"):
        if lineup_text is None:
            solo_main(parser, argparse.Namespace(**{**vars(args), "solo": bot}))
        else:
            table_main(parser, argparse.Namespace(**{**vars(args), "lineup": lineup_text}))
        print()
    return 0


def solo_main(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """``--solo``: every bot plays the same seeded solo games."""
    bots = list(dict.fromkeys(name.strip() for name in args.solo.split(",")))
    if any(name not in BOTS for name in bots):
        parser.error(f"--solo needs bots from: {', '.join(sorted(BOTS))}")
    scores, times = {}, []
    for bot in bots:
        started = time.perf_counter()
        results = measure([bot], args.seed, args.games, args.jobs)
        times.append(f"{bot} {time.perf_counter() - started:.0f} s")
        scores[bot] = [r.totals[0] for r in results]
    print(
        f"{args.games} solo games per bot, seed {args.seed}, {args.jobs} jobs: {', '.join(times)}"
    )
    print(solo_report(scores))
    if args.timing:
        times = {}
        for bot in bots:
            times.update(decision_times([bot], args.seed, args.timing))
        print(timing_report(times, args.timing))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
