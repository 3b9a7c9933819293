"""The converter's strict hooks: a field is read only from exactly its type, fast or not."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.commands import COMMAND_TYPES, CacheDice, NewGame, SpendMagic
from core.errors import EventFormatError
from core.events.codec import (
    command_from_dict,
    command_to_dict,
    converter,
    decode_batch,
    event_from_dict,
    event_to_dict,
)
from core.events.strict import check_for
from core.modes.multiplayer import events as ev
from tests.support.strategies import EVENTS

GOOD = {
    "t": "MagicSpent",
    "v": 1,
    "seat": 1,
    "die": 52,
    "hero_face": None,
    "rolls": [[30, "gem1"], [7, "2"]],
}


def with_field(data: dict, **changes) -> dict:
    return {**data, **changes}


def test_a_good_map_reads_into_tuples():
    event = event_from_dict(GOOD)
    assert event == ev.MagicSpent(1, 52, None, ((30, "gem1"), (7, "2")))
    assert type(event.rolls) is tuple and all(type(r) is tuple for r in event.rolls)


@pytest.mark.parametrize(
    "field, value",
    [
        ("seat", True),  # a bool is not an int
        ("seat", 1.0),
        ("seat", "1"),
        ("die", False),
        ("hero_face", "0"),
        ("rolls", "ab"),  # a string is not an array, though it can be iterated
        ("rolls", b"ab"),
        ("rolls", {"3": "gem1"}),  # nor is a map
        ("rolls", [[3, "gem1", 4]]),  # a record has exactly its items
        ("rolls", [[3]]),
        ("rolls", [[3, 4]]),
        ("rolls", [["3", "gem1"]]),
        ("rolls", [3, "gem1"]),
    ],
)
def test_a_field_of_the_wrong_type_is_refused(field, value):
    with pytest.raises(EventFormatError, match="MagicSpent"):
        event_from_dict(with_field(GOOD, **{field: value}))


def test_the_refusal_names_the_field_or_what_is_missing():
    with pytest.raises(EventFormatError, match="seat: expected int, not bool True"):
        event_from_dict(with_field(GOOD, seat=True))
    missing = {k: v for k, v in GOOD.items() if k != "rolls"}
    with pytest.raises(EventFormatError, match="missing field 'rolls'"):
        event_from_dict(missing)


def test_defaults_fill_fields_left_out_and_unknown_keys_are_ignored():
    data = {"t": "DieTaken", "v": 1, "seat": 0, "die": 4, "face": "1", "row": 0, "col": 2}
    assert event_from_dict({**data, "later": 1}) == ev.DieTaken(0, 4, "1", 0, 2, ())


@pytest.mark.parametrize(
    "data",
    [
        {"t": "spend", "seat": 0, "targets": "12", "die": 3},
        {"t": "spend", "seat": 0, "targets": [1, True], "die": 3},
        {"t": "cache", "seat": 0, "dice": {"a": 1}},
        {"t": "new", "players": "AB", "seed": 1},
        {"t": "take", "seat": 0, "die": 3, "freeze": 1},
        {"t": "take", "seat": 0},
        ["take", 0, 3],
    ],
)
def test_commands_are_as_strict(data):
    with pytest.raises(EventFormatError, match="not a valid command"):
        command_from_dict(data)


def test_every_command_type_round_trips_through_its_generated_function():
    samples = [CacheDice(0, (1, 2)), SpendMagic(1, (4,), hero_face=0), NewGame(("A", "B"), 9)]
    for command in samples:
        assert command_from_dict(command_to_dict(command)) == command
    assert {type(c).TAG for c in samples} <= set(COMMAND_TYPES)


@given(st.one_of(*EVENTS.values()))
def test_decoding_what_msgpack_returns_gives_the_event_back(event):
    """Arrays come back from the log as lists or tuples; both read the same."""
    packed = msgpack.packb(event_to_dict(event), use_bin_type=True)
    for use_list in (True, False):
        assert event_from_dict(msgpack.unpackb(packed, use_list=use_list)) == event


def test_converter_structure_uses_the_same_strict_hooks():
    assert converter.structure({"seat": 2}, ev.MagicTurnEnded) == ev.MagicTurnEnded(2)
    with pytest.raises(TypeError):
        converter.structure({"seat": True}, ev.MagicTurnEnded)
    assert check_for(tuple[int, ...])([1, 2]) == (1, 2)


def test_a_batch_whose_event_list_is_not_an_array_is_refused():
    payload = msgpack.packb({"seq": 0, "cmd": {"t": "end", "seat": 0}, "events": "x"})
    with pytest.raises(EventFormatError, match="event list"):
        decode_batch(payload)
    payload = msgpack.packb({"seq": True, "cmd": {"t": "end", "seat": 0}, "events": []})
    with pytest.raises(EventFormatError, match="seq"):
        decode_batch(payload)
