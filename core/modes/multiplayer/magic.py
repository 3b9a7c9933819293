"""What a player may spend in the magic phase and what each spend may reroll.

A magic face showing N symbols rerolls exactly N distinct dice of the spender's
trove, chosen by them; never hazard dice, never magic dice already spent this
round, never hero faces, never the spending die itself. With fewer than N
eligible dice, all eligible dice are rerolled (rule D6).
"""

from __future__ import annotations

from attrs import frozen

from core.dice import KIND_OF, MAGIC_SYMBOLS
from core.projections.state import GameState

#: Per die id: False for a hazard die (never rerolled), True for every other.
_NOT_HAZARD: tuple[bool, ...] = tuple(kind != "hazard" for kind in KIND_OF)


@frozen
class MagicSource:
    """A magic face a player can spend now: a trove die or a hero face."""

    die: int | None
    hero_face: int | None
    symbols: int


def magic_sources(state: GameState, seat: int) -> tuple[MagicSource, ...]:
    """Every unspent magic face of ``seat`` that shows at least one symbol.

    Hero faces count once per round each; a beer-faced magic die has no symbols.
    """
    faces, spent = state.faces, state.spent
    sources = []
    for d in state.troves[seat]:
        if KIND_OF[d] == "magic" and d not in spent:
            face = faces[d]
            assert face is not None, "a die in a trove shows a face"
            symbols = MAGIC_SYMBOLS[face]
            if symbols:
                sources.append(MagicSource(d, None, symbols))
    hero_spent = state.hero_spent[seat]
    for i, face in enumerate(state.hero_faces(seat)):
        if i not in hero_spent:
            symbols = MAGIC_SYMBOLS[face]
            if symbols:
                sources.append(MagicSource(None, i, symbols))
    return tuple(sources)


def has_magic(state: GameState, seat: int) -> bool:
    """True if ``seat`` has a magic face to spend now (``magic_sources`` is not empty)."""
    faces, spent = state.faces, state.spent
    for d in state.troves[seat]:
        if KIND_OF[d] == "magic" and d not in spent:
            face = faces[d]
            assert face is not None, "a die in a trove shows a face"
            if MAGIC_SYMBOLS[face]:
                return True
    hero_spent = state.hero_spent[seat]
    return any(
        i not in hero_spent and MAGIC_SYMBOLS[face] for i, face in enumerate(state.hero_faces(seat))
    )


def reroll_targets(state: GameState, seat: int, source_die: int | None) -> tuple[int, ...]:
    """The dice of ``seat`` a spend from ``source_die`` may reroll (rule D6)."""
    spent = state.spent  # only magic dice are ever spent
    return tuple(
        [d for d in state.troves[seat] if d != source_die and d not in spent and _NOT_HAZARD[d]]
    )


def targets_needed(state: GameState, seat: int, source: MagicSource) -> int:
    """How many dice the spend must reroll: N, or all eligible if fewer (rule D6)."""
    return min(source.symbols, len(reroll_targets(state, seat, source.die)))
