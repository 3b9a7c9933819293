"""Upcasters: turn an event written at an older schema version into the current one.

``UPCASTERS[(tag, n)]`` takes the plain field map of a version-``n`` event and
returns the version ``n + 1`` map. The codec chains them on reading, so old logs
load into today's classes and nothing is ever rewritten on disk.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Fields = dict[str, Any]

UPCASTERS: dict[tuple[str, int], Callable[[Fields], Fields]] = {}


def upcaster(tag: str, from_version: int):
    """Register a function that lifts ``tag`` events from ``from_version`` by one."""

    def register(fn: Callable[[Fields], Fields]) -> Callable[[Fields], Fields]:
        UPCASTERS[(tag, from_version)] = fn
        return fn

    return register


def upcast(tag: str, version: int, target: int, fields: Fields) -> Fields:
    """Apply the chain of upcasters from ``version`` up to ``target``."""
    while version < target:
        step = UPCASTERS.get((tag, version))
        if step is None:
            raise KeyError(f"no upcaster for {tag} v{version}")
        fields = step(fields)
        version += 1
    return fields


# --- the upcasters -------------------------------------------------------------------

#: The hero table of the dice set "standard-d1", which every log written before
#: HeroChosen v2 was played with. Frozen here on purpose: if ``core.dice.HEROES``
#: is ever corrected, old games must keep the faces they were played with.
HEROES_STANDARD_D1: dict[str, tuple[str, ...]] = {
    "Alchemist": ("magic1", "magic1", "magic1"),
    "Dragon Slayer": ("shield", "magic1"),
    "Engineer": ("2", "pickaxe"),
    "Prospector": ("gem1", "pickaxe"),
    "Surveyor": ("1", "magic1"),
    "Treasurer": ("gem1", "chest2"),
}


@upcaster("HeroChosen", 1)
def hero_chosen_faces(fields: Fields) -> Fields:
    """HeroChosen v1 -> v2: add the chosen hero's ``faces`` (an unknown hero raises KeyError)."""
    return {**fields, "faces": HEROES_STANDARD_D1[fields["hero"]]}


@upcaster("HeroesDealt", 1)
def heroes_dealt_faces(fields: Fields) -> Fields:
    """HeroesDealt v1 -> v2: add each dealt hero's ``faces`` (an unknown hero raises KeyError)."""
    return {**fields, "faces": tuple(HEROES_STANDARD_D1[hero] for hero in fields["heroes"])}


@upcaster("batch", 1)
def batch_request(fields: Fields) -> Fields:
    """A batch record v1 -> v2: it answers no request it kept (version 1 kept none)."""
    return {**fields, "request": None}
