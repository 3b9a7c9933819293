"""Chance outcomes shared by both game modes: filling the mountain and rolling dice.

Each function takes the command's generator and returns the event that records
what the dice did, so replay never rolls.
"""

from __future__ import annotations

from collections.abc import Iterable

from core.dice import faces_of
from core.events.game import MountainFilled, TrovesRerolled
from core.mountain import SLOTS, fillable_slots
from core.projections.state import GameState
from core.rng import DiceRng


def fill_mountain(state: GameState, rng: DiceRng) -> MountainFilled:
    """Draw dice from the bag at random, roll each, and place them in the empty slots.

    Slots are filled bottom row first, left to right, only where both dice below
    are present, until the mountain is full or the bag is empty.
    """
    bag = list(state.bag)
    placements = []
    for k in fillable_slots(state.mountain)[: len(bag)]:
        die = bag.pop(rng.below(len(bag)))
        row, col = SLOTS[k]
        placements.append((die, row, col, rng.roll(faces_of(die))))
    return MountainFilled(tuple(placements))


def roll_dice(dice: Iterable[int], rng: DiceRng) -> tuple[tuple[int, str], ...]:
    """Roll each die once, in the given order."""
    return tuple([(d, rng.roll(faces_of(d))) for d in dice])


def reroll_troves(dice: Iterable[int], rng: DiceRng) -> TrovesRerolled:
    """Reroll these trove dice (ascending die order, so the result is canonical)."""
    return TrovesRerolled(roll_dice(sorted(dice), rng))
