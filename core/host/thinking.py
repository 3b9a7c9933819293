"""Where a bot thinks: the one CPU-bound step of a table, run through ``think``.

By default a bot decides in the thread that asks (``BotRunner``'s workers, a tool's
own loop). A server whose threads are greenlets on one event loop (gunicorn's
gevent worker) must not decide there: a Monte Carlo bot's second of thought would
stall every request and stream of the process. It hands ``think_in`` a runner that
computes in a real OS thread and parks only the asking greenlet meanwhile. A
decision reads a snapshot and touches nothing shared, so it may run anywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

#: Runs ``fn(*args)`` and returns its result; None: in the calling thread.
_runner: Callable[..., Any] | None = None


def think(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)``, computed where this process runs CPU-bound work."""
    if _runner is None:
        return fn(*args)
    return _runner(fn, *args)


def think_in(runner: Callable[..., Any] | None) -> None:
    """Compute every later ``think`` with ``runner(fn, *args)`` (None: in the caller)."""
    global _runner
    _runner = runner


__all__ = ["think", "think_in"]
