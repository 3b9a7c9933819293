"""Fit the expert's correction of the later rounds (``python -m scripts.fit_later_rounds``).

Plays seeded games of ``--lineup`` (``montecarlo`` against itself unless told;
a lineup shorter than the table is filled with its last bot, seats rotating one
a game as ``bot_strength`` rotates them; game ``i`` of a table size has seed
``derive_seed(seed, players << 20 | i)``) and, at the start of each
replenish phase but the last, reads every seat's ``core.bots.valuation.later``
features and what the valuation's own model says the rounds left will add to
its total (``multi_value.final_totals`` on ``--futures`` sampled futures, the
bot's magic weights, no correction). When the game ends it knows what they
added. The weights, per table size and round, are the ridge least squares fit
(penalty ``--ridge``, the constant not penalised) of what they added less what
the model said, on the features; they are written, rounded to three decimals, to
``core/bots/valuation/later_weights.py``. With ``--split BOT`` the seats ``BOT``
played are fitted apart from the others' (``WEIGHTS`` and ``RIVALS``: the expert
sees its own later rounds go better than its rivals'), at the table sizes of
``--split-players``. With the same arguments the same games
are played and the same weights come out (numpy's solver, from the ``train``
extra: ``pip install -e '.[train]'``).
"""

from __future__ import annotations

import argparse
import json
import runpy
import sys
import textwrap
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.bots.base import Bot
from core.bots.expert import ExpertBot
from core.bots.montecarlo import MonteCarloBot
from core.bots.multi_value import Future, final_totals, later_rounds
from core.bots.play import play_game
from core.bots.registry import make_bot
from core.bots.series import lineup
from core.bots.valuation.later import FEATURES, LaterRounds, Weights, features
from core.events.base import Event
from core.game import Game
from core.modes.multiplayer.events import ReplenishBegan
from core.projections.apply import apply
from core.projections.state import GameState
from core.rng import DiceRng, derive_seed
from frontends.cli.args import positive_int, seed_int

WEIGHTS_FILE = Path(__file__).resolve().parent.parent / "core/bots/valuation/later_weights.py"
#: One seat at one replenish: (players, round, features, later points less the model's,
#: the bot that played the seat).
Sample = tuple[int, int, list[float], float, str]


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


def seated(bots: Sequence[str], players: int, index: int) -> tuple[str, ...]:
    """The bots by seat in game ``index``: ``bots`` filled with its last to the table's
    size, rotated one seat a game."""
    return lineup([*bots, *[bots[-1]] * (players - len(bots))][:players], index, rotate=True)


@cache
def correction_from(path: str) -> LaterRounds:
    """The correction with the weights in ``path``, a module ``--out`` wrote."""
    found = runpy.run_path(path)
    return LaterRounds(found["WEIGHTS"], found.get("RIVALS"))


def seat_bot(name: str) -> Bot:
    """A bot of a lineup: a kind or level, or ``expert@FILE``, the expert correcting the
    later rounds by the weights in ``FILE`` rather than the committed ones (so that a
    fit on the expert's games is made again whatever weights are committed since)."""
    kind, _, weights = name.partition("@")
    if not weights:
        return make_bot(kind)
    if kind != "expert":
        raise ValueError(f"only the expert takes weights, not {kind!r}")
    return ExpertBot(correction=correction_from(weights))


def game_samples(
    players: int, seed: int, index: int, futures: int, bots: Sequence[str] = ("montecarlo",)
) -> list[Sample]:
    """Game ``index`` of the table size's series, and what it teaches."""
    names = seated(bots, players, index)
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

    final = play_game(game, [seat_bot(n) for n in names], on_move).totals()
    samples = []
    for r, (found, model, totals) in sorted(seen.items()):
        for s in range(players):
            missed = final[s] - totals[s] - model[s]
            samples.append((players, r, found[s], missed, names[s].partition("@")[0]))
    return samples


def _job(job: tuple[int, int, int, int, tuple[str, ...]]) -> list[Sample]:
    return game_samples(*job)


def collect(
    tables,
    games,
    seed,
    futures,
    jobs,
    bots=("montecarlo",),
    keep: Path | None = None,
    command: str = "",
) -> list[Sample]:
    """Every game's samples, in the order of the games; with ``keep``, each game's are
    written there (JSON lines, after one naming the ``command`` that played them) as it
    ends, so a run cut short keeps what it played."""
    todo = [(p, seed, i, futures, tuple(bots)) for p in tables for i in range(games)]
    found: list[Sample] = []
    out = keep.open("w") if keep else None
    if out:
        out.write(json.dumps({"made by": command}) + "\n")
    try:
        for samples in _played(todo, jobs):
            found += samples
            if out:
                out.write("".join(json.dumps(s) + "\n" for s in samples))
                out.flush()
    finally:
        if out:
            out.close()
    return found


