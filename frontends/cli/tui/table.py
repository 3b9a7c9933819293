"""Who sits at the terminal's table: people at the keyboard and bots (``core.host.seats``).

A seat is a ``core.store.SeatRecord``: the player's name as logged and the bot
kind playing it (None: a person here). The log records only the names, so a
bot's seat is named after its kind, ``"Brok (greedy)"``, and a resumed game
reads the kinds back from the names; a kind this program no longer has is
replaced by the default one.
"""

from __future__ import annotations

from core import (
    BOT_NAMES,
    BOTS,
    DEFAULT_LEVEL,
    LEVELS,
    SeatRecord,
    bot_name,
    seating_from_names,
    short_name,
)

#: A seat at the terminal's table.
Seat = SeatRecord


def default_bot() -> str:
    """The opponents' kind when none is asked for: the default level's (one a newcomer
    can beat sometimes)."""
    return LEVELS[DEFAULT_LEVEL]


def bot_seat(name: str, kind: str) -> Seat:
    """A bot's seat, named so that a resumed game knows it is a bot."""
    return Seat(bot_name(name, kind), kind)


def seats_from_names(names: tuple[str, ...]) -> tuple[tuple[Seat, ...], list[str]]:
    """The seats of a logged game, and notes about bot kinds that had to be replaced."""
    seating, notes = seating_from_names(names, BOTS, default_bot())
    return seating.seats, notes


__all__ = ["BOT_NAMES", "Seat", "bot_seat", "default_bot", "seats_from_names", "short_name"]
