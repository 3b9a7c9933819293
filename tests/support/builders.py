"""Hand-built states and a scripted generator, so rule tests say exactly what they mean."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import attrs
from attrs import evolve

from core.dice import DIE_COUNT, HEROES, KIND_OF
from core.events.base import Event
from core.mountain import EMPTY, slot_index
from core.projections.apply import fold
from core.projections.state import EXCAVATION, SOLO, GameState, SoloState
from core.rng import DiceRng
from core.rules import resolve


class ScriptedRng(DiceRng):
    """A generator whose rolls come from a script (then from a fixed seed).

    ``faces`` are returned by ``roll`` in order; ``indices`` by ``below``.
    """

    def __init__(self, faces: Iterable[str] = (), indices: Iterable[int] = ()) -> None:
        super().__init__(0, 0)
        self.faces = list(faces)
        self.indices = list(indices)

    def roll(self, faces: Sequence[str]) -> str:
        if self.faces:
            face = self.faces.pop(0)
            assert face in faces, f"scripted face {face} is not on this die {faces}"
            return face
        return super().roll(faces)

    def below(self, n: int) -> int:
        if self.indices:
            index = self.indices.pop(0)
            assert 0 <= index < n
            return index
        return super().below(n)


def first_of(kind: str, skip: int = 0) -> int:
    """The id of the ``skip``-th die of a kind."""
    return [d for d in range(DIE_COUNT) if KIND_OF[d] == kind][skip]


def dice_of(kind: str) -> list[int]:
    """Every die id of a kind."""
    return [d for d in range(DIE_COUNT) if KIND_OF[d] == kind]


def make_state(
    players: int = 2,
    *,
    heroes: Sequence[str | None] | None = None,
    mountain: Mapping[tuple[int, int], tuple[int, str]] | None = None,
    troves: Mapping[int, Sequence[tuple[int, str]]] | None = None,
    phase: str = EXCAVATION,
    active: int = 0,
    round: int = 1,
    **changes,
) -> GameState:
    """A multiplayer state: ``mountain`` maps (row, col) to (die, face); ``troves`` seat to dice."""
    names = ("Ada", "Brok", "Cira", "Dain")[:players]
    faces = [None] * DIE_COUNT
    slots = list(EMPTY)
    for (row, col), (die, face) in (mountain or {}).items():
        slots[slot_index(row, col)] = die
        faces[die] = face
    trove_ids = [()] * players
    for seat, dice in (troves or {}).items():
        trove_ids[seat] = tuple(d for d, _ in dice)
        for die, face in dice:
            faces[die] = face
    used = {d for d in slots if d is not None} | {d for t in trove_ids for d in t}
    heroes = tuple(heroes) if heroes else (None,) * players
    state = GameState(
        game_id="test",
        seed=1,
        mode="multi",
        names=names,
        dice_set="standard-d1",
        rules="test",
        phase=phase,
        round=round,
        heroes=heroes,
        hero_table=tuple(HEROES[h] if h else () for h in heroes),  # as HeroChosen records them
        start_seat=0,
        active=active,
        mountain=tuple(slots),
        bag=tuple(d for d in range(DIE_COUNT) if d not in used),
        troves=tuple(trove_ids),
        faces=tuple(faces),
        hero_spent=(frozenset(),) * players,
        cached=((),) * players,
        round_scores=((),) * players,
    )
    return evolve(state, **changes) if changes else state


def solo_state(mountain=None, trove=(), **changes) -> GameState:
    """A solo state in play: ``mountain`` maps (row, col) to (die, face); ``trove`` is
    (die, face) pairs; the rest of the dice are in the bag. ``changes`` may name the solo
    record's fields too (``sequences=...``, ``refills_left=...``)."""
    solo_names = {f.name for f in attrs.fields(SoloState)}
    solo = SoloState(
        **{"refills_left": 2, **{k: changes.pop(k) for k in solo_names & changes.keys()}}
    )
    faces = [None] * DIE_COUNT
    slots = list(EMPTY)
    for (row, col), (die, face) in (mountain or {}).items():
        slots[slot_index(row, col)] = die
        faces[die] = face
    for die, face in trove:
        faces[die] = face
    used = {d for d in slots if d is not None} | {d for d, _ in trove}
    used |= set(solo.out_of_game)
    state = GameState(
        game_id="test",
        seed=1,
        mode="solo",
        names=("Ada",),
        dice_set="standard-d1",
        rules="test",
        phase=SOLO,
        active=0,
        heroes=(None,),
        troves=(tuple(d for d, _ in trove),),
        hero_spent=(frozenset(),),
        cached=((),),
        round_scores=((),),
        mountain=tuple(slots),
        bag=tuple(d for d in range(DIE_COUNT) if d not in used),
        faces=tuple(faces),
        solo=solo,
    )
    return evolve(state, **changes)


def row0(*dice_faces):
    """A mountain of bottom-row dice only: every one of them is a top die."""
    return {(0, i): df for i, df in enumerate(dice_faces)}


def given(events: Iterable[Event]) -> GameState:
    """The state after these events (the 'given' of a story)."""
    return fold(events)


def when(state: GameState, command, rng: DiceRng | None = None):
    """Decide ``command`` in ``state``: (events, resulting state)."""
    return resolve(state, command, rng or ScriptedRng())


def dice_places(state: GameState) -> list[int]:
    """Every die where the state keeps it: the bag, the mountain, the troves and out of the
    game (solo), sorted: a state that lost or doubled a die differs from ``range(60)``."""
    places = list(state.bag) + [d for d in state.mountain if d is not None]
    places += [d for trove in state.troves for d in trove] + list(state.solo.out_of_game)
    return sorted(places)
