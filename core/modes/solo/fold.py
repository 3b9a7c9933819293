"""The solo game's projection handlers: each solo event folded onto the state.

Handlers only record what the event says (the rules chose the sequence, the
neutralizing tool and the chest); the solo player is always seat 0.
``HANDLERS`` is the mode's ``MODE.fold``, handed to ``core.projections.apply``.
"""

from __future__ import annotations

from typing import Any

from attrs import evolve

from core.events import game as ev
from core.events.base import Event
from core.modes.solo import events as sev
from core.mountain import slot_at
from core.projections.apply import HANDLERS as FOLDED
from core.projections.apply import Handler, handler_table
from core.projections.state import OVER, SOLO, GameState, SoloState

#: This mode's fold, one handler per event: the mode's ``MODE.fold``.
HANDLERS: dict[type[Event], Handler] = {}
handles = handler_table(HANDLERS)

SEAT = 0  # the solo player's seat


def _set_faces(faces: tuple, rolls) -> tuple:
    new = list(faces)
    for die, face in rolls:
        new[die] = face
    return tuple(new)


@handles(sev.StartingTroveRolled)
def _trove_rolled(state: GameState, e: sev.StartingTroveRolled) -> GameState:
    dice = {d for d, _ in e.rolls}
    return evolve(
        state,
        phase=SOLO,
        active=SEAT,
        troves=(tuple(d for d, _ in e.rolls),),
        faces=_set_faces(state.faces, e.rolls),
        bag=tuple(d for d in state.bag if d not in dice),
        solo=SoloState(refills_left=e.refills),
    )


@handles(sev.SoloDieTaken)
def _taken(state: GameState, e: sev.SoloDieTaken) -> GameState:
    slots = list(state.mountain)
    slots[slot_at(e.row, e.col)] = None
    solo = state.solo
    changes: dict[str, Any] = {}
    if e.sequence is not None:
        seqs = solo.sequences
        if e.sequence == len(seqs):
            changes["sequences"] = (*seqs, (e.die,))
        else:
            grown = (*seqs[e.sequence], e.die)
            changes["sequences"] = seqs[: e.sequence] + (grown,) + seqs[e.sequence + 1 :]
    if e.tool is not None:
        changes["neutralized"] = (*solo.neutralized, (e.die, e.tool))
    if e.chest is not None:
        changes["frozen"] = (*solo.frozen, (e.die, e.chest))
    return evolve(
        state,
        mountain=tuple(slots),
        troves=((*state.troves[SEAT], e.die),),
        faces=_set_faces(state.faces, ((e.die, e.face),)),
        solo=evolve(solo, **changes) if changes else solo,
    )


@handles(sev.SoloMagicSpent)
def _spent(state: GameState, e: sev.SoloMagicSpent) -> GameState:
    slots = list(state.mountain)
    back = set()
    for die, row, col in e.recycled:
        slots[slot_at(row, col)] = None
        back.add(die)
    return evolve(
        state,
        mountain=tuple(slots),
        troves=(tuple(d for d in state.troves[SEAT] if d != e.die),),
        solo=evolve(state.solo, out_of_game=(*state.solo.out_of_game, e.die)),
        bag=tuple(sorted((*state.bag, *back))),
        faces=_set_faces(state.faces, ((d, None) for d in back)),
    )


@handles(sev.MountainRefilled)
def _refilled(state: GameState, e: sev.MountainRefilled) -> GameState:
    placed = FOLDED[ev.MountainFilled](state, ev.MountainFilled(e.placements))
    return evolve(placed, solo=evolve(state.solo, refills_left=state.solo.refills_left - 1))


@handles(sev.SoloGameEnded)
def _ended(state: GameState, e: sev.SoloGameEnded) -> GameState:
    return evolve(state, phase=OVER, active=None)
