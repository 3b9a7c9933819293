"""Commands safe to retry: a stale position answers 409 with where the game is, and a
request sent twice returns its first answer without a second move."""

from __future__ import annotations

from core.events.codec import command_to_dict
from tests.support.web_support import live_game, make_app

TWO_PEOPLE = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]


def two_people(tmp_path):
    """A new app with a game of two people: the app, its client, the game as started,
    its live game and the token of the seat to act."""
    app = make_app(tmp_path)
    client = app.test_client()
    game = client.post("/api/games", json={"players": TWO_PEOPLE}).get_json()
    live = live_game(app, game["id"])
    seat = live.state.to_act()
    token = next(s["token"] for s in game["seats"] if s["seat"] == seat)
    return app, client, game, live, token


def test_a_request_sent_twice_is_answered_twice_and_played_once(tmp_path):
    app, client, game, live, token = two_people(tmp_path)
    body = {
        "command": command_to_dict(live.table.game.legal()[0]),
        "seq": live.seq,
        "id": "a1b2c3-first-move",
    }
    url, headers = f"/api/games/{game['id']}/commands", {"X-Seat-Token": token}
    first = client.post(url, json=body, headers=headers)
    assert first.status_code == 200
    log = (app.config["DATA_DIR"] / f"web-{game['id']}.dmlog").read_bytes()
    again = client.post(url, json=body, headers=headers)  # the answer was lost: asked again
    assert again.status_code == 200
    assert again.get_json() == first.get_json()
    assert (app.config["DATA_DIR"] / f"web-{game['id']}.dmlog").read_bytes() == log
    app.extensions["dice_miner"].games.close()


def test_a_stale_position_is_a_409_naming_where_the_game_is(tmp_path):
    app, client, game, live, token = two_people(tmp_path)
    command = command_to_dict(live.table.game.legal()[0])
    url, headers = f"/api/games/{game['id']}/commands", {"X-Seat-Token": token}
    stale = client.post(url, json={"command": command, "seq": live.seq - 1}, headers=headers)
    assert stale.status_code == 409
    error = stale.get_json()["error"]
    assert error["code"] == "stale_state" and error["seq"] == live.seq
    for bad in ({"seq": -1}, {"seq": "3"}, {"id": ""}, {"id": "x" * 65}, {"id": "a b"}):
        refused = client.post(url, json={"command": command, **bad}, headers=headers)
        assert refused.status_code == 400, bad
    app.extensions["dice_miner"].games.close()


def test_an_undo_retried_after_a_restart_is_answered_and_played_once(tmp_path):
    """The file store keeps each request's id in its record: a server started again over
    the same folder answers the retried undo as before and undoes nothing more."""
    app, client, game, live, token = two_people(tmp_path)
    url, headers = f"/api/games/{game['id']}/commands", {"X-Seat-Token": token}
    move = {"command": command_to_dict(live.table.game.legal()[0]), "seq": live.seq}
    assert client.post(url, json=move, headers=headers).status_code == 200
    undo = {"command": {"t": "undo"}, "id": "undo-once-7f3a"}
    first = client.post(url, json=undo, headers=headers)
    assert first.status_code == 200
    log = app.config["DATA_DIR"] / f"web-{game['id']}.dmlog"
    kept = log.read_bytes()
    app.extensions["dice_miner"].games.close()

    again = make_app(tmp_path)  # the server started again: the answer was lost on the way
    retried = again.test_client().post(url, json=undo, headers=headers)
    assert retried.status_code == 200
    assert retried.get_json() == first.get_json()
    assert log.read_bytes() == kept, "nothing undone a second time"
    again.extensions["dice_miner"].games.close()
