"""Fit the expert's correction of the later rounds (``python -m scripts.fit_later_rounds``).

Plays seeded games of ``montecarlo`` against itself (game ``i`` of a table size
has seed ``derive_seed(seed, players << 20 | i)``) and, at the start of each
replenish phase but the last, reads every seat's ``core.bots.valuation.later``
features and what the valuation's own model says the rounds left will add to
its total (``multi_value.final_totals`` on ``--futures`` sampled futures, the
bot's magic weights, no correction). When the game ends it knows what they
added. The weights, per table size and round, are the ridge least squares fit
(penalty ``--ridge``, the constant not penalised) of what they added less what
the model said, on the features; they are written, rounded to three decimals, to
``core/bots/valuation/later_weights.py``. With the same arguments the same games
are played and the same weights come out (numpy's solver, from the ``train``
extra: ``pip install -e '.[train]'``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.bots.montecarlo import MonteCarloBot
from core.bots.multi_value import Future, final_totals, later_rounds
from core.bots.play import play_game
from core.bots.valuation.later import FEATURES, features
from core.events.base import Event
from core.game import Game
from core.modes.multiplayer.events import ReplenishBegan
from core.projections.apply import apply
from core.projections.state import GameState
from core.rng import DiceRng, derive_seed
from frontends.cli.args import positive_int, seed_int

WEIGHTS_FILE = Path(__file__).resolve().parent.parent / "core/bots/valuation/later_weights.py"
#: One seat at one replenish: (players, round, features, later points less the model's).
Sample = tuple[int, int, list[float], float]


def model_later(state: GameState, futures: int, stream: int) -> list[float]:
    """What the valuation's model says the rounds left add to each seat's total."""
    bot = MonteCarloBot()
    rng = DiceRng(state.seed, stream)
    drawn = [Future(state, rng, later_rounds(state)) for _ in range(futures)]
    finals = final_totals(
        state,
        0,
        drawn,
        {},
        magic_weight=bot.magic_weight,
        later_magic_weight=bot.later_magic_weight,
    )
    totals = state.totals()
    return [sum(f[s] for f in finals) / futures - totals[s] for s in range(state.players)]


def game_samples(players: int, seed: int, index: int, futures: int) -> list[Sample]:
    """Game ``index`` of the table size's series, and what it teaches."""
    game = Game.new([f"p{s}" for s in range(players)], derive_seed(seed, players << 20 | index))
    seen: dict[int, tuple[list[list[float]], list[float], tuple[int, ...]]] = {}
    before = [game.state]

    def on_move(game: Game, _command, events: tuple[Event, ...]) -> None:
        state = before[0]
        before[0] = game.state
        for event in events:
            state = apply(state, event)
            if isinstance(event, ReplenishBegan):
                found = features(state, state.troves, state.faces)
                seen[state.round] = (
                    found,
                    model_later(state, futures, 0xF17 + state.round),
                    state.totals(),
                )
                return

    final = play_game(game, [MonteCarloBot() for _ in range(players)], on_move).totals()
    samples = []
    for r, (found, model, totals) in sorted(seen.items()):
        for s in range(players):
            samples.append((players, r, found[s], final[s] - totals[s] - model[s]))
    return samples


def _job(job: tuple[int, int, int, int]) -> list[Sample]:
    return game_samples(*job)


def collect(tables, games, seed, futures, jobs) -> list[Sample]:
    """Every game's samples, in the order of the games."""
    todo = [(p, seed, i, futures) for p in tables for i in range(games)]
    found: list[Sample] = []
    if jobs == 1:
        for job in todo:
            found += _job(job)
    else:
        with ProcessPoolExecutor(jobs) as pool:
            for samples in pool.map(_job, todo, chunksize=4):
                found += samples
    return found


def fit(samples: list[Sample], ridge: float) -> dict[tuple[int, int], tuple[float, ...]]:
    """The ridge least squares weights per (players, round), rounded to three decimals."""
    import numpy as np  # the train extra

    weights = {}
    for key in sorted({(p, r) for p, r, _, _ in samples}):
        rows = [(f, y) for p, r, f, y in samples if (p, r) == key]
        x = np.array([f for f, _ in rows])
        y = np.array([y for _, y in rows])
        penalty = ridge * np.eye(len(FEATURES))
        penalty[-1, -1] = 0.0  # the constant is not shrunk
        w = np.linalg.solve(x.T @ x + penalty, x.T @ y)
        weights[key] = tuple(round(float(v), 3) for v in w)
    return weights