def _played(todo, jobs: int) -> Iterator[list[Sample]]:
    if jobs == 1:
        yield from map(_job, todo)
        return
    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(_job, todo, chunksize=4)


def fit(samples: list[Sample], ridge: float) -> dict[tuple[int, int], tuple[float, ...]]:
    """The ridge least squares weights per (players, round), rounded to three decimals."""
    import numpy as np  # the train extra

    weights = {}
    for key in sorted({(s[0], s[1]) for s in samples}):
        rows = [(s[2], s[3]) for s in samples if (s[0], s[1]) == key]
        x = np.array([f for f, _ in rows])
        y = np.array([y for _, y in rows])
        penalty = ridge * np.eye(len(FEATURES))
        penalty[-1, -1] = 0.0  # the constant is not shrunk
        w = np.linalg.solve(x.T @ x + penalty, x.T @ y)
        weights[key] = tuple(round(float(v), 3) for v in w)
    return weights


def split_fit(
    samples: list[Sample], ridge: float, bot: str | None, tables: Sequence[int] | None = None
) -> tuple[list[Sample], Weights, list[Sample], Weights]:
    """The seats and weights of ``bot`` and of its rivals: at each table size of ``tables``
    (all by default) where ``bot`` and another bot both played, ``WEIGHTS`` fitted on
    ``bot``'s seats and ``RIVALS`` on the others' (``LaterRounds.seen_by``); elsewhere, or
    with no ``bot``, ``WEIGHTS`` on every seat and no ``RIVALS``."""
    own: list[Sample] = []
    others: list[Sample] = []
    for key in sorted({(s[0], s[1]) for s in samples}):
        rows = [s for s in samples if (s[0], s[1]) == key]
        mine = [s for s in rows if s[4] == bot]
        if mine and len(mine) < len(rows) and (tables is None or key[0] in tables):
            own += mine
            others += [s for s in rows if s[4] != bot]
        else:
            own += rows
    return own, fit(own, ridge), others, fit(others, ridge)


