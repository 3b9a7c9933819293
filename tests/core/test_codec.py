"""Round trips through the one converter: decode(encode(x)) == x for every event and command."""

import contextlib

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.commands import (
    COMMAND_TYPES,
    BranchGame,
    CacheDice,
    ChooseHero,
    CloseGame,
    EndMagicTurn,
    EndSolo,
    HandSeatToBot,
    LeaveGame,
    NewGame,
    Refill,
    ReturnSeat,
    RevealSeed,
    ShareBeer,
    SpendMagic,
    StartRematch,
    TakeDie,
    Undo,
    parse_command,
)
from core.errors import CommandSyntaxError, EventFormatError
from core.events import EVENT_TYPES, Batch, decode_batch, encode_batch, event_from_dict
from core.modes.multiplayer import events as ev
from core.modes.table import events as tev
from tests.support.strategies import EVENTS

COMMANDS = [
    NewGame(("Ada", "Brok"), seed=7, game_id="x"),
    ChooseHero(1, "Dragon Slayer"),
    TakeDie(0, 17),
    TakeDie(0, 17, as_face="3", freeze=True),
    ShareBeer(2, 12, 0),
    SpendMagic(1, (3, 7), die=52),
    SpendMagic(1, (3,), hero_face=2),
    SpendMagic(1, (), die=52),
    EndMagicTurn(3),
    CacheDice(0, (4, 5)),
    CacheDice(0, ()),
    Refill(0),
    EndSolo(0),
    Undo(1),
]

#: The table's commands: logged like the others, never typed by a player.
TABLE_COMMANDS = [
    NewGame(("Ada", "Brok"), seed=7, game_id="x", commitment="ab" * 32),
    NewGame(("Ada", "Brok"), seed=7, game_id="x", seed_chosen_by="Ada"),
    RevealSeed("cd" * 32),
    CloseGame("nobody moved for an hour"),
    HandSeatToBot(1, "greedy", "Brok was quiet for 5 minutes"),
    ReturnSeat(1),
    LeaveGame(0, "greedy"),
    StartRematch("0123456789ab"),
    BranchGame("ef" * 32, 25, "same"),
    BranchGame("ef" * 32, 25, "same", secret="cd" * 32),
    BranchGame("ef" * 32, 25, "fresh", seed=2**64 - 1),
]


def test_every_multiplayer_event_type_has_a_strategy():
    """The multiplayer game's own facts and those every game has (``core.events.game``)."""
    every_game = "core.events.game"
    multiplayer = {
        cls for cls in EVENT_TYPES.values() if cls.__module__ in (ev.__name__, every_game)
    }
    assert len(multiplayer) == 21
    assert multiplayer == set(EVENTS)


@pytest.mark.parametrize("cls", sorted(EVENTS, key=lambda c: c.__name__))
def test_event_round_trip(cls):
    @given(EVENTS[cls])
    def check(event):
        batch = Batch(5, Undo(), (event,))
        assert decode_batch(encode_batch(batch)) == batch

    check()


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.TAG)
def test_command_round_trip(command):
    batch = Batch(0, command, ())
    assert decode_batch(encode_batch(batch)).command == command


def test_every_command_type_is_covered():
    assert set(COMMAND_TYPES.values()) <= {type(c) for c in COMMANDS + TABLE_COMMANDS}


@pytest.mark.parametrize("command", TABLE_COMMANDS, ids=lambda c: c.TAG)
def test_table_command_round_trip(command):
    batch = Batch(0, command, ())
    assert decode_batch(encode_batch(batch)).command == command


def test_a_new_game_logs_its_later_fields_only_when_set():
    """A game with no commitment and no chosen seed keeps the bytes logs always had."""
    plain = encode_batch(Batch(0, NewGame(("Ada", "Brok"), seed=7, game_id="x"), ()))
    assert b"commitment" not in plain and b"seed_chosen_by" not in plain
    assert b"practice" not in plain
    secret = encode_batch(Batch(0, TABLE_COMMANDS[0], ()))
    assert b"commitment" in secret


TABLE_EVENTS = [
    tev.DiceCommitted("ab" * 32),
    tev.SeedChosen("Ada"),
    tev.SeedRevealed("cd" * 32),
    tev.GameClosed("nobody moved for an hour"),
    tev.PracticeChosen("Ada"),
    tev.SeatHandedToBot(1, "greedy", "quiet for 5 minutes"),
    tev.SeatReturned(1),
    tev.SeatLeft(0, "greedy"),
    tev.RematchStarted("0123456789ab"),
    tev.GameBranched("ef" * 32, 25, "same", 7),
    tev.GameBranched("ef" * 32, 25, "same", None, "cd" * 32),
    tev.GameBranched("ef" * 32, 25, "fresh", 2**64 - 1),
]


def test_every_table_event_type_is_covered():
    table = {cls for cls in EVENT_TYPES.values() if cls.__module__ == tev.__name__}
    assert table == {type(e) for e in TABLE_EVENTS}


@pytest.mark.parametrize("event", TABLE_EVENTS, ids=lambda e: type(e).TAG)
def test_table_event_round_trip(event):
    batch = Batch(5, Undo(), (event,))
    assert decode_batch(encode_batch(batch)) == batch


def test_the_table_commands_cannot_be_typed():
    for command in TABLE_COMMANDS[2:]:
        with pytest.raises(CommandSyntaxError):
            parse_command(command.text(), 0)


@pytest.mark.parametrize("command", [c for c in COMMANDS if not isinstance(c, NewGame)])
def test_text_form_round_trips(command):
    seat = command.seat if command.seat is not None else 0
    parsed = parse_command(command.text(), seat)
    assert parsed == (command if command.seat is not None else Undo(0))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "dig 3",
        "take",
        "take x",
        "beer 3",
        "beer 3 for 2",
        "spend",
        "spend 5 at 3",
        "end now",
        "cache a",
        "take 3 as",
        "take 3 quickly",
    ],
)
def test_bad_text_is_a_syntax_error(text):
    with pytest.raises(CommandSyntaxError):
        parse_command(text, 0)


def test_payload_is_plain_msgpack_with_tags_and_versions():
    payload = encode_batch(Batch(3, TakeDie(0, 9), (ev.DieTaken(0, 9, "3", 4, 0, ()),)))
    data = msgpack.unpackb(payload)
    assert data == {
        "seq": 3,
        "cmd": {"t": "take", "seat": 0, "die": 9, "as_face": None, "freeze": False},
        "events": [
            {
                "t": "DieTaken",
                "v": 1,
                "seat": 0,
                "die": 9,
                "face": "3",
                "row": 4,
                "col": 0,
                "slides": [],
            }
        ],
    }


@pytest.mark.parametrize(
    "data",
    [
        {"v": 1},
        {"t": "NoSuchEvent", "v": 1},
        {"t": "DieTaken", "v": 99, "seat": 0},
        {"t": "DieTaken", "v": 1, "seat": 0},
        {"t": "DieTaken", "v": 1, "seat": "x", "die": 1, "face": "1", "row": 0, "col": 0},
        [1, 2],
    ],
)
def test_malformed_events_raise_event_format_error(data):
    with pytest.raises(EventFormatError):
        event_from_dict(data)


@given(st.binary(max_size=200))
def test_random_payloads_only_raise_event_format_error(payload):
    with contextlib.suppress(EventFormatError):
        decode_batch(payload)
