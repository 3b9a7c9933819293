"""Upcasters: turn an event written at an older schema version into the current one.

``UPCASTERS[(tag, n)]`` takes the plain field map of a version-``n`` event and
returns the version ``n + 1`` map. The codec chains them on reading, so old logs
load into today's classes and nothing is ever rewritten on disk.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Fields = dict[str, Any]

UPCASTERS: dict[tuple[str, int], Callable[[Fields], Fields]] = {}


def upcaster(tag: str, from_version: int):
    """Register a function that lifts ``tag`` events from ``from_version`` by one."""

    def register(fn: Callable[[Fields], Fields]) -> Callable[[Fields], Fields]:
        UPCASTERS[(tag, from_version)] = fn
        return fn

    return register


def upcast(tag: str, version: int, target: int, fields: Fields) -> Fields:
    """Apply the chain of upcasters from ``version`` up to ``target``."""
    while version < target:
        step = UPCASTERS.get((tag, version))
        if step is None:
            raise KeyError(f"no upcaster for {tag} v{version}")
        fields = step(fields)
        version += 1
    return fields
