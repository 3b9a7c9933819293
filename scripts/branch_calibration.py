"""Does the analysis's best move do better? ``python -m scripts.branch_calibration``.

Plays the games of ``scripts.analysis_calibration`` (``--games`` 4-player games
between bots, game i from seed ``derive_seed(--seed, i)``, the seats of
``--lineup`` rotating), weighs ``--per-game`` of each game's decisions drawn at
random exactly as ``dice-miner analyse`` does (its default futures), and where
the analysis's best move is not the move played, branches the game there with
the same luck (``core.branch``: every position rolls what the original rolled
there), plays the best move instead and lets the same bots play the rest
(bots decide with the seed, the position and the seat, as in the original).
It compares the mover's final score, and its win, with the original game's.

A control branch per game plays the move that was played: it must give the
original's final scores exactly (the same luck and the same bots), or the
comparison would measure noise; the script counts the controls that do.

The figures: how often the best move raised the mover's final score, left it
as it was, or lowered it, with 95% intervals (Wilson's, and a bootstrap over
games, since the decisions of one game are not independent), the mean change
in points and in win share, and the same split by how much the analysis said
the played move lost (its mark). It prints the tables, then one JSON line.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.analysis import marks
from core.analysis.history import Decision, history
from core.analysis.judge import Options, Task, judge
from core.bots.play import play_game
from core.bots.registry import BOTS, make_bot
from core.bots.series import lineup, player_names
from core.bots.valuation.verdict import same_move
from core.branch import branch_game
from core.commands import Command
from core.game import Game
from core.projections.state import GameState
from core.rng import DiceRng, derive_seed
from frontends.cli.args import positive_int, seed_int

#: Streams of the series' generator no game rolls from: which decisions are weighed,
#: and the bootstrap's draws.
_PICKS = 1 << 61
_BOOTSTRAP = (1 << 61) | (1 << 60)
#: The bins of the played move's loss, in points of win chance: the marks' thresholds.
_LIMITS = marks.thresholds("multi")
BINS = (
    ("no mark", 0.0, _LIMITS[marks.INACCURACY]),
    (marks.INACCURACY, _LIMITS[marks.INACCURACY], _LIMITS[marks.MISTAKE]),
    (marks.MISTAKE, _LIMITS[marks.MISTAKE], _LIMITS[marks.BLUNDER]),
    (marks.BLUNDER, _LIMITS[marks.BLUNDER], math.inf),
)
Z95 = 1.959964


def outcome(state: GameState, seat: int) -> tuple[int, float]:
    """The seat's final score and its win share (1, 1/k for a shared win, 0)."""
    won = 1 / len(state.winners) if seat in state.winners else 0.0
    return state.totals()[seat], won


def play_branch(data: bytes, decision: Decision, move: Command, bots: list[str]) -> GameState:
    """The final state of the game branched before ``decision`` with the same luck, ``move``
    played there and the bots playing on."""
    game = branch_game(data, decision.seq, "same")
    game.issue(move)
    return play_game(game, [make_bot(name) for name in bots])


def compare(
    bots: tuple[str, ...], seed: int, samples: int | None, per_game: int, index: int
) -> dict:
    """Game ``index``: its weighed decisions' branches, and whether its control held."""
    seats = list(lineup(bots, index, True))
    game = Game.new(player_names(seats), derive_seed(seed, index))
    final = play_game(game, [make_bot(name) for name in seats])
    data = game.export()
    decisions = list(history(game.batches()).decisions)
    picks = DiceRng(seed, _PICKS | index)
    chosen = []
    for _ in range(min(per_game, len(decisions))):
        chosen.append(decisions.pop(picks.below(len(decisions))))
    options = Options.for_mode("multi", samples)
    rows = []
    for decision in sorted(chosen, key=lambda d: d.seq):
        verdict = judge(Task(decision.before, decision.command, decision.depth), options)
        if verdict.legal <= 1 or same_move(verdict.best.command, decision.command):
            continue
        seat = decision.before.to_act()
        loss = 100 * max(0.0, verdict.best.value - verdict.candidates[verdict.played].value)
        branched = play_branch(data, decision, verdict.best.command, seats)
        (before, won_before), (after, won_after) = outcome(final, seat), outcome(branched, seat)
        rows.append(
            {"loss": loss, "delta": after - before, "won_before": won_before, "won": won_after}
        )
    control = play_branch(data, chosen[0], chosen[0].command, seats) if chosen else final
    return {"rows": rows, "control": control.totals() == final.totals()}


