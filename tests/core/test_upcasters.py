"""Promise 4: old event schemas are upcast on reading; newer formats are refused, saying so.

``HeroChosen`` went from schema 1 (``seat, hero``) to 2 (``+ faces``), and
``tests/data/herochosen-v1.dmlog`` is a game the engine logged before that change
(recorded by ``python -m scripts.make_upcast_fixture``), with the state it
reached in ``herochosen-v1.json``. ``HeroesDealt`` did the same (``heroes`` then
``+ faces``), with ``heroesdealt-v1.dmlog``: a game whose heroes were dealt at random.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import msgpack
import pytest

from core.bots import make_bot
from core.bots.play import bot_command
from core.dice import DICE_SET, HEROES
from core.errors import EventFormatError, LogDamaged, LogVersionError
from core.events.codec import event_from_dict, event_to_dict
from core.events.upcasters import (
    HEROES_STANDARD_D1,
    UPCASTERS,
    hero_chosen_faces,
    heroes_dealt_faces,
)
from core.game import Game
from core.log import read_log
from core.log.framing import PREAMBLE, encode_frame, encode_log
from core.modes.multiplayer.events import GameStarted, HeroChosen, HeroesDealt
from core.projections.apply import fold
from core.store import FileStream

DATA = Path(__file__).resolve().parents[1] / "data"
FIXTURE = DATA / "herochosen-v1.dmlog"
RECORDED = json.loads((DATA / "herochosen-v1.json").read_text())
DEALT = DATA / "heroesdealt-v1.dmlog"
DEALT_RECORDED = json.loads((DATA / "heroesdealt-v1.json").read_text())


def raw_events(path: Path, tag: str) -> list[dict]:
    """The events tagged ``tag`` as stored, before any decoding or upcasting."""
    return [
        event
        for payload in read_log(path).payloads
        for event in msgpack.unpackb(payload, raw=False)["events"]
        if event["t"] == tag
    ]


def test_the_fixture_holds_version_1_hero_choices() -> None:
    stored = raw_events(FIXTURE, "HeroChosen")
    assert len(stored) == 4  # three players, one choice undone and made again
    assert all(e["v"] == 1 and "faces" not in e for e in stored)
    assert HeroChosen.VERSION == 2 and ("HeroChosen", 1) in UPCASTERS


def test_the_upcaster_adds_the_faces_the_hero_had_then() -> None:
    assert hero_chosen_faces({"seat": 1, "hero": "Engineer"}) == {
        "seat": 1,
        "hero": "Engineer",
        "faces": ("2", "pickaxe"),
    }
    old = {"t": "HeroChosen", "v": 1, "seat": 2, "hero": "Surveyor"}
    assert event_from_dict(old) == HeroChosen(2, "Surveyor", ("1", "magic1"))
    assert event_to_dict(event_from_dict(old))["v"] == 2
    with pytest.raises(EventFormatError, match="HeroChosen"):
        event_from_dict({"t": "HeroChosen", "v": 1, "seat": 0, "hero": "Necromancer"})


def test_the_frozen_hero_table_is_the_one_of_its_dice_set() -> None:
    """The upcaster keeps the table v1 logs were played with; today it is still the same."""
    assert DICE_SET == "standard-d1"
    assert HEROES_STANDARD_D1 == HEROES


def test_a_version_1_log_replays_to_the_state_it_recorded() -> None:
    game = Game.load(FIXTURE)
    state = game.state
    assert game.seq == RECORDED["seq"]
    assert state.phase == RECORDED["phase"] == "over"
    assert list(state.heroes) == RECORDED["heroes"]
    assert [list(t) for t in state.troves] == RECORDED["troves"]
    assert list(state.faces) == RECORDED["faces"]
    assert list(state.mountain) == RECORDED["mountain"]
    assert list(state.bag) == RECORDED["bag"]
    assert [[list(s) for s in r] for r in state.round_scores] == RECORDED["round_scores"]
    assert list(state.totals()) == RECORDED["totals"]
    assert list(state.winners) == RECORDED["winners"]
    chosen = [e for _, e in game.events() if isinstance(e, HeroChosen)]
    assert [e.faces for e in chosen] == [HEROES[e.hero] for e in chosen]


def test_a_version_1_log_continues_with_version_2_events(tmp_path: Path) -> None:
    """Opened for writing, an old log takes new events at the new version after its old
    ones, and reads back whole: nothing is ever rewritten."""
    path = tmp_path / "old.dmlog"
    shutil.copy(FIXTURE, path)
    with Game.open(path) as game:
        while game.state.phase != "setup":  # back to the hero choices, one command at a time
            game.undo()
        game.issue(game.legal()[0])
        live = game.state
    assert path.read_bytes().startswith(FIXTURE.read_bytes())
    versions = [e["v"] for e in raw_events(path, "HeroChosen")]
    assert versions[:4] == [1, 1, 1, 1] and versions[4:] == [2]
    assert Game.load(path).state == live


def test_a_log_from_a_newer_program_is_refused_saying_so(tmp_path: Path) -> None:
    """A newer format version, or an event at a newer schema version: LogVersionError."""
    newer_format = tmp_path / "format.dmlog"
    data = FIXTURE.read_bytes()
    newer_format.write_bytes(data[:5] + b"\x02" + data[6:])
    with pytest.raises(LogVersionError, match=r"format version 2 is newer .* upgrade"):
        Game.load(newer_format)

    scan = read_log(FIXTURE)
    payloads = list(scan.payloads)
    batch = msgpack.unpackb(payloads[1], raw=False)
    batch["events"][0]["v"] = 3
    payloads[1] = msgpack.packb(batch, use_bin_type=True)
    header = msgpack.packb(scan.header, use_bin_type=True)
    newer_event = tmp_path / "event.dmlog"
    newer_event.write_bytes(PREAMBLE + b"".join(encode_frame(p) for p in [header, *payloads]))
    with pytest.raises(LogVersionError) as info:
        Game.load(newer_event)
    message = str(info.value)
    assert str(newer_event) in message and f"byte {scan.offsets[1]}" in message
    assert "HeroChosen schema version 3 is newer than this program reads (2)" in message
    assert message.endswith("upgrade dice-miner")


def test_the_dealt_fixture_holds_a_version_1_deal_and_replays_to_its_recorded_state() -> None:
    (stored,) = raw_events(DEALT, "HeroesDealt")
    assert stored["v"] == 1 and "faces" not in stored
    assert HeroesDealt.VERSION == 2 and ("HeroesDealt", 1) in UPCASTERS
    game = Game.load(DEALT)
    state = game.state
    assert game.seq == DEALT_RECORDED["seq"] and state.phase == "over"
    assert list(state.heroes) == DEALT_RECORDED["heroes"]
    assert [list(t) for t in state.troves] == DEALT_RECORDED["troves"]
    assert list(state.faces) == DEALT_RECORDED["faces"]
    assert [[list(s) for s in r] for r in state.round_scores] == DEALT_RECORDED["round_scores"]
    assert list(state.totals()) == DEALT_RECORDED["totals"]
    assert list(state.winners) == DEALT_RECORDED["winners"]
    assert [state.hero_faces(s) for s in range(4)] == [HEROES[h] for h in state.heroes]


def test_the_deal_upcaster_adds_each_hero_s_faces_of_its_time() -> None:
    old = {"heroes": ("Treasurer", "Engineer")}
    assert heroes_dealt_faces(old) == {**old, "faces": (("gem1", "chest2"), ("2", "pickaxe"))}
    event = event_from_dict({"t": "HeroesDealt", "v": 1, "heroes": ["Alchemist"]})
    assert event == HeroesDealt(("Alchemist",), (("magic1", "magic1", "magic1"),))
    with pytest.raises(EventFormatError, match="HeroesDealt"):
        event_from_dict({"t": "HeroesDealt", "v": 1, "heroes": ["Necromancer"]})


def test_the_state_shows_the_hero_faces_the_log_recorded_not_todays_table(monkeypatch) -> None:
    """Events are facts: a hero table corrected after a game was played changes nothing in it."""
    started = GameStarted("g", 1, "multi", ("Ada", "Brok"), "standard-d1", "r", "choose")
    chosen = fold([started, HeroChosen(1, "Engineer", ("5", "pickaxe", "gem3"))])
    dealt = fold([started, HeroesDealt(("Prospector", "Surveyor"), (("gem2",), ("1", "chest1")))])
    assert chosen.hero_faces(0) == () and chosen.hero_faces(1) == ("5", "pickaxe", "gem3")
    assert dealt.hero_faces(0) == ("gem2",) and dealt.trove_faces(1) == ("1", "chest1")

    monkeypatch.setitem(HEROES, "Engineer", ("1",))  # the table "corrected" after the game
    monkeypatch.setitem(HEROES, "Treasurer", ("1",))
    for path in (FIXTURE, DEALT):
        state = Game.load(path).state
        assert all(state.hero_faces(s) == HEROES_STANDARD_D1[h] for s, h in enumerate(state.heroes))


# -- the batch record: version 2 keeps the request id --------------------------------------

REQUESTS = DATA / "requests-v1.dmlog"
REQUESTS_RECORDED = json.loads((DATA / "requests-v1.json").read_text())


def test_a_log_whose_records_kept_no_request_reads_as_it_was_played(tmp_path):
    """``requests-v1.dmlog`` is what the file store wrote (byte for byte, checked against
    main's code) for a game whose every command had a request id: none was kept."""
    raw = [msgpack.unpackb(p, raw=False) for p in read_log(REQUESTS).payloads]
    assert all("v" not in r and "request" not in r for r in raw)
    game = Game.load(REQUESTS)
    assert (
        game.seq == REQUESTS_RECORDED["seq"]
        and list(game.state.winners) == (REQUESTS_RECORDED["winners"])
    )
    path = tmp_path / "old.dmlog"
    shutil.copyfile(REQUESTS, path)
    stream = FileStream.open(path)
    try:
        assert stream.requested("r1") is None  # version 1 kept none: upcast to None
    finally:
        stream.close()


def test_a_request_is_kept_in_its_record_after_older_ones_and_read_after_a_restart(tmp_path):
    path = tmp_path / "g.dmlog"
    game = Game.new(["Ada", "Brok"], 5, log=path)
    bot = make_bot("random")
    game.issue(bot_command(game, bot))  # no request: written at record version 1
    first = game.seq
    game.issue(bot_command(game, bot), request="take-1")
    game.close()
    raw = [msgpack.unpackb(p, raw=False) for p in read_log(path).payloads]
    assert "v" not in raw[1] and (raw[2]["v"], raw[2]["request"]) == (2, "take-1")
    again = FileStream.open(path)
    try:
        assert again.requested("take-1") == (first, Game.load(path).seq)
    finally:
        again.close()


@pytest.mark.parametrize(
    ("change", "error", "words"),
    [
        ({"v": 3}, LogVersionError, "batch record version 3 is newer than this program reads"),
        ({"v": "2"}, LogDamaged, "batch record version '2' is not a number from 1"),
        ({"v": 2, "request": "x" * 65}, LogDamaged, "a request id is 1 to 64 characters"),
        ({"v": 2, "request": 7}, LogDamaged, "a request id is 1 to 64 characters"),
    ],
)
def test_a_batch_record_of_a_newer_version_or_a_bad_request_is_refused(
    tmp_path, change, error, words
):
    scan = read_log(REQUESTS)
    payloads = list(scan.payloads)
    record = msgpack.unpackb(payloads[1], raw=False)
    payloads[1] = msgpack.packb({**record, **change}, use_bin_type=True)
    path = tmp_path / "forged.dmlog"
    path.write_bytes(encode_log(scan.header, payloads))
    with pytest.raises(error, match=re.escape(words)):
        Game.load(path)
