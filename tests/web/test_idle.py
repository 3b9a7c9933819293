"""The web server under idle games and failing disks: 429 per client, 503 with a reason,
the table told why its game stopped."""

from __future__ import annotations

import time

from core.events.codec import command_to_dict
from tests.support.web_support import live_game, make_app

TWO_PEOPLE = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]


def test_one_client_is_held_to_its_games_with_a_429_and_retry_after(tmp_path):
    app = make_app(tmp_path, GAMES_PER_CLIENT=2)
    client = app.test_client()
    for _ in range(2):
        assert client.post("/api/games", json={"players": TWO_PEOPLE}).status_code == 201
    refused = client.post("/api/games", json={"players": TWO_PEOPLE})
    assert refused.status_code == 429
    assert refused.get_json()["error"]["code"] == "too_many_games"
    assert int(refused.headers["Retry-After"]) > 0
    other = client.post(
        "/api/games", json={"players": TWO_PEOPLE}, environ_base={"REMOTE_ADDR": "10.1.2.3"}
    )
    assert other.status_code == 201
    app.extensions["dice_miner"].games.close()


def test_an_idle_game_is_closed_and_shown_why(tmp_path):
    app = make_app(tmp_path, IDLE_CLOSE_SECONDS=3600.0)
    client = app.test_client()
    game = client.post("/api/games", json={"players": TWO_PEOPLE}).get_json()
    lobby = app.extensions["dice_miner"].games.lobby
    lobby.sweep(now=time.time() + 3601)
    summary = client.get(f"/api/games/{game['id']}").get_json()
    assert summary["over"] and "no one moved for 60 minutes" in summary["closed"]
    assert summary["events"][-2]["type"] == "GameClosed"
    assert summary["events"][-1]["type"] == "SeedRevealed"
    app.extensions["dice_miner"].games.close()


def test_a_full_disk_answers_503_with_the_reason_and_the_stream_says_the_game_stopped(
    tmp_path, monkeypatch
):
    app = make_app(tmp_path, SSE_MAX_SECONDS=2.0)
    client = app.test_client()
    game = client.post("/api/games", json={"players": TWO_PEOPLE}).get_json()
    live = live_game(app, game["id"])
    seat = live.state.to_act()
    token = next(s["token"] for s in game["seats"] if s["seat"] == seat)

    def full(fd, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("core.log.file._write_all", full)
    answer = client.post(
        f"/api/games/{game['id']}/commands",
        json={"command": command_to_dict(live.table.game.legal()[0])},
        headers={"X-Seat-Token": token},
    )
    assert answer.status_code == 503, answer.get_json()
    assert "No space left on device" in answer.get_json()["error"]["message"]
    assert "Retry-After" in answer.headers
    summary = client.get(f"/api/games/{game['id']}").get_json()
    assert "No space left on device" in summary["stopped"]
    stream = client.get(f"/api/games/{game['id']}/stream?from={summary['seq']}")
    text = stream.get_data(as_text=True)
    assert "event: stopped" in text and "No space left on device" in text
    monkeypatch.undo()
    app.extensions["dice_miner"].games.close()
