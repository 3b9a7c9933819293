"""Prometheus text read back: the in-process ``/metrics`` tests and the real servers' read
it the same way."""

from __future__ import annotations


def samples(text: str) -> dict[str, float]:
    """The metric lines of a scrape: ``name{labels}`` -> value."""
    found = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            found[name] = float(value)
    return found
