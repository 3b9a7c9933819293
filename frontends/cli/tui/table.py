"""Who sits at the table: people at the keyboard and bots, and how the log remembers which.

The log records only the players' names, so a bot's seat is named after its
kind, ``"Brok (greedy)"``; resuming a game reads the kinds back from the names.
A kind this program no longer has is replaced by the default one.
"""

from __future__ import annotations

import re

from attrs import frozen

from core.bots import BOTS

#: Names given to bots, in seat order after the people.
BOT_NAMES = ("Brok", "Cira", "Dain", "Edda", "Frar", "Gunna", "Hild")

_BOT_NAME = re.compile(r"^(?P<name>.+) \((?P<kind>[a-z][a-z0-9_-]*)\)$")


def default_bot() -> str:
    """The opponents' kind when none is asked for: greedy if this build has it."""
    return "greedy" if "greedy" in BOTS else "random"


@frozen
class Seat:
    """One seat: the player's name as logged, and the bot kind playing it (None: a person)."""

    name: str
    bot: str | None = None

    @property
    def is_human(self) -> bool:
        """True for a person at the keyboard."""
        return self.bot is None


def bot_seat(name: str, kind: str) -> Seat:
    """A bot's seat, named so that a resumed game knows it is a bot."""
    return Seat(f"{name} ({kind})", kind)


def seats_from_names(names: tuple[str, ...]) -> tuple[tuple[Seat, ...], list[str]]:
    """The seats of a logged game, and notes about bot kinds that had to be replaced."""
    seats, notes = [], []
    for name in names:
        match = _BOT_NAME.match(name)
        if match is None:
            seats.append(Seat(name))
            continue
        kind = match["kind"]
        if kind not in BOTS:
            notes.append(f"{name} plays as a {default_bot()} bot ({kind!r} is not available)")
            kind = default_bot()
        seats.append(Seat(name, kind))
    if all(not s.is_human for s in seats):  # nobody at the keyboard: the first seat is yours
        seats[0] = Seat(seats[0].name)
    return tuple(seats), notes


def short_name(seat: Seat) -> str:
    """The name without the bot's kind, for tight columns."""
    match = _BOT_NAME.match(seat.name)
    return match["name"] if match and seat.bot else seat.name
