"""Which events show what the dice rolled: the moments undo must never take back.

Every random outcome is recorded in its event (a roll, a draw from the bag, a
random tie-break). Once a player has seen one, taking the move back would let
them try again with that knowledge: the dice come from one stream per position,
so one look tells what any die would roll there. The undo policy
(``core.host.undo``) asks this module whether a batch showed dice.
"""

from __future__ import annotations

from collections.abc import Iterable

from core.events import game as gev
from core.events.base import Event
from core.modes.solo import events as sev

#: Events that always carry a random outcome.
_ALWAYS: tuple[type[Event], ...] = (
    gev.FirstPlayerRolled,  # the roll-off for first player
    gev.HeroesDealt,  # heroes dealt at random
    gev.MountainFilled,  # dice drawn from the bag and rolled: a round's new mountain
    gev.BeerShared,  # the shared beer die rerolled
    gev.TrovesRerolled,  # the replenish's reroll of every uncached die
    sev.StartingTroveRolled,  # the solo game's starting magic dice
    sev.MountainRefilled,  # the solo refill: bag dice drawn and rolled
)


def shows_dice(events: Iterable[Event]) -> bool:
    """True if any of ``events`` shows a random outcome (a roll, a draw, a tie broken
    at random)."""
    for event in events:
        if isinstance(event, _ALWAYS):
            return True
        if isinstance(event, gev.MagicSpent) and event.rolls:
            return True
        if isinstance(event, gev.StartPlayerChosen) and event.tied:
            return True
    return False


__all__ = ["shows_dice"]
