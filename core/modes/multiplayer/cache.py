"""Caching in the replenish: which dice a player may keep as they are.

rule D7: a player keeps as many dice as the chests they use; a tool die whose
chests are used is rerolled, not cached itself. So a cache is legal when its
size is at most the hero's chests plus the chests on the trove's tool dice that
are not themselves cached.
"""

from __future__ import annotations

from collections.abc import Collection

from core.dice import KIND_OF, chests
from core.modes.multiplayer.scoring import chest_capacity
from core.projections.state import GameState


def chest_dice(state: GameState, seat: int) -> tuple[int, ...]:
    """The tool dice of ``seat`` showing chests."""
    faces, found = state.faces, []
    for d in state.troves[seat]:
        if KIND_OF[d] == "tool":
            face = faces[d]
            assert face is not None, "a die in a trove shows a face"
            if chests(face):
                found.append(d)
    return tuple(found)


def chests_lent(state: GameState, seat: int) -> dict[int, int]:
    """The chests each chest die of ``seat`` lends to the cache while it is not cached."""
    return {d: chests(state.face(d)) for d in chest_dice(state, seat)}


def cache_capacity(state: GameState, seat: int, cache: Collection[int] = ()) -> int:
    """How many dice ``seat`` may cache if ``cache`` is cached (rule D7)."""
    hero = chest_capacity(state.hero_faces(seat))
    return hero + sum(n for d, n in chests_lent(state, seat).items() if d not in cache)


def is_legal_cache(state: GameState, seat: int, cache: Collection[int]) -> bool:
    """True if caching ``cache`` keeps within the chests it leaves in use (rule D7)."""
    return len(cache) <= cache_capacity(state, seat, cache)
