"""How well the analysis's win chances come true: ``python -m scripts.analysis_calibration``.

Plays ``--games`` 4-player games between bots (game i from seed
``derive_seed(--seed, i)``, the seats of ``--lineup`` rotating from game to
game), and at the start of each round reads each seat's win chance exactly as
``dice-miner analyse`` reports it after that round's ``RoundBegan`` event (the
best move's chances at the round's first decision, on that decision's own
futures). Then it compares them with who won: a reliability table (the chances
in bins of 10 points, each bin's mean chance against how often those seats
won; a shared win counts as a share) and the Brier score (the mean squared gap
between the chance and the outcome, 0 to 1, lower is better), overall and per
round, next to the Brier score of saying 1/players for everyone.

The analysis's one fitted constant (``core.bots.valuation.multi.TEMPERATURE``) was
fitted on seeds 7 and 11; the default seed here is another. It prints the
tables, then one JSON line.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.analysis.history import history
from core.analysis.judge import Options, Task, judge
from core.bots.play import play_game
from core.bots.registry import BOTS, make_bot
from core.bots.series import lineup, player_names
from core.game import Game
from core.projections.state import EXCAVATION
from core.rng import derive_seed
from frontends.cli.args import positive_int, seed_int

#: (round, the seat's chance 0 to 1, its outcome: 1 won, 1/k a shared win, 0 lost)
Row = tuple[int, float, float]
BINS = 10


def round_starts(game: Game, options: Options) -> list[Row]:
    """Each seat's chance at the start of each round of a finished game, and its outcome."""
    hist = history(game.batches())
    winners = hist.final.winners
    rows: list[Row] = []
    seen = set()
    for decision in hist.decisions:
        state = decision.before
        if state.phase != EXCAVATION or state.round in seen or state.tiebreak:
            continue
        seen.add(state.round)
        chances = judge(Task(state, decision.command, decision.depth), options).best.chances
        for seat, chance in enumerate(chances):
            won = 1 / len(winners) if seat in winners else 0.0
            rows.append((state.round, chance, won))
    return rows


def play(bots: tuple[str, ...], seed: int, samples: int | None, index: int) -> list[Row]:
    """Game ``index`` of the series, played and read at each round's start."""
    seats = lineup(bots, index, True)
    game = Game.new(player_names(seats), derive_seed(seed, index))
    play_game(game, [make_bot(name) for name in seats])
    return round_starts(game, Options.for_mode("multi", samples))


def brier(rows: list[Row]) -> float:
    """The mean squared gap between the chances and the outcomes."""
    return sum((p - won) ** 2 for _, p, won in rows) / len(rows)


def reliability(rows: list[Row]) -> list[dict]:
    """Per bin of 10 points: how many chances fell in it, their mean, how often they won."""
    table = []
    for b in range(BINS):
        low, high = b / BINS, (b + 1) / BINS
        inside = [r for r in rows if low <= r[1] < high or (b == BINS - 1 and r[1] == 1.0)]
        if inside:
            table.append(
                {
                    "bin": f"{100 * low:.0f}-{100 * high:.0f}%",
                    "n": len(inside),
                    "predicted": round(sum(r[1] for r in inside) / len(inside), 3),
                    "won": round(sum(r[2] for r in inside) / len(inside), 3),
                }
            )
    return table


def report(rows: list[Row], players: int) -> dict:
    """The figures: the reliability table, the Brier scores overall and per round."""
    even = [(r, 1 / players, won) for r, _, won in rows]
    rounds = sorted({r for r, _, _ in rows})
    return {
        "chances": len(rows),
        "brier": round(brier(rows), 4),
        "brier_even": round(brier(even), 4),
        "rounds": {
            str(n): {
                "chances": sum(r == n for r, _, _ in rows),
                "brier": round(brier([x for x in rows if x[0] == n]), 4),
                "brier_even": round(brier([x for x in even if x[0] == n]), 4),
            }
            for n in rounds
        },
        "reliability": reliability(rows),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--lineup",
        default="montecarlo,greedy,greedy,greedy",
        help="the bots at the table, seats rotating (default: 1 montecarlo, 3 greedy)",
    )
    parser.add_argument("--games", type=positive_int, default=200)
    parser.add_argument("--seed", type=seed_int, default=2026, help="the series' seed")
    parser.add_argument("--jobs", type=positive_int, default=1)
    parser.add_argument(
        "--samples", type=positive_int, default=None, help="futures per decision (the default's)"
    )
    args = parser.parse_args(argv)
    bots = tuple(name.strip() for name in args.lineup.split(","))
    if not 2 <= len(bots) <= 4 or any(name not in BOTS for name in bots):
        parser.error(f"--lineup needs 2 to 4 of: {', '.join(sorted(BOTS))}")
    began = time.perf_counter()
    one = partial(play, bots, args.seed, args.samples)
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            parts = list(pool.map(one, range(args.games)))
    else:
        parts = [one(index) for index in range(args.games)]
    rows = [row for part in parts for row in part]
    figures = report(rows, len(bots))
    seconds = time.perf_counter() - began
    print(
        f"{args.games} games ({', '.join(bots)}, seats rotating), seed {args.seed}: "
        f"{figures['chances']} chances at the rounds' starts, {seconds:.0f} s"
    )
    print(f"{'chance':>8} {'n':>6} {'predicted':>10} {'won':>7}")
    for row in figures["reliability"]:
        print(f"{row['bin']:>8} {row['n']:>6} {row['predicted']:>10.3f} {row['won']:>7.3f}")
    even = f"saying 1/{len(bots)} for everyone: {figures['brier_even']}"
    print(f"Brier score {figures['brier']} ({even})")
    for n, part in figures["rounds"].items():
        print(f"  round {n}: {part['brier']} ({part['brier_even']}), {part['chances']} chances")
    print(
        json.dumps(
            {
                **figures,
                "games": args.games,
                "seed": args.seed,
                "lineup": list(bots),
                "seconds": round(seconds, 1),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
