"""Bots by name, as the command line and the frontends ask for them (``--bots greedy,random``)."""

from __future__ import annotations

from collections.abc import Callable

from core.bots.base import Bot
from core.bots.random_bot import RandomBot

#: Constructors of every bot, by the name a user types.
BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot}


def make_bot(name: str) -> Bot:
    """A new bot of the named kind; ValueError names the kinds there are."""
    try:
        return BOTS[name]()
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(sorted(BOTS))}") from None
