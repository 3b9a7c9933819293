"""Waiting for something another thread or process does, without a fixed sleep."""

from __future__ import annotations

import time


def wait_until(predicate, timeout: float = 10.0, step: float = 0.02) -> bool:
    """Poll ``predicate`` until it is true or ``timeout`` seconds pass; its last answer."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return predicate()
