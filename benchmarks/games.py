"""Whole games between bots per second, log writing included, and the logs' sizes.

Games are played exactly as ``dice-miner simulate`` plays them
(``core.bots.series.play_series``): in memory, each log written to its own
file in one write at the end, without fsync (a simulation can be run again;
a game played by people fsyncs every command, see ``benchmarks.append``).
The series is timed in chunks; the figure is the median chunk's rate, and the
best chunk is shown beside it.
"""

from __future__ import annotations

import os
import time
from typing import Any

from benchmarks.timing import rate
from core.bots.series import play_series

PLAYERS = 4


def simulate(bot: str, games: int, out_dir: str, *, seed: int = 1, chunk: int = 50) -> dict:
    """Play ``games`` 4-player games of ``bot`` against itself, logs into ``out_dir``."""
    os.makedirs(out_dir, exist_ok=True)
    warm = os.path.join(out_dir, "warm-up")
    os.makedirs(warm, exist_ok=True)
    for _ in play_series([bot] * PLAYERS, seed ^ 0xFFFF, 2, out_dir=warm):
        pass  # first calls build caches (converter hooks, generated code)
    rates, events, total = [], 0, 0.0
    for start in range(0, games, chunk):
        count = min(chunk, games - start)
        began = time.perf_counter()
        for result in play_series([bot] * PLAYERS, seed, count, out_dir=out_dir, start=start):
            events += result.events
        seconds = time.perf_counter() - began
        total += seconds
        rates.append(count / seconds)
    rates.sort()
    return {
        "bot": bot,
        "games": games,
        "events": events,
        "seconds": round(total, 3),
        "median_per_s": round(rates[len(rates) // 2], 1),
        "best_per_s": round(rates[-1], 1),
        "mean_per_s": rate(games, total),
        "log_dir": out_dir,
    }


def log_sizes(out_dir: str, games: int, events: int) -> dict[str, Any]:
    """Bytes per event and per game of the logs a series wrote (headers and framing included)."""
    size = sum(
        os.path.getsize(os.path.join(out_dir, name))
        for name in os.listdir(out_dir)
        if name.endswith(".dmlog")
    )
    return {
        "bytes": size,
        "bytes_per_event": round(size / events, 1),
        "bytes_per_game": round(size / games),
    }
