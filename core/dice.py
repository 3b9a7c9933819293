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


def tunnel_value(face: str) -> int:
    """The number on a tunnel face, 0 for anything else."""
    return int(face) if face.isdigit() else 0


def gems(face: str) -> int:
    """Gems shown by a treasure face."""
    return int(face[3:]) if face.startswith("gem") else 0


def cave_ins(face: str) -> int:
    """Cave-in symbols shown by a hazard face."""
    return int(face[6:]) if face.startswith("cavein") else 0


def dragons(face: str) -> int:
    """Dragon symbols shown by a hazard face."""
    return int(face[6:]) if face.startswith("dragon") else 0


def chests(face: str) -> int:
    """Chests shown by a tool face."""
    return int(face[5:]) if face.startswith("chest") else 0


def magic_symbols(face: str) -> int:
    """Magic symbols shown by a magic face; a beer-faced magic die has none."""
    return int(face[5:]) if face.startswith("magic") else 0


def hazard_symbols(face: str) -> int:
    """All hazard symbols on a face (cave-ins plus dragons)."""
    return cave_ins(face) + dragons(face)