def held_out(samples: list[Sample], ridge: float, folds: int = 5) -> dict[tuple[int, int], float]:
    """Per (players, round): the share of the variance of what the model missed that the
    fit explains on games it was not fitted to (R squared, ``folds``-fold by game)."""
    found = {}
    for key in sorted({(p, r) for p, r, _, _ in samples}):
        rows = [s for s in samples if (s[0], s[1]) == key]
        players = key[0]
        missed = predicted = 0.0
        mean = sum(y for _, _, _, y in rows) / len(rows)
        for fold in range(folds):
            mine = [k for k in range(len(rows)) if (k // players) % folds == fold]
            taken = set(mine)
            w = fit([rows[k] for k in range(len(rows)) if k not in taken], ridge)[key]
            for k in mine:
                _, _, f, y = rows[k]
                guess = sum(a * b for a, b in zip(w, f, strict=True))
                predicted += (y - guess) ** 2
                missed += (y - mean) ** 2
        found[key] = 1 - predicted / missed
    return found


def write(weights, note: str, path: Path = WEIGHTS_FILE) -> None:
    lines = [
        '"""The expert\'s correction of the later rounds (``later``); do not edit. Made by',
        "",
        *(f"    {line}" for line in note.split(" \\ ")),
        "",
        "Per (players, round): one weight per ``later.FEATURES``.",
        '"""',
        "",
        "WEIGHTS: dict[tuple[int, int], tuple[float, ...]] = {",
    ]
    for key, w in weights.items():
        lines.append(f"    {key}: (")
        for name, v in zip(FEATURES, w, strict=True):
            lines.append(f"        {v!r},  # {name}")
        lines.append("    ),")
    lines.append("}")
    path.write_text("\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="2,3,4", help="table sizes, comma-separated")
    parser.add_argument("--games", type=positive_int, default=1500, help="games per table size")
    parser.add_argument("--seed", type=seed_int, default=4242)
    parser.add_argument("--futures", type=positive_int, default=96)
    parser.add_argument("--ridge", type=float, default=20.0)
    parser.add_argument("--jobs", type=positive_int, default=1)
    parser.add_argument("--samples", type=Path, help="keep the samples here (JSON lines)")
    parser.add_argument(
        "--from-samples", type=Path, help="fit the samples kept by --samples, playing no game"
    )
    parser.add_argument("--out", type=Path, default=WEIGHTS_FILE)
    args = parser.parse_args(argv)
    tables = [int(p) for p in args.players.split(",")]
    started = time.monotonic()
    if args.from_samples:
        lines = args.from_samples.read_text().splitlines()
        samples = [(p, r, f, y) for p, r, f, y in map(json.loads, lines) if p in tables]
    else:
        samples = collect(tables, args.games, args.seed, args.futures, args.jobs)
    if args.samples and not args.from_samples:
        args.samples.write_text("".join(json.dumps(s) + "\n" for s in samples))
    weights = fit(samples, args.ridge)
    command = (
        f"python -m scripts.fit_later_rounds --players {args.players} --games {args.games} "
        f"--seed {args.seed} \\ --futures {args.futures} --ridge {args.ridge:g}"
    )
    write(weights, command, args.out)
    explained = held_out(samples, args.ridge)
    for key, w in weights.items():
        missed = [y for p, r, _, y in samples if (p, r) == key]
        mean = sum(missed) / len(missed)
        spread = (sum((y - mean) ** 2 for y in missed) / len(missed)) ** 0.5
        print(
            f"{key[0]} players, after round {key[1]}: {len(missed)} seats; the model missed "
            f"{mean:+.1f} points on average (sd {spread:.1f}); the fit explains "
            f"{100 * explained[key]:.1f}% of that on held-out games"
        )
        print("  " + ", ".join(f"{n} {v:+.2f}" for n, v in zip(FEATURES, w, strict=True)))
    print(f"{len(samples)} samples in {time.monotonic() - started:.0f} s; wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
