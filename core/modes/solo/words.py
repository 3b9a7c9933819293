"""The solo game's events in words, for ``core.read.text.describe``
(``DESCRIBERS``, the mode's ``MODE.describers``).

Like every describer, each takes the state *before* the event, e.g.
``"Ada took die 17 (tunnel 3) from row 0, col 2, opening sequence 1"``.
"""

from __future__ import annotations

from collections.abc import Callable

from core.dice import tunnel_value
from core.events.base import Event, event_table
from core.modes.solo import events as sev
from core.projections.state import GameState
from core.words import die_words, face_words, slot_words

#: This mode's events in words: the mode's ``MODE.describers``.
DESCRIBERS: dict[type[Event], Callable[[GameState, Event], str]] = {}
describes = event_table(DESCRIBERS)


def _name(state: GameState) -> str:
    return state.names[0]


@describes(sev.StartingTroveRolled)
def _trove(state: GameState, e: sev.StartingTroveRolled) -> str:
    dice = ", ".join(die_words(d, f) for d, f in e.rolls) or "no magic dice (the hard variant)"
    return f"{_name(state)} starts with {dice}; the mountain may be refilled {e.refills} times"


@describes(sev.SoloDieTaken)
def _taken(state: GameState, e: sev.SoloDieTaken) -> str:
    text = f"{_name(state)} took {die_words(e.die, e.face)} from {slot_words(e.row, e.col)}"
    if e.wild:
        text += f", a wild beer turned to {face_words(e.face)}"
    if e.sequence is not None:
        text += (
            f", opening sequence {e.sequence + 1}"
            if e.face == "1"
            else f", extending sequence {e.sequence + 1}"
        )
    if e.tool is not None:
        text += f", neutralized by die {e.tool} ({face_words(state.faces[e.tool])})"
    if e.chest is not None:
        text += f", frozen on the chest of die {e.chest}"
    return text


def take_choice(state, e: sev.SoloDieTaken) -> str:
    """One way of taking a die, for a menu of them: ``"take die 21 as 3, extending
    sequence 1 to 1-2-3"``. The assignment (sequence, tool, chest) is the engine's,
    from the event the take would record, so a player sees what each option does."""
    text = f"take die {e.die}" + (f" as {face_words(e.face)}" if e.wild else "")
    if e.sequence is not None and e.face == "1":
        text += f", opening sequence {e.sequence + 1}"
    elif e.sequence is not None:
        run = [tunnel_value(state.faces[d]) for d in state.solo.sequences[e.sequence]]
        run.append(tunnel_value(e.face))
        text += f", extending sequence {e.sequence + 1} to {'-'.join(map(str, run))}"
    if e.tool is not None:
        text += f", neutralized by die {e.tool} ({face_words(state.faces[e.tool])})"
    if e.chest is not None:
        text += f", frozen on the chest of die {e.chest} (2 points a gem)"
    return text


@describes(sev.SoloMagicSpent)
def _spent(state: GameState, e: sev.SoloMagicSpent) -> str:
    face = face_words(state.faces[e.die])
    back = " and ".join(f"die {d} from {slot_words(r, c)}" for d, r, c in e.recycled)
    return (
        f"{_name(state)} spent die {e.die} ({face}), which leaves the game, "
        f"to recycle {back or 'nothing'}"
    )


@describes(sev.MountainRefilled)
def _refilled(state: GameState, e: sev.MountainRefilled) -> str:
    left = state.solo.refills_left - 1
    return (
        f"{_name(state)} refilled the mountain with {len(e.placements)} dice from the bag "
        f"({left} refill{'' if left == 1 else 's'} left)"
    )


@describes(sev.SoloGameEnded)
def _ended(state: GameState, e: sev.SoloGameEnded) -> str:
    why = "stopped digging" if e.stopped else "can do nothing more"
    return f"{_name(state)} {why}: {e.score} points, {e.rating}"