def wilson(hits: int, n: int) -> tuple[float, float]:
    """Wilson's 95% interval for a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p, z2 = hits / n, Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def bootstrap(games: list[list[dict]], statistic, seed: int, draws: int) -> tuple[float, float]:
    """A 95% percentile interval of ``statistic`` over rows, resampling whole games."""
    rng = DiceRng(seed, _BOOTSTRAP)
    values = []
    for _ in range(draws):
        rows = [row for _ in games for row in games[rng.below(len(games))]]
        if rows:
            values.append(statistic(rows))
    values.sort()
    return (values[int(0.025 * len(values))], values[int(0.975 * len(values)) - 1])


def raised(rows: list[dict]) -> float:
    return sum(r["delta"] > 0 for r in rows) / len(rows)


def mean_delta(rows: list[dict]) -> float:
    return sum(r["delta"] for r in rows) / len(rows)


def summary(rows: list[dict]) -> dict:
    """How often the best move raised, kept or lowered the score; the mean changes."""
    n = len(rows)
    up = sum(r["delta"] > 0 for r in rows)
    same = sum(r["delta"] == 0 for r in rows)
    down = n - up - same
    deltas = [r["delta"] for r in rows]
    mean = sum(deltas) / n if n else 0.0
    spread = math.sqrt(sum((d - mean) ** 2 for d in deltas) / (n - 1)) if n > 1 else 0.0
    half = Z95 * spread / math.sqrt(n) if n else 0.0
    wins = sum(r["won"] - r["won_before"] for r in rows) / n if n else 0.0
    return {
        "n": n,
        "raised": up,
        "unchanged": same,
        "lowered": down,
        "raised_share": round(up / n, 4) if n else None,
        "raised_wilson95": [round(x, 4) for x in wilson(up, n)],
        "lowered_share": round(down / n, 4) if n else None,
        "lowered_wilson95": [round(x, 4) for x in wilson(down, n)],
        "mean_delta": round(mean, 3),
        "mean_delta95": [round(mean - half, 3), round(mean + half, 3)],
        "win_share_delta": round(wins, 4),
    }


def report(parts: list[dict], seed: int, draws: int) -> dict:
    """The figures overall and per bin of the played move's loss."""
    games = [part["rows"] for part in parts]
    rows = [row for part in games for row in part]
    figures = summary(rows)
    if rows:
        low, high = bootstrap(games, raised, seed, draws)
        figures["raised_bootstrap95"] = [round(low, 4), round(high, 4)]
        low, high = bootstrap(games, mean_delta, seed, draws)
        figures["mean_delta_bootstrap95"] = [round(low, 3), round(high, 3)]
    figures["controls"] = sum(part["control"] for part in parts)
    marked = [[r for r in part if r["loss"] >= _LIMITS[marks.INACCURACY]] for part in games]
    figures["marked"] = summary([row for part in marked for row in part])
    if figures["marked"]["n"]:
        low, high = bootstrap(marked, raised, seed, draws)
        figures["marked"]["raised_bootstrap95"] = [round(low, 4), round(high, 4)]
    figures["by_mark"] = {
        name: summary([r for r in rows if low <= r["loss"] < high]) for name, low, high in BINS
    }
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--lineup",
        default="montecarlo,greedy,greedy,greedy",
        help="the bots at the table, seats rotating (default: 1 montecarlo, 3 greedy)",
    )
    parser.add_argument("--games", type=positive_int, default=200)
    parser.add_argument("--seed", type=seed_int, default=2026, help="the series' seed")
    parser.add_argument("--per-game", type=positive_int, default=10, help="decisions weighed")
    parser.add_argument("--jobs", type=positive_int, default=1)
    parser.add_argument(
        "--samples", type=positive_int, default=None, help="futures per decision (the default's)"
    )
    parser.add_argument("--bootstrap", type=positive_int, default=2000, help="resamples")
    args = parser.parse_args(argv)
    bots = tuple(name.strip() for name in args.lineup.split(","))
    if not 2 <= len(bots) <= 4 or any(name not in BOTS for name in bots):
        parser.error(f"--lineup needs 2 to 4 of: {', '.join(sorted(BOTS))}")
    began = time.perf_counter()
    one = partial(compare, bots, args.seed, args.samples, args.per_game)
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            parts = list(pool.map(one, range(args.games)))
    else:
        parts = [one(index) for index in range(args.games)]
    figures = report(parts, args.seed, args.bootstrap)
    seconds = time.perf_counter() - began
    print(
        f"{args.games} games ({', '.join(bots)}, seats rotating), seed {args.seed}: "
        f"{figures['n']} decisions where the analysis's best move was not the one played "
        f"(of {args.per_game} weighed per game), {seconds:.0f} s"
    )
    print(
        f"controls: {figures['controls']} of {args.games} same-move branches gave the "
        "original's final scores"
    )
    print(
        f"{'played move':>12} {'n':>5} {'raised':>8} {'95%':>15} {'lowered':>8} {'mean points':>12}"
    )
    rows = [("all", figures), *figures["by_mark"].items(), ("any mark", figures["marked"])]
    for name, part in rows:
        if not part["n"]:
            continue
        low, high = part["raised_wilson95"]
        print(
            f"{name:>12} {part['n']:>5} {100 * part['raised_share']:>7.1f}% "
            f"{100 * low:>6.1f}-{100 * high:.1f}% {100 * part['lowered_share']:>7.1f}% "
            f"{part['mean_delta']:>+12.2f}"
        )
    for name, part in (("all", figures), ("any mark", figures["marked"])):
        if part["n"]:
            low, high = part["raised_bootstrap95"]
            print(f"{name}: raised, 95% by games (bootstrap): {100 * low:.1f}-{100 * high:.1f}%")
    print(
        json.dumps(
            {
                **figures,
                "games": args.games,
                "seed": args.seed,
                "lineup": list(bots),
                "per_game": args.per_game,
                "seconds": round(seconds, 1),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
