"""Timing helpers shared by the engine benchmarks: repeat, keep every run, report best and median.

The machine these figures come from is shared, so one run can be slowed by
someone else's job: every measurement is repeated, and the figures say which
statistic they are (the best run shows what the code can do, the median what
a user would see on a busy machine).
"""

from __future__ import annotations

import gc
import os
import platform
import statistics
import time
from collections.abc import Callable
from typing import Any


def runs(fn: Callable[[], Any], repeat: int) -> list[float]:
    """Seconds taken by each of ``repeat`` calls of ``fn``.

    As ``timeit`` does, the cyclic garbage collector is paused while a call is
    timed (after one collection first), so a collection triggered by earlier
    work is not charged to whichever call happens to be running.
    """
    times = []
    gc.collect()
    enabled = gc.isenabled()
    try:
        for _ in range(repeat):
            gc.disable()
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
            if enabled:
                gc.enable()
    finally:
        if enabled:
            gc.enable()
    return times


def runs_each(fn: Callable[[Any], Any], args: list, repeat: int) -> list[list[float]]:
    """``repeat`` rounds of timing ``fn(arg)`` for each arg: one list of seconds per round."""
    rounds = []
    for _ in range(repeat):
        rounds.append(runs_one_each(fn, args))
    return rounds


def runs_one_each(fn: Callable[[Any], Any], args: list) -> list[float]:
    """Seconds taken by ``fn(arg)`` for each arg, the collector paused as in ``runs``."""
    times = []
    clock = time.perf_counter
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        for arg in args:
            start = clock()
            fn(arg)
            times.append(clock() - start)
    finally:
        if enabled:
            gc.enable()
    return times


def best(times: list[float]) -> float:
    """The fastest run."""
    return min(times)


def median(times: list[float]) -> float:
    """The median run."""
    return statistics.median(times)


def machine() -> dict[str, Any]:
    """What the figures were measured on: CPU count, load, Python."""
    try:
        load = round(os.getloadavg()[0], 2)
    except OSError:
        load = None
    return {
        "cpus": os.cpu_count(),
        "load_1min": load,
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
    }


def rate(count: float, seconds: float) -> float:
    """``count`` per second, rounded for a table."""
    return round(count / seconds, 1) if seconds > 0 else float("inf")
