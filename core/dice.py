"""The 60 dice, their faces and the six heroes: the game's data in one place.

rule D1: only the tunnel and treasure faces are confirmed by public sources; the
hazard, tool and magic lists below are the best-supported guess. A corrected dice
set is a one-line change to ``FACES`` plus a new ``DICE_SET`` name, which every
log header records, so old logs keep naming the set they were played with.
"""

from __future__ import annotations

from typing import Final, Literal

Kind = Literal["tunnel", "treasure", "hazard", "tool", "magic"]

#: The name of this dice set, written into every log header (rule D1).
DICE_SET: Final = "standard-d1"

#: Six faces per die type, each type with exactly one beer face (rule D1).
FACES: Final[dict[str, tuple[str, ...]]] = {
    "tunnel": ("1", "2", "3", "4", "5", "beer"),
    "treasure": ("gem3", "gem2", "gem1", "gem1", "gem1", "beer"),
    "hazard": ("cavein1", "cavein2", "dragon1", "dragon2", "dragon4", "beer"),
    "tool": ("pickaxe", "pickaxe", "shield", "chest1", "chest2", "beer"),
    "magic": ("magic1", "magic1", "magic2", "magic2", "magic3", "beer"),
}

#: How many dice of each type the game has, in id order.
COUNTS: Final[dict[str, int]] = {
    "tunnel": 27,
    "treasure": 8,
    "hazard": 10,
    "tool": 7,
    "magic": 8,
}

#: The kind of die ``i`` is ``KIND_OF[i]``; ids run 0..59 grouped by kind.
KIND_OF: Final[tuple[str, ...]] = tuple(
    kind for kind, count in COUNTS.items() for _ in range(count)
)
DIE_COUNT: Final = len(KIND_OF)
ALL_DICE: Final[tuple[int, ...]] = tuple(range(DIE_COUNT))

BEER: Final = "beer"

#: Every face name a die or hero can show.
ALL_FACES: Final[frozenset[str]] = frozenset(f for faces in FACES.values() for f in faces)

#: Heroes and the faces they show all game (hero faces are never rerolled).
HEROES: Final[dict[str, tuple[str, ...]]] = {
    "Alchemist": ("magic1", "magic1", "magic1"),
    "Dragon Slayer": ("shield", "magic1"),
    "Engineer": ("2", "pickaxe"),
    "Prospector": ("gem1", "pickaxe"),
    "Surveyor": ("1", "magic1"),
    "Treasurer": ("gem1", "chest2"),
}
HERO_NAMES: Final[tuple[str, ...]] = tuple(HEROES)


def kind_of(die: int) -> str:
    """The type of die ``die`` (``"tunnel"``, ``"treasure"`` ...)."""
    return KIND_OF[die]


def faces_of(die: int) -> tuple[str, ...]:
    """The six faces of die ``die``."""
    return FACES[KIND_OF[die]]


def face_kind(face: str) -> str:
    """The die type a face belongs to; beer belongs to every type, so it has none."""
    if face == BEER:
        raise ValueError("beer belongs to every die type")
    for kind, faces in FACES.items():
        if face in faces:
            return kind
    raise ValueError(f"unknown face {face!r}")


def _symbols(prefix: str) -> dict[str, int]:
    """The number after ``prefix`` on every face that has one, 0 on every other face."""
    return {f: int(f[len(prefix) :]) if f.startswith(prefix) else 0 for f in ALL_FACES}


# Scoring and the rules ask these of every face many times a command, so each is
# worked out once per face here, and the functions below are table lookups.
#: The number on a tunnel face, 0 for anything else.
TUNNEL_VALUE: Final[dict[str, int]] = {f: int(f) if f.isdigit() else 0 for f in ALL_FACES}
#: Gems shown by a face.
GEMS: Final = _symbols("gem")
#: Cave-in symbols shown by a face.
CAVE_INS: Final = _symbols("cavein")
#: Dragon symbols shown by a face.
DRAGONS: Final = _symbols("dragon")
#: Chests shown by a face.
CHESTS: Final = _symbols("chest")
#: Magic symbols shown by a face (a beer-faced magic die has none).
MAGIC_SYMBOLS: Final = _symbols("magic")


def tunnel_value(face: str) -> int:
    """The number on a tunnel face, 0 for anything else."""
    return TUNNEL_VALUE[face]


def gems(face: str) -> int:
    """Gems shown by a treasure face."""
    return GEMS[face]


def cave_ins(face: str) -> int:
    """Cave-in symbols shown by a hazard face."""
    return CAVE_INS[face]


def dragons(face: str) -> int:
    """Dragon symbols shown by a hazard face."""
    return DRAGONS[face]


def chests(face: str) -> int:
    """Chests shown by a tool face."""
    return CHESTS[face]


def magic_symbols(face: str) -> int:
    """Magic symbols shown by a magic face; a beer-faced magic die has none."""
    return MAGIC_SYMBOLS[face]


def hazard_symbols(face: str) -> int:
    """All hazard symbols on a face (cave-ins plus dragons)."""
    return cave_ins(face) + dragons(face)
