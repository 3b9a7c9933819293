"""Every board of a game in one packed answer: the same boards as ``/state?at=N``, each
part sent once, for a replay (kept once made) and for a live game (from any position)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from frontends.web.readmodel import pack_boards, unpack_boards
from tests.support.web_support import live_game, wait_until

REPLAYS = Path(__file__).resolve().parents[2] / "replays"


@pytest.fixture(scope="module")
def replays():
    return ("four-players-undo.dmlog", "solo.dmlog")


@pytest.mark.parametrize("name", ["four-players-undo.dmlog", "solo.dmlog"])
def test_a_replays_packed_boards_are_its_states_one_by_one(app, name):
    client = app.test_client()
    pack = client.get(f"/api/replays/{name}/boards").get_json()
    boards = unpack_boards(pack)
    total = client.get(f"/api/replays/{name}").get_json()["events"]
    assert pack["from"] == 1 and len(boards) == total
    for n, board in enumerate(boards, start=1):  # undone commands and undos included
        assert board == client.get(f"/api/replays/{name}/state?at={n}").get_json()
    parts = [json.dumps(value) for value in pack["values"]]
    assert len(set(parts)) == len(parts)  # each part once
    whole = len(json.dumps(boards, separators=(",", ":")))
    assert len(json.dumps(pack, separators=(",", ":"))) < whole * 0.7
    replay = app.extensions["dice_miner"].library.get(name)
    assert replay.boards() is replay.boards()  # made once, then kept


def test_a_live_games_boards_from_any_position_are_its_states(app, tmp_path):
    client = app.test_client()
    people = [{"name": "Ann", "bot": "greedy"}, {"name": "Bo", "bot": "greedy"}]
    game = client.post("/api/games", json={"players": people, "seed": 3}).get_json()
    live = live_game(app, game["id"])
    assert wait_until(lambda: live.seq > 40, timeout=20)
    for start in (1, 17):
        pack = client.get(f"/api/games/{game['id']}/boards?from={start}").get_json()
        boards = unpack_boards(pack)
        assert pack["from"] == start and boards
        for n, board in enumerate(boards, start=start):
            assert board == client.get(f"/api/games/{game['id']}/state?at={n}").get_json()
    refused = client.get(f"/api/games/{game['id']}/boards?from=0")
    assert refused.status_code == 400


def test_packing_keeps_any_board_as_it_was():
    # the recorded games above cover real boards; here, odd shapes
    boards = [
        {"seq": 1, "players": [{"a": 1}, {"a": 1}], "table": {"x": [1], "y": None}, "bag": []},
        {"seq": 2, "players": [{"a": 1}, {"a": 2}], "table": {"x": [1]}, "bag": [], "z": 0},
    ]
    pack = pack_boards(boards)
    assert unpack_boards(pack) == boards
    assert pack["values"].count({"a": 1}) == 1
