"""What a field's value may be, beyond its type: a log is untrusted input.

The codec checks each field's type (``core.events.strict``); this module checks
its contents as it is read, so a forged but well-checksummed record (a die 99, a
seat -1, a face no die has) is reported as damage at its record instead of
reaching a reader that indexes a table with it. The checks go by field name, so
one rule serves every event and command that has the field (``die`` is a die id
wherever it appears); docs/reference/events.md lists them ("Ranges").

Only what holds for every log ever written is checked here; whether an event fits
the game at that point is the fold's business (``core.projections.apply``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final, get_type_hints

import attrs

from core.commands import BRANCH_LUCKS, GAME_MODES
from core.dice import ALL_FACES, DIE_COUNT, FACES, KIND_OF
from core.mountain import SLOTS

#: Seats are 0-based; a game has at most four players.
MAX_SEATS: Final = 4
#: Any other whole number in a log: msgpack's unsigned 64-bit range (seeds exceed 2**53).
MAX_INT: Final = (1 << 64) - 1
#: Scores, hazards' negative ones included, are far inside this bound.
MAX_POINTS: Final = 10_000
#: A hero face is an index into the hero's faces (at most three).
MAX_HERO_FACES: Final = 3

_SLOT_SET: Final = frozenset(SLOTS)
_HEX64: Final = re.compile(r"[0-9a-f]{64}")

Check = Callable[[Any], None]


class OutOfRange(ValueError):
    """A field whose value no log this program writes can hold."""


def _die(value: int) -> None:
    if not 0 <= value < DIE_COUNT:
        raise OutOfRange(f"{value} is not a die (0 to {DIE_COUNT - 1})")


def _seat(value: int) -> None:
    if not 0 <= value < MAX_SEATS:
        raise OutOfRange(f"{value} is not a seat (0 to {MAX_SEATS - 1})")


def _face(value: str) -> None:
    if value not in ALL_FACES:
        raise OutOfRange(f"{value!r} is not a face")


def _face_of(die: int, face: str) -> None:
    _die(die)
    if face not in FACES[KIND_OF[die]]:
        raise OutOfRange(f"die {die} ({KIND_OF[die]}) has no face {face!r}")


def _slot(row: int, col: int) -> None:
    if (row, col) not in _SLOT_SET:
        raise OutOfRange(f"there is no slot at row {row}, column {col}")


def _hero_faces(values: tuple) -> None:
    if not 1 <= len(values) <= MAX_HERO_FACES:
        raise OutOfRange(f"has {len(values)} faces (a hero has 1 to {MAX_HERO_FACES})")
    for value in values:
        _face(value)


def _optional(check: Check) -> Check:
    return lambda value: None if value is None else check(value)


def _each(check: Check) -> Check:
    def every(values: tuple) -> None:
        for value in values:
            check(value)

    return every


def _within(low: int, high: int, what: str) -> Check:
    def check(value: int) -> None:
        if not low <= value <= high:
            raise OutOfRange(f"{value} is not {what} ({low} to {high})")

    return check


def _one_of(choices: tuple[str, ...]) -> Check:
    def check(value: str) -> None:
        if value not in choices:
            raise OutOfRange(f"{value!r} is not one of {', '.join(map(repr, choices))}")

    return check


def _placement(item: tuple[int, int, int, str]) -> None:
    die, row, col, face = item
    _face_of(die, face)
    _slot(row, col)


def _slide(item: tuple[int, int, int]) -> None:
    _die(item[0])
    _slot(item[1], item[2])


def _roll(item: tuple[int, str]) -> None:
    _face_of(*item)


def _seat_roll(item: tuple[int, str]) -> None:
    _seat(item[0])
    if item[1] not in FACES["tunnel"]:
        raise OutOfRange(f"{item[1]!r} is not a tunnel face")


def _points(value: int) -> None:
    if not -MAX_POINTS <= value <= MAX_POINTS:
        raise OutOfRange(f"{value} is not a score (-{MAX_POINTS} to {MAX_POINTS})")


def _score(item: tuple[int, ...]) -> None:
    for part in item:
        _points(part)


def _hex_secret(value: str) -> None:
    if value and not _HEX64.fullmatch(value):
        raise OutOfRange("is not 64 hexadecimal digits")


def _natural(value: int) -> None:
    if not 0 <= value <= MAX_INT:
        raise OutOfRange(f"{value} is not a whole number from 0 to 2**64 - 1")


def _said(check: Check, words: str) -> Check:
    """``check``, with the words docs/reference/events.md gives its range in."""
    check.words = words  # type: ignore[attr-defined]  # a function's attribute
    return check


#: The rule of each field name, wherever it appears. An ``int`` field not named here
#: is checked by ``_natural``; a ``str`` field not named here may be any text.
BY_NAME: Final[dict[str, Check]] = {
    "die": _said(_optional(_die), "a die id, 0 to 59, or null"),
    "dice": _said(_each(_die), "die ids, 0 to 59"),
    "targets": _said(_each(_die), "die ids, 0 to 59"),
    "tool": _said(_optional(_die), "a die id, 0 to 59, or null"),
    "chest": _said(_optional(_die), "a die id, 0 to 59, or null"),
    "seat": _said(_optional(_seat), "a seat, 0 to 3"),
    "to_seat": _said(_seat, "a seat, 0 to 3"),
    "start_seat": _said(_seat, "a seat, 0 to 3"),
    "taken": _said(_seat, "a seat, 0 to 3"),
    "returned": _said(_seat, "a seat, 0 to 3"),
    "seats": _said(_each(_seat), "seats, 0 to 3"),
    "hero_order": _said(_each(_seat), "seats, 0 to 3"),
    "winners": _said(_each(_seat), "seats, 0 to 3"),
    "tied": _said(_each(_seat), "seats, 0 to 3"),
    "doubled": _said(_optional(_seat), "a seat, 0 to 3, or null"),
    "hero_face": _said(
        _optional(_within(0, MAX_HERO_FACES - 1, "a hero face")),
        "0 to 2 (an index into the hero's faces), or null",
    ),
    "as_face": _said(_optional(_face), "a face, or null"),
    "face": _said(_face, "a face (in DieTaken and BeerShared, one the die has)"),
    "placements": _said(
        _each(_placement),
        "`[die, row, col, face]`: a die, a slot of the mountain, a face that die has",
    ),
    "slides": _said(_each(_slide), "`[die, row, col]`: a die and a slot of the mountain"),
    "recycled": _said(_each(_slide), "`[die, row, col]`: a die and a slot of the mountain"),
    "rolls": _said(_each(_roll), "`[die, face]`: a die and a face it has"),
    "scores": _said(_each(_score), "`[tunnel, treasure, hazard]`, each -10000 to 10000"),
    "score": _said(_points, "-10000 to 10000"),
    "round": _said(_within(1, 3, "a round"), "1 to 3"),
    "starting_magic": _said(_within(0, 3, "a number of starting magic dice"), "0 to 3"),
    "refills": _said(_within(0, 2, "a number of refills"), "0 to 2"),
    "mode": _said(_one_of(GAME_MODES), '`"multi"` or `"solo"`'),
    "hero_deal": _said(_one_of(("choose", "random")), '`"choose"` or `"random"`'),
    "luck": _said(_one_of(BRANCH_LUCKS), '`"same"` or `"fresh"`'),
    "secret": _said(_hex_secret, "empty, or 64 lowercase hexadecimal digits"),
    "commitment": _said(_hex_secret, "empty, or 64 lowercase hexadecimal digits"),
}

#: Fields whose rule differs in one class: (class name, field name) -> rule.
BY_CLASS: Final[dict[tuple[str, str], Check]] = {
    ("FirstPlayerRolled", "rolls"): _said(
        _each(_seat_roll), "`[seat, face]`: a seat, a tunnel face"
    ),
    ("HeroChosen", "faces"): _said(_hero_faces, "1 to 3 faces"),
    ("HeroesDealt", "faces"): _said(_each(_hero_faces), "per seat, 1 to 3 faces"),
}


def _checks_of(cls: type) -> tuple[tuple[str, Check], ...]:
    checks = []
    hints = get_type_hints(cls)
    for a in attrs.fields(cls):
        check = BY_CLASS.get((cls.__name__, a.name)) or BY_NAME.get(a.name)
        if check is None and hints[a.name] in (int, int | None):
            check = _optional(_natural)
        if check is not None:
            checks.append((a.name, check))
    return tuple(checks)


_CHECKS: dict[type, tuple[tuple[str, Check], ...]] = {}

NATURAL_WORDS: Final = "0 to 2**64 - 1"


def range_words(cls: type, name: str) -> str:
    """The range of field ``name`` of ``cls`` in words (docs/reference/events.md), or "" for any."""
    check = BY_CLASS.get((cls.__name__, name)) or BY_NAME.get(name)
    if check is not None:
        return str(getattr(check, "words", ""))
    return NATURAL_WORDS if get_type_hints(cls)[name] in (int, int | None) else ""


#: The fields that name seats (one, or several in a tuple, ``FirstPlayerRolled``'s
#: rolls as ``(seat, face)``): a game's own number of seats bounds them (the fold's check).
SEAT_FIELDS: Final = frozenset(
    {"seat", "to_seat", "start_seat", "taken", "returned", "doubled"}
    | {"seats", "hero_order", "winners", "tied"}
)


def seats_named(record: Any) -> list[int]:
    """Every seat ``record`` names (``FirstPlayerRolled``'s rolls included)."""
    found: list[int] = []
    for name in _SEATS.get(type(record)) or _seat_fields(type(record)):
        value = getattr(record, name)
        if type(value) is int:
            found.append(value)
        elif type(value) is tuple:
            found.extend(v[0] if type(v) is tuple else v for v in value)
    return found


_SEATS: dict[type, tuple[str, ...]] = {}


def _seat_fields(cls: type) -> tuple[str, ...]:
    names = [a.name for a in attrs.fields(cls) if a.name in SEAT_FIELDS]
    if cls.__name__ == "FirstPlayerRolled":
        names.append("rolls")
    _SEATS[cls] = found = tuple(names)
    return found


def check_ranges(record: Any) -> None:
    """Raise ``OutOfRange`` naming the first field of ``record`` (an event or a command)
    whose value is out of its range; a face is checked against its die's kind where
    the record names both."""
    cls = type(record)
    checks = _CHECKS.get(cls)
    if checks is None:
        checks = _CHECKS[cls] = _checks_of(cls)
    for name, check in checks:
        value = getattr(record, name)
        try:
            check(value)
        except OutOfRange as exc:  # "die 99 is not a die", "rolls: die 3 (tunnel) has no ..."
            raise OutOfRange(f"{name}{':' if type(value) is tuple else ''} {exc}") from None
    die, face = getattr(record, "die", None), getattr(record, "face", None)
    if type(die) is int and type(face) is str and cls.__name__ in _FACE_OF_DIE:
        try:
            _face_of(die, face)
        except OutOfRange as exc:
            raise OutOfRange(f"face: {exc}") from None


#: Events whose ``face`` is the face their ``die`` shows (a solo wild die's is the face
#: it was turned to, of any tunnel kind, so SoloDieTaken is not among them).
_FACE_OF_DIE: Final = frozenset({"DieTaken", "BeerShared"})


__all__ = [
    "BY_NAME",
    "MAX_INT",
    "MAX_POINTS",
    "MAX_SEATS",
    "SEAT_FIELDS",
    "OutOfRange",
    "check_ranges",
    "range_words",
    "seats_named",
]
