"""The engine's benchmarks: ``python -m benchmarks`` (``--quick`` runs in under a minute).

Every figure is measured in the same run on the same machine: bot games per
second (logs written, fsync off, as ``dice-miner simulate`` does), the log's
size, rebuilding the final states from those logs against plain msgpack
decoding of the same files, seeking in a 100,000-event log, and durable
appends. A table for people comes first; the last line is one JSON object.
``python -m benchmarks.web`` (the browser) is separate.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

from benchmarks import append, games, hotpath, rebuild, recording, seek
from benchmarks.timing import machine

#: Work done by a full run and by ``--quick``.
SIZES = {
    "full": {"random": 1000, "greedy": 200, "chunk": 100, "repeat": 5, "append": 4, "record": 200},
    "quick": {"random": 100, "greedy": 20, "chunk": 25, "repeat": 3, "append": 2, "record": 50},
}
#: The events the seek benchmark's log holds at least.
SEEK_EVENTS = 100_000

TARGETS = {
    "rebuild_ratio": ("<=", 5),
    "random_games_per_s": (">=", 500),
    "seek_flatness": ("<=", 2),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smaller run, under a minute")
    parser.add_argument("--profile", action="store_true", help="also print cProfile summaries")
    parser.add_argument("--dir", help="work in this directory (kept) instead of a temporary one")
    args = parser.parse_args(argv)
    size = SIZES["quick" if args.quick else "full"]
    if args.dir:
        os.makedirs(args.dir, exist_ok=True)
        return run(args.dir, size, args)
    with tempfile.TemporaryDirectory(prefix="dm-bench-") as folder:
        return run(folder, size, args)


def run(folder: str, size: dict, args: argparse.Namespace) -> int:
    began = time.perf_counter()
    say = _progress
    say(f"playing {size['random']} games of 4 random bots ...")
    rnd = games.simulate(
        "random", size["random"], os.path.join(folder, "random"), chunk=size["chunk"]
    )
    sizes = games.log_sizes(rnd["log_dir"], rnd["games"], rnd["events"])
    say(f"playing {size['greedy']} games of 4 greedy bots ...")
    chunk = max(1, size["chunk"] // 4)
    grd = games.simulate("greedy", size["greedy"], os.path.join(folder, "greedy"), chunk=chunk)
    say(f"recording {size['record']} random games' facts without deciding ...")
    rec = recording.recording(size["record"], os.path.join(folder, "recorded"), size["repeat"])
    paths = rebuild.log_files(rnd["log_dir"])
    say(f"rebuilding {len(paths)} logs ...")
    reb = rebuild.rebuild(paths, size["repeat"])
    say(f"seeking in a {SEEK_EVENTS:,}-event log ...")
    sk = seek.seek(os.path.join(folder, "long.dmlog"), SEEK_EVENTS, repeat=size["repeat"])
    say("appending with fsync ...")
    apd = append.append(os.path.join(folder), size["append"], size["repeat"])
    figures = {
        "rebuild_ratio": reb["ratio"],
        "random_games_per_s": rnd["median_per_s"],
        "greedy_games_per_s": grd["median_per_s"],
        "recording_games_per_s": rec["games_per_s"],
        "seek_flatness": sk["flatness"],
        "bytes_per_event": sizes["bytes_per_event"],
        "bytes_per_game": sizes["bytes_per_game"],
        "append_fsync_per_s": apd["fsync_per_event_events_per_s"],
        "append_batched_per_s": apd["fsync_per_batch_events_per_s"],
    }
    print(_table(figures, _notes(rnd, grd, reb, sk, apd, rec)))
    if args.profile:
        print(hotpath.profile_games("random", min(50, size["random"])))
        print(hotpath.profile_rebuild(paths[:100]))
    context = {
        "quick": bool(args.quick),
        "simulation_fsync": False,
        "games_per_s_statistic": "median chunk",
        "seek_events": sk["events"],
        "rebuild_logs": reb["logs"],
        "seconds": round(time.perf_counter() - began, 1),
        "machine": machine(),
    }
    print(json.dumps({**figures, **context}))
    return 0


def _progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _verdict(name: str, value: float) -> str:
    if name not in TARGETS:
        return ""
    op, target = TARGETS[name]
    ok = value <= target if op == "<=" else value >= target
    return f"{op} {target}: {'met' if ok else 'missed'}"


def _notes(rnd: dict, grd: dict, reb: dict, sk: dict, apd: dict, rec: dict) -> dict[str, str]:
    """How each figure was measured, for the table."""
    return {
        "rebuild_ratio": (
            f"{reb['logs']} logs: Game.load {reb['rebuild_s']} s, plain msgpack "
            f"{reb['floor_s']} s (best of runs; median ratio {reb['ratio_median']})"
        ),
        "random_games_per_s": (
            f"{rnd['games']} games, {rnd['events']:,} events, logs written without fsync; "
            f"best chunk {rnd['best_per_s']}/s"
        ),
        "greedy_games_per_s": (
            f"{grd['games']} games, logs written without fsync; best chunk {grd['best_per_s']}/s"
        ),
        "recording_games_per_s": (
            f"the floor under random_games_per_s: {rec['games']} random games' commands and "
            f"events made, folded, encoded, framed and written, nothing decided (best run); "
            f"deciding is {_share(rec['games_per_s'], rnd['best_per_s'])} of a played game"
        ),
        "seek_flatness": (
            f"{sk['events']:,} events, snapshot every {sk['every']}: mean seek "
            f"{min(sk['seek_us'])}-{max(sk['seek_us'])} us over {len(sk['points'])} points "
            f"(single positions {sk['single_us'][0]}-{sk['single_us'][1]} us); from the start "
            f"{sk['naive_first_us']:,.0f}-{sk['naive_last_us']:,.0f} us; load {sk['load_s']} s, "
            f"index {sk['index_s']} s"
        ),
        "bytes_per_event": "header and framing included",
        "bytes_per_game": f"{rnd['games']} logs of 4-player random games",
        "append_fsync_per_s": f"events/s, one record and fsync per event ({apd['events']} events)",
        "append_batched_per_s": (
            f"events/s, one record and fsync per command's batch "
            f"({apd['fsync_per_batch_batches_per_s']} batches/s)"
        ),
    }


def _share(floor_per_s: float, played_per_s: float) -> str:
    """The share of a played game's time spent above the recording floor."""
    return f"{1 - played_per_s / floor_per_s:.0%}" if floor_per_s > 0 else "?"


def _table(figures: dict, notes: dict[str, str]) -> str:
    """The figures as an aligned text table: name, value, target and verdict, how."""
    rows = [("figure", "value", "target", "how")]
    rows += [
        (name, f"{value:g}", _verdict(name, value), notes[name]) for name, value in figures.items()
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = []
    for n, row in enumerate(rows):
        cells = "  ".join(cell.ljust(w) for cell, w in zip(row[:3], widths, strict=True))
        lines.append(f"{cells}  {row[3]}")
        if n == 0:
            lines.append("  ".join("-" * w for w in widths) + "  ---")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
