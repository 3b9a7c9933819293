"""Screen changes to the table expert by paired games (``python -m scripts.expert_screen``).

Each argument is a setting of the expert (``core.bots.expert_multi.ExpertSettings``:
``base`` for the committed one, or ``field=value,...`` such as ``blend=0.5,temperature=6``),
optionally with ``@FILE``: the later rounds corrected by the weights in ``FILE``, a module
``scripts/fit_later_rounds.py --out`` wrote, rather than the committed ones.
Every setting plays the same seeded games against ``montecarlo`` (game ``i`` has seed
``derive_seed(seed, i)``, seats rotating as ``bot_strength`` rotates them), so the
luck of the deal and of the first rolls is shared and a difference between two
settings is measured game by game (paired) rather than table by table. The first
setting is the reference: the report gives each other's paired difference in wins
and in the expert's margin over the best rival, with 95% intervals, and the
expert's median ms per decision.

Results are kept per game in ``--cache`` (a JSON file per setting, table size and
seed), so the reference is played once for many screens and a screen may be
stopped and resumed. Settings are tuned on seeds kept for tuning; the reported
figures come from other seeds (docs/performance.md says which).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.bots.expert import ExpertBot
from core.bots.expert_multi import ExpertSettings
from core.bots.montecarlo import MonteCarloBot
from core.bots.play import bot_command
from core.bots.series import lineup
from core.game import Game
from core.rng import derive_seed
from frontends.cli.args import positive_int, seed_int
from scripts.bot_strength import mean_interval, wilson
from scripts.fit_later_rounds import correction_from

#: One game's outcome for the expert: (win share, margin over the best rival, ms per decision).
Outcome = tuple[float, int, list[float]]


def settings(spec: str) -> ExpertSettings:
    """``base`` or ``field=value,...`` as expert settings (each value of its field's type)."""
    if spec == "base":
        return ExpertSettings()
    fields = {f.name: f.type for f in attrs.fields(ExpertSettings)}
    given = {}
    for part in spec.split(","):
        name, _, value = part.partition("=")
        if name not in fields:
            raise ValueError(f"no setting {name!r}; the settings are {', '.join(fields)}")
        given[name] = float(value) if fields[name] in (float, "float") else int(value)
    return ExpertSettings(**given)


def expert(spec: str) -> ExpertBot:
    """The expert a spec names: its settings, and with ``@FILE`` the weights there."""
    setting, _, weights = spec.partition("@")
    return ExpertBot(settings(setting), correction_from(weights) if weights else None)


def play(spec: str, players: int, seed: int, index: int) -> Outcome:
    """Game ``index`` of the series: the expert with ``spec`` against ``montecarlo``."""
    seats = lineup(["expert"] + ["montecarlo"] * (players - 1), index, rotate=True)
    mine = seats.index("expert")
    bots = [expert(spec) if s == mine else MonteCarloBot() for s in range(players)]
    game = Game.new([f"p{s}" for s in range(players)], derive_seed(seed, index))
    times: list[float] = []
    while not game.state.is_over:
        seat = game.state.to_act()
        assert seat is not None, "a game not over waits for a seat"
        started = time.process_time()
        command = bot_command(game, bots[seat])
        if seat == mine:
            times.append(round(1000 * (time.process_time() - started), 1))
        game.issue(command)
    state = game.state
    totals = state.totals()
    share = 1 / len(state.winners) if mine in state.winners else 0.0
    margin = totals[mine] - max(t for s, t in enumerate(totals) if s != mine)
    return share, margin, times


def _job(job: tuple[str, int, int, int]) -> tuple[str, int, Outcome]:
    spec, players, seed, index = job
    return spec, index, play(spec, players, seed, index)


def cache_path(folder: Path, spec: str, players: int, seed: int) -> Path:
    setting, _, weights = spec.partition("@")
    name = setting.replace("=", "-").replace(",", "_") + (
        f"_with-{Path(weights).stem}" if weights else ""
    )
    return folder / f"{name}-p{players}-s{seed}.json"


def screen(specs, players, seed, games, jobs, folder: Path) -> dict[str, dict[int, Outcome]]:
    """Every setting's outcome in games 0 .. ``games`` - 1, played where not cached."""
    folder.mkdir(parents=True, exist_ok=True)
    found: dict[str, dict[int, Outcome]] = {}
    for spec in specs:
        path = cache_path(folder, spec, players, seed)
        kept = json.loads(path.read_text()) if path.exists() else {}
        found[spec] = {int(i): (o[0], o[1], o[2]) for i, o in kept.items()}
    todo = [(s, players, seed, i) for i in range(games) for s in specs if i not in found[s]]
    done = 0

    def keep(spec: str, index: int, outcome: Outcome) -> None:
        nonlocal done
        found[spec][index] = outcome
        done += 1
        if done % 10 == 0 or done == len(todo):
            for s in specs:
                path = cache_path(folder, s, players, seed)
                path.write_text(json.dumps({str(i): o for i, o in sorted(found[s].items())}))
            print(f"  {done}/{len(todo)} games played", file=sys.stderr, flush=True)

    if jobs == 1:
        for job in todo:
            keep(*_job(job))
    else:
        with ProcessPoolExecutor(jobs) as pool:
            for result in pool.map(_job, todo, chunksize=1):
                keep(*result)
    return {s: {i: found[s][i] for i in range(games)} for s in specs}


def report(found: dict[str, dict[int, Outcome]]) -> str:
    """Per setting: wins (95% interval), mean margin, ms per decision; then each setting's
    paired difference from the first."""
    specs = list(found)
    lines = [f"{'setting':<28} {'games':>5} {'win %':>6} {'95%':>11} {'margin':>7} {'ms med':>7}"]
    for spec in specs:
        games = found[spec]
        wins = sum(o[0] for o in games.values())
        low, high = wilson(wins, len(games))
        margin = sum(o[1] for o in games.values()) / len(games)
        times = sorted(t for o in games.values() for t in o[2])
        median = times[len(times) // 2] if times else math.nan
        lines.append(
            f"{spec:<28} {len(games):>5} {100 * wins / len(games):>5.1f}% "
            f"{100 * low:>4.1f}-{100 * high:<5.1f} {margin:>+7.2f} {median:>7.1f}"
        )
    first = found[specs[0]]
    for spec in specs[1:]:
        other = found[spec]
        shares = [other[i][0] - first[i][0] for i in first]
        margins = [other[i][1] - first[i][1] for i in first]
        w, wh = mean_interval(shares)
        m, mh = mean_interval(margins)
        better = sum(d > 0 for d in shares)
        worse = sum(d < 0 for d in shares)
        lines.append(
            f"{spec} - {specs[0]}: wins {100 * w:+.1f} ± {100 * wh:.1f} points "
            f"(won where the other lost {better}, the reverse {worse}); "
            f"margin {m:+.2f} ± {mh:.2f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="+", help="settings: base, or field=value,...")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--games", type=positive_int, default=100)
    parser.add_argument("--seed", type=seed_int, default=555)
    parser.add_argument("--jobs", type=positive_int, default=1)
    parser.add_argument("--cache", type=Path, default=Path("tmp/expert_screen"))
    args = parser.parse_args(argv)
    for spec in args.specs:
        expert(spec)  # a bad setting or weights file is named before any game is played
    started = time.monotonic()
    found = screen(args.specs, args.players, args.seed, args.games, args.jobs, args.cache)
    print(
        f"{args.games} games of {args.players} players against montecarlo, seed {args.seed}, "
        f"seats rotating, {time.monotonic() - started:.0f} s"
    )
    print(report(found))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
