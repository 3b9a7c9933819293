"""The events every game has, whatever its mode: a game begun, the mountain filled, the
troves rerolled, a command undone. Each mode's own facts are in its package
(``core.modes.multiplayer.events``, ``core.modes.solo.events``, ``core.modes.table.events``).

Every random outcome is inside the event that caused it (each die drawn and where
it landed, each face rolled, each random tie-break), so replaying a log never
rolls a die. Nested records are plain tuples, documented on each field, to keep
the log small and fast to decode; ``docs/reference/log-format.md`` lists them all.

Seats are 0-based in clockwise order. Dice are ids 0..59 (see ``core.dice``).
Slots are written ``row, col`` as in RULES.md section 2.
"""

from __future__ import annotations

from attrs import frozen

from core.events.base import Event, event

__all__ = ["CommandUndone", "GameStarted", "MountainFilled", "TrovesRerolled"]

Placement = tuple[int, int, int, str]  # (die, row, col, face)
Roll = tuple[int, str]  # (die, new face)


@event(version=1)
@frozen
class GameStarted(Event):
    """A game was set up: who plays, with which seed, dice set and rules."""

    game_id: str
    seed: int
    mode: str  # "multi" or "solo"
    players: tuple[str, ...]
    dice_set: str
    rules: str
    hero_deal: str = "choose"  # "choose" or "random"
    starting_magic: int = 3  # solo: magic dice in the starting trove


@event(version=1, rolls=True)
@frozen
class MountainFilled(Event):
    """Dice drawn from the bag at random, rolled, and placed in empty slots."""

    placements: tuple[Placement, ...]


@event(version=1, rolls=True)
@frozen
class TrovesRerolled(Event):
    """Every uncached die in the troves was rerolled."""

    rolls: tuple[Roll, ...]


@event(version=1)
@frozen
class CommandUndone(Event):
    """The command whose batch began at event ``seq`` was undone; its events no longer count."""

    seq: int


#: The facts every game has, registered first by ``core.modes.install``.
EVENTS: tuple[type[Event], ...] = (GameStarted, MountainFilled, TrovesRerolled, CommandUndone)
