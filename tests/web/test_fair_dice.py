"""Live games keep their dice secret: no answer, page or stream carries the seed until the
game is over, when the log reveals it and verifies; a chosen seed is shown as such."""

from __future__ import annotations

import json

from core.events.codec import command_to_dict
from core.game import Game
from core.verify import rerun
from tests.support.web_support import live_game, make_app, wait_until

ANN_AND_BOT = [{"name": "Ann", "bot": None}, {"name": "Brok", "bot": "random"}]


def secret_of(app, game_id: str) -> str:
    seats = app.config["DATA_DIR"] / f"web-{game_id}.seats.json"
    return json.loads(seats.read_text())["secret"]


def everything_served(client, game_id: str) -> str:
    """Every answer a spectator or a player could get about the game, as one text."""
    paths = [
        f"/api/games/{game_id}",
        f"/api/games/{game_id}/events",
        f"/api/games/{game_id}/state",
        f"/api/games/{game_id}/choices",
        f"/api/games/{game_id}/stream",
        "/api/games",
        f"/games/{game_id}",
    ]
    return "\n".join(client.get(path).get_data(as_text=True) for path in paths)


def test_no_answer_carries_the_secret_until_the_end_then_the_log_reveals_it(tmp_path):
    app = make_app(tmp_path, SSE_MAX_SECONDS=0.2)
    client = app.test_client()
    answer = client.post("/api/games", json={"players": ANN_AND_BOT})
    assert answer.status_code == 201
    game = answer.get_json()
    token = next(s["token"] for s in game["seats"] if "token" in s)
    secret = secret_of(app, game["id"])
    assert len(secret) == 64 and secret not in answer.get_data(as_text=True)
    assert game["dice"]["kind"] == "secret" and game["dice"]["secret"] is None
    live = live_game(app, game["id"])
    served = []
    while not live.state.is_over:
        assert wait_until(lambda: live.state.to_act() == 0 or live.state.is_over, timeout=20)
        if live.state.is_over:
            break
        served.append(everything_served(client, game["id"]))
        command = command_to_dict(live.table.game.legal()[0])
        moved = client.post(
            f"/api/games/{game['id']}/commands",
            json={"command": command},
            headers={"X-Seat-Token": token},
        )
        assert moved.status_code == 200
        if (
            not moved.get_json()["state"]["winners"]
            and moved.get_json()["state"]["phase"] != "over"
        ):
            served.append(moved.get_data(as_text=True))  # the move that ends it may reveal it
    assert served and all(secret not in text for text in served)
    assert wait_until(lambda: live.state.facts.revealed == secret, timeout=10)
    summary = client.get(f"/api/games/{game['id']}").get_json()
    assert summary["dice"] == {
        "kind": "revealed",
        "commitment": live.state.facts.commitment,
        "secret": secret,
    }
    assert summary["events"][-1]["type"] == "SeedRevealed"
    app.extensions["dice_miner"].games.close()
    log = Game.load(app.config["DATA_DIR"] / f"web-{game['id']}.dmlog")
    assert rerun(log.batches()) is None  # every roll re-derived from the revealed secret


def test_a_person_cannot_send_the_tables_commands(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    game = client.post("/api/games", json={"players": ANN_AND_BOT}).get_json()
    token = next(s["token"] for s in game["seats"] if "token" in s)
    for command in (
        {"t": "close", "reason": "I give up"},
        {"t": "reveal", "secret": "ab" * 32},
        {"t": "takeover", "taken": 1, "bot": "random", "reason": "x"},
        {"t": "return", "returned": 1},
    ):
        refused = client.post(
            f"/api/games/{game['id']}/commands",
            json={"command": command},
            headers={"X-Seat-Token": token},
        )
        assert refused.status_code == 422, refused.get_json()
        assert refused.get_json()["error"]["code"] == "not_a_move"
    app.extensions["dice_miner"].games.close()


def test_a_chosen_seed_is_shown_with_who_chose_it(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    game = client.post(
        "/api/games", json={"players": ANN_AND_BOT, "seed": 42, "seed_chosen_by": "Ann"}
    ).get_json()
    assert game["dice"] == {"kind": "chosen", "seed": 42, "chosen_by": "Ann"}
    events = client.get(f"/api/games/{game['id']}/events").get_json()["events"]
    assert any("chosen by Ann" in e["text"] for e in events)
    default = client.post("/api/games", json={"players": ANN_AND_BOT, "seed": 7}).get_json()
    assert default["dice"]["chosen_by"] == "the game's creator"
    app.extensions["dice_miner"].games.close()
