"""Which events show what the dice rolled: the moments undo must never take back.

Every random outcome is recorded in its event (a roll, a draw from the bag, a
random tie-break). Once a player has seen one, taking the move back would let
them try again with that knowledge: the dice come from one stream per position,
so one look tells what any die would roll there. The undo policy
(``core.host.undo``) asks this module whether a batch showed dice; each event says
so itself (``Event.shows_dice``: ``@event(rolls=True)`` for a fact that always rolls,
a method of its own for one that rolls only sometimes), so a mode's new fact is
covered where it is defined.
"""

from __future__ import annotations

from collections.abc import Iterable

from core.events.base import Event


def shows_dice(events: Iterable[Event]) -> bool:
    """True if any of ``events`` shows a random outcome (a roll, a draw, a tie broken
    at random)."""
    return any(event.shows_dice() for event in events)


__all__ = ["shows_dice"]