def held_out(samples: list[Sample], ridge: float, folds: int = 5) -> dict[tuple[int, int], float]:
    """Per (players, round): the share of the variance of what the model missed that the
    fit explains on games it was not fitted to (R squared, ``folds``-fold by game)."""
    found = {}
    for key in sorted({(s[0], s[1]) for s in samples}):
        rows = [s for s in samples if (s[0], s[1]) == key]
        players = key[0]
        missed = predicted = 0.0
        mean = sum(s[3] for s in rows) / len(rows)
        for fold in range(folds):
            mine = [k for k in range(len(rows)) if (k // players) % folds == fold]
            taken = set(mine)
            w = fit([rows[k] for k in range(len(rows)) if k not in taken], ridge)[key]
            for k in mine:
                f, y = rows[k][2], rows[k][3]
                guess = sum(a * b for a, b in zip(w, f, strict=True))
                predicted += (y - guess) ** 2
                missed += (y - mean) ** 2
        found[key] = 1 - predicted / missed
    return found


def read_samples(path: Path) -> list[Sample]:
    """The samples kept by ``--samples`` (lines of four, before the bot was kept, are
    ``montecarlo``'s; the first line may say what made them, ``made_by``)."""
    found = []
    for line in path.read_text().splitlines():
        row = json.loads(line)
        if isinstance(row, dict):
            continue
        p, r, f, y, *bot = row
        found.append((p, r, f, y, bot[0] if bot else "montecarlo"))
    return found


def made_by(path: Path) -> str:
    """The command that played the games whose samples ``path`` keeps."""
    with path.open() as kept:
        first = json.loads(kept.readline() or "null")
    return first["made by"] if isinstance(first, dict) else "(not recorded)"


def playing(args: argparse.Namespace) -> str:
    """The command that plays the games of ``args`` (the fit's own options aside)."""
    return (
        f"python -m scripts.fit_later_rounds --players {args.players} --games {args.games} "
        f"--seed {args.seed} --futures {args.futures} --lineup {args.lineup}"
    )


def write(
    weights: Weights,
    commands: Sequence[str],
    path: Path = WEIGHTS_FILE,
    rivals: Weights | None = None,
) -> None:
    """The weights module, its docstring naming the ``commands`` that made it; ``RIVALS``
    (empty unless given) the weights of the seats the expert sees as rivals."""
    wrapped = [
        line
        for command in commands
        for line in textwrap.wrap(
            command,
            88,
            initial_indent="    ",
            subsequent_indent="        ",
            break_on_hyphens=False,
            break_long_words=False,
        )
    ]
    lines = [
        '"""The expert\'s correction of the later rounds (``later``); do not edit. Made by',
        "",
        *wrapped,
        "",
        "Per (players, round): one weight per ``later.FEATURES``. ``WEIGHTS`` correct the",
        "expert's own seat (every seat where ``RIVALS`` has no weights for the table),",
        "``RIVALS`` the seats of its rivals (``later.LaterRounds.seen_by``).",
        '"""',
    ]
    for name, table in (("WEIGHTS", weights), ("RIVALS", rivals or {})):
        head = f"{name}: dict[tuple[int, int], tuple[float, ...]] = {{"
        if not table:
            lines += ["", head + "}"]
            continue
        lines += ["", head]
        for key, w in table.items():
            lines.append(f"    {key}: (")
            for feature, v in zip(FEATURES, w, strict=True):
                lines.append(f"        {v!r},  # {feature}")
            lines.append("    ),")
        lines.append("}")
    path.write_text("\n".join(lines) + "\n")


def describe(samples: list[Sample], weights: Weights, ridge: float, whose: dict) -> None:
    """Print, per table and round, what the model missed and what the fit explains;
    ``whose[key]`` names the seats fitted where they are not every seat."""
    explained = held_out(samples, ridge)
    for key, w in weights.items():
        missed = [s[3] for s in samples if (s[0], s[1]) == key]
        mean = sum(missed) / len(missed)
        spread = (sum((y - mean) ** 2 for y in missed) / len(missed)) ** 0.5
        print(
            f"{whose.get(key, '')}{key[0]} players, after round {key[1]}: {len(missed)} seats; "
            f"the model missed {mean:+.1f} points on average (sd {spread:.1f}); the fit explains "
            f"{100 * explained[key]:.1f}% of that on held-out games"
        )
        print("  " + ", ".join(f"{n} {v:+.2f}" for n, v in zip(FEATURES, w, strict=True)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="2,3,4", help="table sizes, comma-separated")
    parser.add_argument("--games", type=positive_int, default=1500, help="games per table size")
    parser.add_argument("--seed", type=seed_int, default=4242)
    parser.add_argument("--futures", type=positive_int, default=96)
    parser.add_argument("--ridge", type=float, default=20.0)
    parser.add_argument("--jobs", type=positive_int, default=1)
    parser.add_argument(
        "--lineup",
        default="montecarlo",
        help="the bots, comma-separated (filled with the last); expert@FILE plays with the "
        "weights in FILE",
    )
    parser.add_argument("--fit-seats", help="fit only the seats this bot played (default: all)")
    parser.add_argument(
        "--split",
        metavar="BOT",
        help="fit BOT's seats apart from its rivals' where both played (RIVALS)",
    )
    parser.add_argument(
        "--split-players", help="split only at these table sizes, comma-separated (default: all)"
    )
    parser.add_argument("--samples", type=Path, help="keep the samples here (JSON lines)")
    parser.add_argument(
        "--from-samples",
        type=Path,
        nargs="+",
        help="fit the samples kept by --samples (one or more files), playing no game",
    )
    parser.add_argument("--out", type=Path, default=WEIGHTS_FILE)
    args = parser.parse_args(argv)
    tables = [int(p) for p in args.players.split(",")]
    bots = args.lineup.split(",")
    for name in bots:
        seat_bot(name)  # an unknown bot or weights file is named before any game is played
    started = time.monotonic()
    fitting = (
        f"--ridge {args.ridge:g}"
        + (f" --fit-seats {args.fit_seats}" if args.fit_seats else "")
        + (f" --split {args.split}" if args.split else "")
        + (f" --split-players {args.split_players}" if args.split_players else "")
    )
    if args.from_samples:
        samples = [s for path in args.from_samples for s in read_samples(path) if s[0] in tables]
        names = " ".join(path.name for path in args.from_samples)
        commands = [
            *(f"{made_by(path)} --samples {path.name}" for path in args.from_samples),
            "and then",
            f"python -m scripts.fit_later_rounds --from-samples {names} "
            f"--players {args.players} {fitting}",
        ]
    else:
        samples = collect(
            tables,
            args.games,
            args.seed,
            args.futures,
            args.jobs,
            bots,
            args.samples,
            playing(args),
        )
        commands = [f"{playing(args)} {fitting}"]
    if args.fit_seats:
        samples = [s for s in samples if s[4] == args.fit_seats]
    splits = [int(p) for p in args.split_players.split(",")] if args.split_players else None
    own, weights, others, rivals = split_fit(samples, args.ridge, args.split, splits)
    write(weights, commands, args.out, rivals)
    describe(own, weights, args.ridge, {key: f"{args.split}'s seats, " for key in rivals})
    describe(others, rivals, args.ridge, {key: "its rivals' seats, " for key in rivals})
    print(f"{len(samples)} samples in {time.monotonic() - started:.0f} s; wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
