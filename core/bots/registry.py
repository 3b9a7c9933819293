"""Bots by name, as the command line and the frontends ask for them (``--bots greedy,random``)."""

from __future__ import annotations

from collections.abc import Callable

from core.bots.base import Bot
from core.bots.expert import ExpertBot
from core.bots.greedy import GreedyBot
from core.bots.montecarlo import MonteCarloBot
from core.bots.random_bot import RandomBot

#: Constructors of every bot, by the name a user types.
BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "montecarlo": MonteCarloBot,
    "expert": ExpertBot,
}


def make_bot(name: str) -> Bot:
    """A new bot of the named kind; ValueError names the kinds there are."""
    try:
        return BOTS[name]()
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(sorted(BOTS))}") from None


def parse_bots(text: str, seats: int) -> list[str]:
    """Bot names for ``seats`` seats from ``"greedy,random"``; a shorter list repeats.

    ValueError names an unknown bot, an empty name or a list longer than the table.
    """
    names = [name.strip() for name in text.split(",")]
    if not names or any(not name for name in names):
        raise ValueError(f"--bots needs names separated by commas, not {text!r}")
    if len(names) > seats:
        raise ValueError(f"{len(names)} bots named for {seats} seats")
    for name in names:
        make_bot(name)
    return [names[s % len(names)] for s in range(seats)]
