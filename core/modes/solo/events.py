"""The solo game's events (RULES.md section 4): frozen facts, every random outcome inside.

The solo game reuses ``GameStarted`` and ``MountainFilled`` (the first filling)
from ``core.events.game``; these are the facts only a solo game has. A solo
trove keeps its faces for good (nothing rerolls it), so each event records the
bookkeeping a taken die starts with: the sequence a tunnel die joins, the tool
die that neutralizes a hazard, the chest die a frozen treasure sits on.

The solo player is always seat 0; dice are ids 0..59, slots ``row, col``.
"""

from __future__ import annotations

from attrs import frozen

from core.events.base import Event, event

__all__ = [
    "MountainRefilled",
    "SoloDieTaken",
    "SoloGameEnded",
    "SoloMagicSpent",
    "StartingTroveRolled",
]

Placement = tuple[int, int, int, str]  # (die, row, col, face)
Roll = tuple[int, str]  # (die, face)
Recycled = tuple[int, int, int]  # (die, row, col) it left


@event(version=1, rolls=True)
@frozen
class StartingTroveRolled(Event):
    """The starting magic dice were taken from the bag and rolled; the solo game begins.

    ``refills`` is how many times the mountain may be refilled this game.
    """

    rolls: tuple[Roll, ...]
    refills: int = 2


@event(version=1)
@frozen
class SoloDieTaken(Event):
    """A top die went from slot ``row, col`` into the trove, keeping ``face`` for good.

    ``wild``: it showed beer and was turned to ``face`` (rule D9). ``sequence``:
    a tunnel die's sequence index (a 1 opens a new one). ``tool``: the tool die
    that neutralizes a hazard. ``chest``: the chest die a frozen treasure sits on.
    """

    die: int
    face: str
    row: int
    col: int
    wild: bool = False
    sequence: int | None = None
    tool: int | None = None
    chest: int | None = None


@event(version=1)
@frozen
class SoloMagicSpent(Event):
    """A magic die of the trove left the game; ``recycled`` top dice went back to the bag.

    The recycled dice are listed in the order they left, each from the slot it
    was on at that moment.
    """

    die: int
    recycled: tuple[Recycled, ...]


@event(version=1, rolls=True)
@frozen
class MountainRefilled(Event):
    """The player refilled the mountain: bag dice drawn at random, rolled and placed.

    Dice already on the mountain stay; ``placements`` fill the empty slots as
    ``MountainFilled`` does. It uses one of the game's refills.
    """

    placements: tuple[Placement, ...]


@event(version=1)
@frozen
class SoloGameEnded(Event):
    """The solo game ended with this score and rating.

    ``stopped``: the player chose to stop; otherwise nothing more could be done.
    """

    score: int
    rating: str
    stopped: bool


#: The solo game's own facts, registered by ``core.modes.install``.
EVENTS: tuple[type[Event], ...] = (
    StartingTroveRolled,
    SoloDieTaken,
    SoloMagicSpent,
    MountainRefilled,
    SoloGameEnded,
)
