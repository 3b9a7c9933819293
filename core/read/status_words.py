"""One sentence saying where a game stands, and every face in words, for the pages.

The web page and the replay viewer show these strings as they come (the board's
``status``, the page's face table), so the browser words nothing of its own:
``"Round 2 · Excavation · Ann to act (1 pick left after a beer)"``,
``"Game over: Ann wins with 41"``; a face ``"3"`` reads ``"tunnel 3"`` (a bare
number reads as a count), as the event list says it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.dice import FACES, HEROES
from core.modes.solo.scoring import solo_score
from core.projections.state import GameState
from core.words import face_words

#: The phases in words.
PHASE_WORDS = {
    "setup": "Choosing heroes",
    "excavation": "Excavation",
    "magic": "Magic phase",
    "replenish": "Replenish",
    "over": "Game over",
    "solo": "Digging",
}

_BOT_NAME = re.compile(r"^(.+) \(([a-z][a-z0-9_-]*)\)$")


def short_name(name: str) -> str:
    """A player's name without its bot's kind: ``"Brok (greedy)"`` -> ``"Brok"``."""
    match = _BOT_NAME.match(name)
    return match.group(1) if match else name


def face_in_words(face: str | None) -> str:
    """A face as a die shows it: ``"3"`` -> ``"tunnel 3"``, ``"gem2"`` -> ``"2 gems"``."""
    return f"tunnel {face}" if face is not None and face.isdigit() else face_words(face)


def all_face_words() -> dict[str, str]:
    """Every face a die or a hero can show, in words (the pages' one table)."""
    faces = [face for kind in (*FACES.values(), *HEROES.values()) for face in kind]
    return {face: face_in_words(face) for face in faces}


def status_sentence(state: GameState) -> str:
    """Where the game stands, in one line (see the module's examples)."""
    names = [short_name(name) for name in state.names]
    if state.is_over:
        if state.mode == "solo" and state.troves:
            score = solo_score(state)
            return f"Game over: {score.score} points, {score.rating}"
        winners = [names[seat] for seat in state.winners]
        if not winners:
            return "Game over"
        best = max(state.totals())
        verb = "wins" if len(winners) == 1 else "share the win"
        return f"Game over: {' and '.join(winners)} {verb} with {best}"
    parts = []
    if state.round:
        parts.append(f"Round {state.round}")
    if state.tiebreak:
        parts.append(f"Tie-break {state.tiebreak}")
    parts.append(PHASE_WORDS.get(state.phase, state.phase))
    seat = state.to_act()
    if seat is not None:
        who = f"{names[seat]} to act"
        if state.phase == "excavation" and state.beer_shared:
            picks = "pick" if state.picks_left == 1 else "picks"
            who += f" ({state.picks_left} {picks} left after a beer)"
        parts.append(who)
    if state.mode == "solo" and state.troves:
        parts.append(f"{solo_score(state).score} points so far")
    return " · ".join(parts)


__all__ = ["PHASE_WORDS", "all_face_words", "face_in_words", "short_name", "status_sentence"]


#: The event texts' third person, turned around for a player named "You".
_SECOND_PERSON = (
    ("You wins", "You win"),
    ("You plays", "You play"),
    ("You takes", "you take"),
    ("You has the lowest total and starts", "You have the lowest total and start"),
    ("You ended their", "You ended your"),
    ("You doubled their", "You doubled your"),
    ("You starts", "You start"),
    ("with You", "with you"),
)


def second_person(text: str) -> str:
    """An event's words addressed to a player named "You"."""
    for old, new in _SECOND_PERSON:
        text = text.replace(old, new)
    return text


def addressed(text: str, names: Sequence[str]) -> str:
    """An event's words as a table shows them: said to the person when one is named "You"
    ("You start", not "You starts"), as the terminal and the page both say it."""
    return second_person(text) if "You" in names else text
