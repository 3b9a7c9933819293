"""The words of each choice a seat has, one wording for every frontend.

The terminal's menus and the web page's buttons and help show these same
strings (``core.read.choices`` puts them on each option), so a choice
reads alike wherever it is made: ``"take die 17 (tunnel 3)"``,
``"give die 12 (tunnel die, beer) to Brok"``, ``"take die 21 as 3, extending
sequence 1 to 1-2-3"``.
"""

from __future__ import annotations

from core.commands import ShareBeer, TakeDie
from core.modes.solo.take import take_event
from core.modes.solo.words import take_choice
from core.projections.state import GameState
from core.words import die_words, face_words

#: The label of ending a magic turn, and of stopping a solo game.
END_TURN = "end my magic turn"
STOP = "stop digging and score"


def hero_label(hero: str) -> str:
    """A hero to choose: ``"the Engineer"``."""
    return f"the {hero}"


def take_label(state: GameState, command: TakeDie) -> str:
    """A take in words. Multiplayer: the die and its face. Solo: what the take would do,
    from the event it would record (the face a wild beer becomes, the sequence it opens
    or extends, the tool that neutralizes it, the chest a gem is frozen on, or not)."""
    if state.mode != "solo":
        return f"take {die_words(command.die, state.faces[command.die])}"
    words = take_choice(state, take_event(state, command.die, command.as_face, command.freeze))
    face = command.as_face or state.faces[command.die] or ""
    if not command.freeze and face.startswith("gem"):
        words += ", not frozen"
    return words


def beer_label(state: GameState, command: ShareBeer) -> str:
    """A beer to share: ``"give die 12 (tunnel die, beer) to Brok"``."""
    return (
        f"give {die_words(command.die, state.faces[command.die])} to {state.names[command.to_seat]}"
    )


def source_label(state: GameState, seat: int, die: int | None, hero_face: int | None) -> str:
    """A magic face to spend, named as the typed command names it: ``"die 52 (2 magic)"``,
    ``"hero face h0 (1 magic)"``."""
    if die is not None:
        return die_words(die, state.faces[die])
    face = state.hero_faces(seat)[hero_face or 0]
    return f"hero face h{hero_face} ({face_words(face)})"


def forced_label(state: GameState, source: str, targets: tuple[int, ...]) -> str:
    """A spend with no choice left (rule D6): ``"spend die 52 (2 magic): reroll die 3
    (tunnel 1) and die 7 (2 gems)"``; solo spends recycle top dice instead."""
    verb = "recycle" if state.mode == "solo" else "reroll"
    if not targets:
        return f"spend {source}: nothing to {verb}"
    dice = " and ".join(die_words(d, state.faces[d]) for d in targets)
    return f"spend {source}: {verb} {dice}"


def refill_label(state: GameState) -> str:
    """Solo: a refill, with what is left of them and of the bag."""
    left = state.solo.refills_left
    return (
        f"refill the mountain ({left} refill{'' if left == 1 else 's'} left, "
        f"{len(state.bag)} dice in the bag)"
    )


__all__ = [
    "END_TURN",
    "STOP",
    "beer_label",
    "forced_label",
    "hero_label",
    "refill_label",
    "source_label",
    "take_label",
]
