"""The multiplayer game's events in words (``DESCRIBERS``, the mode's ``MODE.describers``; the
words for what every mode shares are ``core.read.text``'s own)."""

from __future__ import annotations

from collections.abc import Callable

from core.events.base import Event, event_table
from core.modes.multiplayer import events as ev
from core.projections.state import GameState
from core.words import die_face_words, die_words, face_words, slot_words

#: This mode's words, one describer per event: the mode's ``MODE.describers``.
DESCRIBERS: dict[type[Event], Callable[[GameState, Event], str]] = {}
describes = event_table(DESCRIBERS)


def _name(state: GameState, seat: int) -> str:
    return state.names[seat]


def _roll_words(face: str) -> str:
    """What a die rolled: ``"tunnel 3"`` (a bare number reads as a count), ``"2 gems"``."""
    return f"tunnel {face}" if face.isdigit() else face_words(face)


def _dice_list(dice) -> str:
    dice = list(dice)
    if not dice:
        return "no dice"
    return ("die " if len(dice) == 1 else "dice ") + ", ".join(map(str, dice))


@describes(ev.FirstPlayerRolled)
def _rolled(state: GameState, e: ev.FirstPlayerRolled) -> str:
    rolls = ", ".join(f"{_name(state, s)} {face_words(f)}" for s, f in e.rolls)
    return f"Roll for first player: {rolls}"


@describes(ev.FirstPlayerChosen)
def _first(state: GameState, e: ev.FirstPlayerChosen) -> str:
    order = ", ".join(_name(state, s) for s in e.hero_order)
    return f"{_name(state, e.seat)} plays first; heroes are chosen by {order}"


@describes(ev.HeroChosen)
def _hero(state: GameState, e: ev.HeroChosen) -> str:
    return f"{_name(state, e.seat)} chose the {e.hero}"


@describes(ev.HeroesDealt)
def _dealt(state: GameState, e: ev.HeroesDealt) -> str:
    return "Heroes dealt: " + ", ".join(
        f"{_name(state, s)} the {h}" for s, h in enumerate(e.heroes)
    )


@describes(ev.RoundBegan)
def _round(state: GameState, e: ev.RoundBegan) -> str:
    # "first to dig: X" reads right for any name, the terminal game's "You" included
    return f"Round {e.round} began; first to dig: {_name(state, e.start_seat)}"


@describes(ev.DieTaken)
def _taken(state: GameState, e: ev.DieTaken) -> str:
    text = f"{_name(state, e.seat)} took {die_words(e.die, e.face)} from {slot_words(e.row, e.col)}"
    if e.slides:
        text += f"; {_dice_list(d for d, _, _ in e.slides)} slid down"
    return text


@describes(ev.BeerShared)
def _beer(state: GameState, e: ev.BeerShared) -> str:
    return (
        f"{_name(state, e.seat)} shared a beer with {_name(state, e.to_seat)}: "
        f"die {e.die} rolled {_roll_words(e.face)}; {_name(state, e.seat)} takes two dice"
    )


@describes(ev.MagicPhaseBegan)
def _magic(state: GameState, e: ev.MagicPhaseBegan) -> str:
    return "The magic phase began: " + ", ".join(_name(state, s) for s in e.seats)


@describes(ev.MagicSpent)
def _spent(state: GameState, e: ev.MagicSpent) -> str:
    if e.die is not None:
        source = die_words(e.die, state.faces[e.die])
    else:  # hero faces are named as the typed command names them: h0, h1, ...
        assert e.hero_face is not None, "the fold refuses a spend of neither a die nor a face"
        face = state.hero_faces(e.seat)[e.hero_face]
        source = f"hero face h{e.hero_face} ({face_words(face)})"
    rolls = " and ".join(
        f"die {d} ({die_face_words(d, state.faces[d])} -> {_roll_words(f)})" for d, f in e.rolls
    )
    return f"{_name(state, e.seat)} spent {source} " + (
        f"to reroll {rolls}" if rolls else "with nothing to reroll"
    )


@describes(ev.MagicTurnEnded)
def _magic_end(state: GameState, e: ev.MagicTurnEnded) -> str:
    return f"{_name(state, e.seat)} ended their magic turn"


def _scores(state, seats, scores) -> str:
    return "; ".join(
        f"{_name(state, s)} {sum(sc)} (tunnels {sc[0]}, treasure {sc[1]}, hazards {sc[2]})"
        for s, sc in zip(seats, scores, strict=True)
    )


@describes(ev.RoundScored)
def _scored(state: GameState, e: ev.RoundScored) -> str:
    text = f"Round {e.round} scored: {_scores(state, range(len(e.scores)), e.scores)}"
    if e.doubled is not None:
        text += f"; {_name(state, e.doubled)} doubled their gems"
    return text


@describes(ev.ReplenishBegan)
def _replenish(state: GameState, e: ev.ReplenishBegan) -> str:
    return "Replenish: choose dice to cache"


@describes(ev.DiceCached)
def _cached(state: GameState, e: ev.DiceCached) -> str:
    return f"{_name(state, e.seat)} cached {_dice_list(e.dice)}"


@describes(ev.StartPlayerChosen)
def _start(state: GameState, e: ev.StartPlayerChosen) -> str:
    text = f"{_name(state, e.seat)} has the lowest total and starts the next round"
    if e.tied:
        text += " (tie broken at random)"
    return text


@describes(ev.TieBreakBegan)
def _tiebreak(state: GameState, e: ev.TieBreakBegan) -> str:
    names = ", ".join(_name(state, s) for s in e.seats)
    return f"Tie-break {e.number}: {names} reroll their troves for an extra round"


@describes(ev.TieBreakScored)
def _tiebreak_scored(state: GameState, e: ev.TieBreakScored) -> str:
    return f"Tie-break {e.number} scored: {_scores(state, e.seats, e.scores)}"


@describes(ev.GameEnded)
def _ended(state: GameState, e: ev.GameEnded) -> str:
    names = " and ".join(_name(state, s) for s in e.winners)
    return f"{names} {'wins' if len(e.winners) == 1 else 'share the win'}"
