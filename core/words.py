"""The pieces in words: a face, a die, a slot, one wording for the rules' refusals and
for every read model (``core.read``) that names them."""

from __future__ import annotations

from core.dice import KIND_OF

_FACE_WORDS = {
    "beer": "beer",
    "gem1": "1 gem",
    "gem2": "2 gems",
    "gem3": "3 gems",
    "cavein1": "1 cave-in",
    "cavein2": "2 cave-ins",
    "dragon1": "1 dragon",
    "dragon2": "2 dragons",
    "dragon4": "4 dragons",
    "pickaxe": "pickaxe",
    "shield": "shield",
    "chest1": "1 chest",
    "chest2": "2 chests",
    "magic1": "1 magic",
    "magic2": "2 magic",
    "magic3": "3 magic",
}


def face_words(face: str | None) -> str:
    """A face in words: ``"3"`` -> ``"3"``, ``"gem2"`` -> ``"2 gems"``."""
    if face is None:
        return "in the bag"
    return _FACE_WORDS.get(face, face)


def die_words(die: int, face: str | None) -> str:
    """A die and its face: ``"die 17 (tunnel 3)"``, ``"die 30 (2 gems)"``,
    ``"die 25 (tunnel die, beer)"`` (a beer, or the bag, says which kind of die it is)."""
    return f"die {die} ({die_face_words(die, face)})"


def die_face_words(die: int, face: str | None) -> str:
    """What a die shows: ``"tunnel 3"``, ``"2 gems"``, ``"tunnel die, beer"``."""
    kind = KIND_OF[die]
    if face in (None, "beer"):
        return f"{kind} die, {face_words(face)}"
    if kind == "tunnel":
        return f"tunnel {face}"
    return face_words(face)


def slot_words(row: int, col: int) -> str:
    """A slot of the mountain, in RULES.md's coordinates: ``"row 2, col 1"``."""
    return f"row {row}, col {col}"


__all__ = ["die_face_words", "die_words", "face_words", "slot_words"]
