"""The engine's fast paths agree with the plain definitions they replace."""

from __future__ import annotations

import attrs
import pytest
from attrs.exceptions import FrozenInstanceError
from hypothesis import given
from hypothesis import strategies as st

from core.bots.play import play_game
from core.bots.random_bot import RandomBot
from core.bots.series import write_log
from core.game import Game
from core.mountain import (
    SLOT_COUNT,
    UPPER,
    covering,
    is_bare,
    is_side,
    is_top,
    side_slots,
    top_slots,
)
from core.projections.apply import apply, fold
from core.projections.state import PREGAME

occupancies = st.lists(st.booleans(), min_size=SLOT_COUNT, max_size=SLOT_COUNT)


def mountain_of(occupied: list[bool]) -> tuple:
    return tuple(k if full else None for k, full in enumerate(occupied))


@given(occupancies)
def test_top_and_side_slots_follow_the_definition(occupied):
    """Remembered per pattern of empty slots, the answers are those of counting the dice above."""
    mountain = mountain_of(occupied)
    above = [
        sum(1 for u in UPPER[k] if u is not None and mountain[u] is not None)
        for k in range(SLOT_COUNT)
    ]
    tops = tuple(k for k in range(SLOT_COUNT) if mountain[k] is not None and above[k] == 0)
    sides = tuple(k for k in range(SLOT_COUNT) if mountain[k] is not None and above[k] == 1)
    assert top_slots(mountain) == tops and side_slots(mountain) == sides
    assert [is_top(mountain, k) for k in range(SLOT_COUNT)] == [
        k in tops for k in range(SLOT_COUNT)
    ]
    assert [is_side(mountain, k) for k in range(SLOT_COUNT)] == [
        k in sides for k in range(SLOT_COUNT)
    ]
    assert all(len(covering(mountain, k)) == above[k] for k in range(SLOT_COUNT))
    assert is_bare(mountain) == (not any(occupied))


def test_replace_is_evolve_and_the_state_stays_frozen():
    state = Game.new(["A", "B"], 4).state
    changed = state.replace(picks_left=2, active=1)
    assert changed == attrs.evolve(state, picks_left=2, active=1)
    assert hash(changed) == hash(attrs.evolve(state, picks_left=2, active=1))
    assert state.picks_left == 1  # the original is untouched
    assert changed.mountain is state.mountain  # structure is shared, not copied
    with pytest.raises(TypeError, match="no field colour"):
        state.replace(colour="red")
    with pytest.raises(FrozenInstanceError):
        changed.picks_left = 3


def test_fold_is_apply_event_by_event():
    game = Game.new(["A", "B", "C"], 8)
    play_game(game, [RandomBot()] * 3)
    events = [e for _, e in game.events()]
    state = PREGAME
    for event in events:
        state = apply(state, event)
    assert fold(events) == state == game.state


def test_a_loaded_game_keeps_the_bytes_it_read(tmp_path):
    """Game.load does not encode its batches again: the store holds the file's own payloads."""
    game = Game.new(["A", "B"], 6)
    play_game(game, [RandomBot()] * 2)
    path = tmp_path / "g.dmlog"
    write_log(game, str(path))
    loaded = Game.load(path)
    assert loaded.stream.payloads() == game.stream.payloads()
    assert loaded.state == game.state and loaded.batches() == game.batches()
    loaded.undo()  # and it plays on, appending after them
    assert loaded.seq == game.seq + 1 and loaded.state != game.state
