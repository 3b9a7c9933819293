"""Weighing every position of a game, in one process or several.

Each position's judgement depends only on that position and the options (its
futures come from its own stream), so the order and the process that weighs it
change nothing: ``--jobs 2`` gives the same values, byte for byte, as ``--jobs 1``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from core.analysis.judge import Options, Task, judge
from core.bots.valuation.verdict import Judgement


def judge_each(tasks: Sequence[Task], options: Options, jobs: int = 1) -> Iterator[Judgement]:
    """The judgement of each task, in order, weighed in ``jobs`` processes."""
    if jobs <= 1 or len(tasks) < 2:
        for task in tasks:
            yield judge(task, options)
        return
    with ProcessPoolExecutor(min(jobs, len(tasks))) as pool:
        yield from pool.map(partial(_judge, options), tasks, chunksize=1)


def _judge(options: Options, task: Task) -> Judgement:
    return judge(task, options)


__all__ = ["judge_each"]
