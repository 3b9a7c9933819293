"""Analysing a log file: read it, weigh every decision (or read the kept analysis), keep it.

The log is read through the public API (``Game.load``, ``game.batches()``),
so any log the engine can load can be analysed, finished or not; a damaged one
raises the engine's own ``LogError`` naming where it is damaged.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from typing import Any

from attrs import frozen

from core.analysis import cache
from core.analysis.history import history
from core.analysis.judge import Options
from core.analysis.report import report, tasks
from core.analysis.run import judge_each
from core.errors import LogError
from core.game import Game

#: Wraps the judgements as they come (a progress bar): (iterable, total) -> iterable.
Progress = Callable[[Iterable, int], Iterable]

#: Times a log that changes while it is read (a game being played) is read again.
_READS = 3


@frozen
class Outcome:
    """An analysis and where it is kept."""

    document: dict[str, Any]
    path: str | None  # the kept file (None when not kept)
    cached: bool  # read from the kept file, not computed now
    warning: str | None = None  # why it could not be kept, if it could not


def read_game(path: str) -> tuple[str, Game]:
    """The log's SHA-256 and its game, from one and the same content of the file."""
    for _ in range(_READS):
        before = _bytes(path)
        game = Game.load(path)
        if _bytes(path) == before:
            return hashlib.sha256(before).hexdigest(), game
    raise LogError(f"{path}: the log kept changing while it was read; try again")


def _bytes(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise LogError(f"{path}: cannot read log ({exc.strerror or exc})") from None


def analyse_log(
    path: str,
    samples: int | None = None,
    *,
    jobs: int = 1,
    keep: bool = True,
    progress: Progress | None = None,
) -> Outcome:
    """The analysis of the log at ``path``: the kept one if there is one for these bytes
    and options, else computed (``jobs`` processes) and kept beside the log."""
    sha, game = read_game(path)
    batches = game.batches()
    options = Options.for_mode(game.state.mode, samples)
    kept = cache.cache_path(path, sha, options) if keep else None
    if kept is not None:
        document = cache.load(kept, sha, options)
        if document is not None:
            return Outcome(document, kept, True)
    hist = history(batches)
    todo = tasks(hist)
    judged: Iterable = judge_each(todo, options, jobs)
    if progress is not None:
        judged = progress(judged, len(todo))
    document = report(hist, batches, list(judged), options, sha)
    if kept is None:
        return Outcome(document, None, False)
    try:
        cache.store(kept, document)
    except OSError as exc:
        return Outcome(document, None, False, f"cannot keep the analysis in {kept}: {exc}")
    return Outcome(document, kept, False)


__all__ = ["Outcome", "Progress", "analyse_log", "read_game"]
