"""How long ``dice-miner analyse`` takes, and what its default sampling costs in accuracy:
``python -m benchmarks.analysis``.

Times the analysis of a 4-player game (the golden ``replays/four-players.dmlog``
by default: 102 decisions) with the default settings, on one core and with
``--jobs 2``, nothing read from or kept beside the log. Each is run ``--repeat``
times; the best and the median are reported (the machine is shared).

``--reference N`` also analyses the game with N futures per decision and says
how far the default's figures are from those: the mean and the largest gap in
the played move's loss, how often the mark and the best move agree, and the
mean gap in each seat's win chance after every event. The reference is itself
an estimate; N = 4 x the default halves its own noise.

It prints a table, then one JSON line. It is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from benchmarks.timing import machine
from core.analysis import DEFAULT_SAMPLES, analyse_log

GAME = Path(__file__).resolve().parents[1] / "replays" / "four-players.dmlog"
#: Seconds the default settings should take on one core.
TARGET = 30.0


def timed(path: str, samples: int | None, jobs: int, repeat: int) -> tuple[list[float], dict]:
    """Seconds of each of ``repeat`` analyses, and the analysis."""
    times, document = [], {}
    for _ in range(repeat):
        began = time.perf_counter()
        document = analyse_log(path, samples, jobs=jobs, keep=False).document
        times.append(time.perf_counter() - began)
    return times, document


def agreement(document: dict, reference: dict) -> dict:
    """How far ``document``'s figures are from ``reference``'s (the same game)."""
    pairs = list(zip(document["decisions"], reference["decisions"], strict=True))
    chosen = [(d, r) for d, r in pairs if not d["forced"]]
    gaps = [abs(d["loss"] - r["loss"]) for d, r in chosen]
    chances = [
        abs(a - b)
        for d, r in zip(document["events"], reference["events"], strict=True)
        for a, b in zip(d["win_chance"], r["win_chance"], strict=True)
    ]
    return {
        "choices": len(chosen),
        "loss_gap_mean": round(statistics.mean(gaps), 2),
        "loss_gap_max": round(max(gaps), 2),
        "same_mark": round(sum(d["mark"] == r["mark"] for d, r in chosen) / len(chosen), 3),
        "same_best": round(
            sum(d["best"]["command"] == r["best"]["command"] for d, r in chosen) / len(chosen), 3
        ),
        "chance_gap_mean": round(statistics.mean(chances), 2),
        "marks": sum(d["mark"] is not None for d, _ in chosen),
        "reference_marks": sum(r["mark"] is not None for _, r in chosen),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.analysis", description=__doc__)
    parser.add_argument("--log", default=str(GAME), help="the game to analyse (4 players)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each timing (default 3)")
    parser.add_argument(
        "--reference",
        type=int,
        default=0,
        metavar="N",
        help="also compare with an analysis on N futures per decision (e.g. 1024)",
    )
    args = parser.parse_args(argv)
    one, document = timed(args.log, None, 1, args.repeat)
    two, parallel = timed(args.log, None, 2, args.repeat)
    if json.dumps(parallel) != json.dumps(document):
        raise AssertionError("--jobs 2 gave another analysis than --jobs 1")
    figures = {
        "log": Path(args.log).name,
        "decisions": len(document["decisions"]),
        "samples": DEFAULT_SAMPLES,
        "one_core_best_s": round(min(one), 2),
        "one_core_median_s": round(statistics.median(one), 2),
        "jobs2_best_s": round(min(two), 2),
        "jobs2_median_s": round(statistics.median(two), 2),
        "target_s": TARGET,
    }
    rows = [
        (
            "analysis, 1 core",
            f"{figures['one_core_best_s']} s best, "
            f"{figures['one_core_median_s']} s median of {args.repeat}",
            f"<= {TARGET:g} s: {'met' if min(one) <= TARGET else 'missed'}",
        ),
        (
            "analysis, --jobs 2",
            f"{figures['jobs2_best_s']} s best, {figures['jobs2_median_s']} s median",
            "",
        ),
    ]
    if args.reference:
        began = time.perf_counter()
        reference = analyse_log(args.log, args.reference, keep=False).document
        figures["reference_samples"] = args.reference
        figures["reference_s"] = round(time.perf_counter() - began, 2)
        figures.update(agreement(document, reference))
        rows.append(
            (
                f"against {args.reference} futures",
                f"loss gap {figures['loss_gap_mean']} mean, {figures['loss_gap_max']} max; "
                f"same mark {100 * figures['same_mark']:.0f}%, same best move "
                f"{100 * figures['same_best']:.0f}%; win chance gap {figures['chance_gap_mean']}",
                f"{figures['reference_s']} s",
            ),
        )
    print(f"{figures['log']}: {figures['decisions']} decisions, {DEFAULT_SAMPLES} futures each")
    for name, value, note in rows:
        print(f"  {name:<24} {value}  {note}")
    print(json.dumps({**figures, **machine()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
