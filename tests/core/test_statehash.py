"""State hashes: stable across runs, hash seeds and field order; they tell states apart."""

from __future__ import annotations

import json
import os
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest
from attrs import evolve, fields
from hypothesis import given
from hypothesis import strategies as st

from core.game import Game
from core.projections.state import GameState, SoloState, TableFacts
from core.projections.statehash import HASH_VERSION, canonical, canonical_bytes, plain, state_hash
from core.projections.timeline import replay
from core.read.views import walk

ROOT = Path(__file__).resolve().parents[2]
REPLAYS = ROOT / "replays"

#: Pinned: the hash of the state after the first N events (None: all) of golden replays.
#: A change here means every state hash has changed: a new HASH_VERSION and a CHANGELOG line.
GOLDEN = [
    ("four-players", 1, "2429605042323e59afc964d450dea46db617bfc0cf687f3371f4ad2010192e0c"),
    ("four-players", 57, "c3331b20539555936afa89214ca358d91b049411ee7ef2c5a83f2afcd9f8b051"),
    ("four-players", None, "e0110f22838e71fbf86d5be11b78efc8dcfd0fa7c9ddad33eb9ae23fa9a492e4"),
    ("four-players-undo", None, "72345bbc2b8196afaae2254c2769181370ecadd5c29b68c64e4e0cd30c4ea830"),
    ("tie-break", None, "60a239f6c12909a6f739144f0e8ba00b91486ceb41a003d81b636575fd6df114"),
    ("solo", 20, "9e9d77422a9439e54a6eec2069da0fbd0759dd278a5d9ada683cf80a4a473479"),
    ("solo", None, "1f2b52f10149b891bc2e92db06a8bd4f8382ef67a1082ae2ca108de700c0d34a"),
]


def batches_of(name: str):
    return Game.load(REPLAYS / f"{name}.dmlog").batches()


@pytest.mark.parametrize(("name", "at", "digest"), GOLDEN)
def test_golden_positions_keep_their_hashes(name, at, digest):
    assert state_hash(replay(batches_of(name), at).state) == digest


def test_the_hash_does_not_depend_on_pythons_hash_seed():
    """Frozensets iterate in an order the hash seed changes; the encoding sorts them."""
    code = (
        "from core.game import Game; from core.projections.statehash import state_hash; "
        "print(state_hash(Game.load('replays/four-players.dmlog').state))"
    )
    seen = set()
    for seed in ("1", "2", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        seen.add(done.stdout.strip())
    assert seen == {GOLDEN[2][2]}


def test_the_encoding_is_sorted_json_after_a_version_line():
    state = Game.load(REPLAYS / "two-players.dmlog").state
    data = canonical_bytes(state)
    head, _, body = data.partition(b"\n")
    assert head == f"dice-miner state v{HASH_VERSION}".encode()
    decoded = json.loads(body)
    # every field, sorted, the solo record's at the top level; the table's facts only when
    # a game has some
    assert list(decoded) == _FIELDS
    assert decoded == canonical(state)
    assert body == json.dumps(decoded, sort_keys=True, separators=(",", ":")).encode("ascii")


def test_a_value_of_another_type_is_refused_not_guessed():
    with pytest.raises(TypeError, match="float"):
        plain((1, 2.5))
    assert plain(frozenset({3, 1, 2})) == [1, 2, 3]
    assert plain((None, True, "a", (1,))) == [None, True, "a", [1]]


# -- properties ------------------------------------------------------------------------

_GAMES = ("two-players", "solo", "four-players-undo")
_BATCHES = {name: batches_of(name) for name in _GAMES}
_STATES = [step.after for name in _GAMES for step in walk(_BATCHES[name])]
_SOLO_FIELDS = [f.name for f in fields(SoloState)]
_FIELDS = sorted(
    [f.name for f in fields(GameState) if f.name not in ("facts", "solo")] + _SOLO_FIELDS
)


@given(name=st.sampled_from(_GAMES), data=st.data())
def test_equal_states_hash_equally(name, data):
    """A state folded again from the log, or sent through pickle, is equal and hashes equally."""
    batches = _BATCHES[name]
    at = data.draw(st.integers(min_value=1, max_value=batches[-1].end))
    state = replay(batches, at).state
    again = replay(batches, at).state
    copied = pickle.loads(pickle.dumps(state))
    assert state == again == copied
    assert state_hash(state) == state_hash(again) == state_hash(copied)
    spent = frozenset(sorted(state.spent, reverse=True))  # built in another order
    assert state_hash(state.replace(spent=spent)) == state_hash(state)


def changed(value):
    """A different value of the same shape (a field changed)."""
    if value is None:
        return 0
    if type(value) is bool:
        return not value
    if type(value) is int:
        return value + 1
    if type(value) is str:
        return value + "x"
    if type(value) is frozenset:
        return value - {min(value)} if value else frozenset({0})
    if type(value) is tuple:
        return (changed(value[0]), *value[1:]) if value else (0,)
    raise AssertionError(f"no way to change {value!r}")


@given(state=st.sampled_from(_STATES), name=st.sampled_from(_FIELDS))
def test_a_changed_field_changes_the_hash(state, name):
    if name in _SOLO_FIELDS:  # the solo record's fields, hashed as top-level keys
        value = getattr(state.solo, name)
        other = changed(value)
        assert state_hash(state.replace(solo=evolve(state.solo, **{name: other}))) != (
            state_hash(state)
        )
        return
    value = getattr(state, name)
    other = changed(value)
    assert other != value
    assert state_hash(state.replace(**{name: other})) != state_hash(state)


def test_the_tables_facts_are_hashed_only_when_a_game_has_some():
    state = _STATES[0]
    assert "facts" not in canonical(state)
    closed = state.replace(facts=evolve(state.facts, closed="nobody played"))
    assert canonical(closed)["facts"]["closed"] == "nobody played"
    assert state_hash(closed) != state_hash(state)
    for name in ("commitment", "revealed", "seed_chosen_by"):
        other = state.replace(facts=evolve(state.facts, **{name: "ab"}))
        assert state_hash(other) not in (state_hash(state), state_hash(closed))


def test_the_page_lists_every_field_and_its_example_holds():
    page = (ROOT / "docs" / "reference" / "state-hash.md").read_text(encoding="utf-8")
    listed = page.split("The fields are those of `GameState` in")[1].split("A field added")[0]
    facts = {f.name for f in fields(TableFacts)}
    # every field, no other
    assert set(re.findall(r"`([a-z_]+)`", listed)) == {*_FIELDS, "facts", *facts}
    example = replay(batches_of("two-players"), 1).state
    assert state_hash(example) in page
    shown = page.split("```text\n")[1].split("\n```")[0]
    assert shown.replace(
        "[0,1,2,…,59]", json.dumps(list(range(60)), separators=(",", ":"))
    ).replace(
        "[null,null,…,null]", json.dumps([None] * 60, separators=(",", ":"))
    ) == canonical_bytes(example).decode("ascii")
