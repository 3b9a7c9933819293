"""A stable hash of a projected state, to compare two engines or two machines event by event.

``state_hash(state)`` is SHA-256 over ``canonical_bytes(state)``: a version
line, then every field of ``GameState`` as one JSON object with the keys
sorted, no spaces, ASCII only. Tuples become arrays in their order, frozensets
arrays in ascending order (never Python's iteration order, which hash
randomization changes), ``None`` is ``null``, booleans ``true``/``false``.
Nothing else may occur in a state; a value of another type (a float, say) is
refused rather than written in some form no other reader could reproduce. The
table's facts (``GameState.facts``: a secret seed's commitment, a closed game,
seats handed to bots) are one more key, ``facts``, an object of their fields,
written only when a game has any; the fields added later (``TableFacts.LATER_FIELDS``:
a branch's) only when set, so the hashes of games without them stay as they were.
The solo game's bookkeeping (``GameState.solo``, a record of its own) is written as the
top-level keys it always was (``frozen``, ``neutralized``, ``out_of_game``,
``refills_left``, ``sequences``), in every mode, so no hash changed when it became one.

Sorting the keys makes the hash independent of the order attrs declares the
fields in; a field added, removed or renamed changes every hash, which is what
a hash meant to catch differences should do (``HASH_VERSION`` names the
encoding, not the fields). ``docs/reference/state-hash.md`` describes the encoding for
anyone writing another implementation.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from attrs import fields

from core.projections.state import NO_FACTS, GameState, SoloState, TableFacts

#: The encoding's version, written in its first line.
HASH_VERSION = 1
_PREFIX = f"dice-miner state v{HASH_VERSION}\n".encode("ascii")
_NAMES = tuple(sorted(f.name for f in fields(GameState) if f.name not in ("facts", "solo")))
_SOLO_NAMES = tuple(sorted(f.name for f in fields(SoloState)))
_FACT_NAMES = tuple(sorted(f.name for f in fields(TableFacts)))
_LATER_FACTS = frozenset(TableFacts.LATER_FIELDS)


def plain(value: Any) -> Any:
    """``value`` as JSON-ready data: tuples as lists, frozensets as sorted lists."""
    if value is None or type(value) in (bool, int, str):
        return value
    if type(value) is tuple:
        return [plain(v) for v in value]
    if type(value) is frozenset:
        return [plain(v) for v in sorted(value)]
    raise TypeError(f"a state holds no {type(value).__name__}: {value!r}")


def canonical(state: GameState) -> dict[str, Any]:
    """Every field of ``state`` by name, as plain data, the solo record's among them; the
    table's ``facts`` only when a game has some (so an ordinary game's hashes do not
    depend on them)."""
    found = {name: plain(getattr(state, name)) for name in _NAMES}
    solo = state.solo
    found.update((name, plain(getattr(solo, name))) for name in _SOLO_NAMES)
    facts = state.facts
    if facts != NO_FACTS:
        found["facts"] = {
            name: plain(getattr(facts, name))
            for name in _FACT_NAMES
            if name not in _LATER_FACTS or getattr(facts, name) != getattr(NO_FACTS, name)
        }
    return found


def canonical_bytes(state: GameState) -> bytes:
    """The bytes the hash is taken over: the version line, then the canonical JSON."""
    text = json.dumps(canonical(state), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return _PREFIX + text.encode("ascii")


def state_hash(state: GameState) -> str:
    """The SHA-256 of ``canonical_bytes(state)``, as 64 hex digits."""
    return hashlib.sha256(canonical_bytes(state)).hexdigest()


__all__ = ["HASH_VERSION", "canonical", "canonical_bytes", "plain", "state_hash"]
