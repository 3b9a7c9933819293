"""Bots by name, as the command line and the frontends ask for them (``--bots greedy,random``).

A bot is named by its kind (``greedy``), as logs name it (``Brok (greedy)``), or
by its level of strength (``medium``), which a newcomer can choose by: each level
is one kind, and a game records the kind, so old and new logs replay alike.
"""

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

#: The levels of strength, weakest first, each the kind it plays.
LEVELS: dict[str, str] = {
    "easy": "random",
    "medium": "greedy",
    "hard": "montecarlo",
    "expert": "expert",
}

#: The opponent a newcomer meets when none is asked for: one they can beat sometimes.
DEFAULT_LEVEL = "medium"

#: What each kind was measured to do (docs/performance.md: ``scripts/bot_strength.py``), for the
#: help texts and the web form: its mean solo score, and at a table of four.
MEASURED: dict[str, str] = {
    "random": "any legal move; solo 0.6 points on average",
    "greedy": "the best score now; solo 29.3 points on average",
    "montecarlo": "plays the future out; solo 32.6; alone against 3 medium wins 51 games in 100",
    "expert": "the widest search and learned weights; solo 33.6 (the best); "
    "beats hard in 67 of 100 two-player games",
}


#: Each name a bot may be asked for by, and the kind it plays: the levels (``"medium"``) and
#: the kinds themselves (a kind wins where a level has its name).
BY_NAME: dict[str, str] = {**LEVELS, **{kind: kind for kind in BOTS}}


def bot_kind(name: str) -> str:
    """The kind of bot a name asks for: a kind, or a level; ValueError names them."""
    if name not in BY_NAME:
        raise ValueError(f"unknown bot {name!r}; choose from {choices()}")
    return BY_NAME[name]


def choices() -> str:
    """The names a user may type, levels first: ``easy (random), medium (greedy), ...``."""
    levels = [level if kind == level else f"{level} ({kind})" for level, kind in LEVELS.items()]
    others = [kind for kind in BOTS if kind not in LEVELS.values()]
    return ", ".join(levels + others)


def levels_help() -> str:
    """One line per level: its name, its kind and what it was measured to do."""
    return "; ".join(
        f"{level}{'' if kind == level else f' ({kind})'}: {MEASURED[kind]}"
        for level, kind in LEVELS.items()
    )


def make_bot(name: str) -> Bot:
    """A new bot of the named kind or level; ValueError names the choices."""
    return BOTS[bot_kind(name)]()


def parse_bots(text: str, seats: int) -> list[str]:
    """Bot kinds for ``seats`` seats from ``"greedy,random"`` (or levels:
    ``"hard,easy"``); a shorter list repeats.

    ValueError names an unknown bot, an empty name or a list longer than the table.
    """
    names = [name.strip() for name in text.split(",")]
    if not names or any(not name for name in names):
        raise ValueError(f"--bots needs names separated by commas, not {text!r}")
    if len(names) > seats:
        raise ValueError(f"{len(names)} bots named for {seats} seats")
    kinds = [bot_kind(name) for name in names]
    return [kinds[s % len(kinds)] for s in range(seats)]
