"""Moves in words, as a player reads them on the board and in the event lines.

The pieces are ``core.read.text``'s (``die_words``, ``face_words``,
``slot_words``) and, for a solo take, ``core.read.choice_words.take_label``,
the same menu line the terminal and the web show: ``"take die 17 (tunnel 3) from
row 2, col 1"``, ``"share die 12 (tunnel die, beer) with Brok"``, ``"spend die 52
(2 magic) to reroll die 3 (tunnel 2) and die 7 (1 gem)"``. A move is worded from
the state it was made in, without its outcome (no one knew the roll yet).
"""

from __future__ import annotations

from core.commands import (
    CacheDice,
    ChooseHero,
    Command,
    EndMagicTurn,
    EndSolo,
    Refill,
    ShareBeer,
    SpendMagic,
    TakeDie,
)
from core.errors import RuleError
from core.mountain import SLOTS
from core.projections.state import GameState
from core.read.choice_words import take_label
from core.words import die_words, face_words, slot_words


def move_words(state: GameState, command: Command) -> str:
    """``command`` in words, from ``state`` (the state it is, or was, made in)."""
    if isinstance(command, TakeDie):
        return _take(state, command)
    if isinstance(command, ShareBeer):
        die = die_words(command.die, state.faces[command.die])
        return f"share {die} with {state.names[command.to_seat]}, then take two dice"
    if isinstance(command, SpendMagic):
        return _spend(state, command)
    if isinstance(command, EndMagicTurn):
        return "end the magic turn"
    if isinstance(command, CacheDice):
        if not command.dice:
            return "cache nothing"
        return "cache " + _and(die_words(d, state.faces[d]) for d in command.dice)
    if isinstance(command, ChooseHero):
        return f"choose the {command.hero}"
    if isinstance(command, Refill):
        return f"refill the mountain ({state.solo.refills_left} refills left)"
    if isinstance(command, EndSolo):
        return "stop digging"
    return command.text()


def _take(state: GameState, command: TakeDie) -> str:
    if state.mode == "solo":
        try:  # the menu line of the take, as both frontends word it
            return take_label(state, command)
        except RuleError:  # not a legal take here: say what it names
            return command.text()
    k = state.mountain.index(command.die) if command.die in state.mountain else None
    where = "" if k is None else f" from {slot_words(*SLOTS[k])}"
    return f"take {die_words(command.die, state.faces[command.die])}{where}"


def _spend(state: GameState, command: SpendMagic) -> str:
    if command.die is not None:
        source = die_words(command.die, state.faces[command.die])
    else:
        assert command.hero_face is not None, "a spend names a die or a hero face (rules)"
        face = state.hero_faces(command.seat)[command.hero_face]
        source = f"hero face h{command.hero_face} ({face_words(face)})"
    if state.mode == "solo":
        back = _and(f"die {d}" for d in command.targets)
        return f"spend {source} to recycle {back}" if command.targets else f"spend {source}"
    if not command.targets:
        return f"spend {source} with nothing to reroll"
    return f"spend {source} to reroll " + _and(
        die_words(d, state.faces[d]) for d in command.targets
    )


def _and(parts) -> str:
    parts = list(parts)
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


__all__ = ["move_words"]
