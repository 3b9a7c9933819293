"""What the reviews asked of a live game's API: which seats may undo now, a move refused
when its board is stale, the log to download, and a finished game in the replay viewer."""

from __future__ import annotations

from core.events.codec import command_to_dict
from core.game import Game
from core.projections.state import EXCAVATION
from tests.support.web_support import live_game, wait_until

ANN_AND_BOT = [{"name": "Ann", "bot": None}, {"name": "Brok", "bot": "greedy"}]
TWO_PEOPLE = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]


def start(client, players, **extra) -> tuple[dict, dict[int, str]]:
    game = client.post("/api/games", json={"players": players, **extra}).get_json()
    return game, {s["seat"]: s["token"] for s in game["seats"] if "token" in s}


def move(client, app, game_id: str, token: str, **body):
    live = live_game(app, game_id)
    command = command_to_dict(live.table.game.legal()[0])
    return client.post(
        f"/api/games/{game_id}/commands",
        json={"command": command, **body},
        headers={"X-Seat-Token": token},
    )


def can_undo(client, game_id: str) -> list[bool]:
    choices = client.get(f"/api/games/{game_id}/choices").get_json()["can_undo"]
    summary = client.get(f"/api/games/{game_id}").get_json()
    assert [seat["can_undo"] for seat in summary["seats"]] == choices
    return choices


def test_the_server_says_which_seats_may_undo_now(client, app):
    game, tokens = start(client, TWO_PEOPLE, seed=5)
    live = live_game(app, game["id"])
    assert can_undo(client, game["id"]) == [False, False]  # no one has moved
    first = live.state.to_act()
    assert move(client, app, game["id"], tokens[first]).status_code == 200
    expected = [False, False]
    expected[first] = True
    assert can_undo(client, game["id"]) == expected
    second = live.state.to_act()
    if second != first:  # another person has moved since: the first may no longer undo
        assert move(client, app, game["id"], tokens[second]).status_code == 200
        # the second hero chosen began the round: its mountain was rolled, and what the
        # dice have shown is never taken back between people
        assert live.state.phase == EXCAVATION
        assert can_undo(client, game["id"]) == [False, False]
        answer = client.post(
            f"/api/games/{game['id']}/commands",
            json={"command": {"t": "undo"}},
            headers={"X-Seat-Token": tokens[second]},
        )
        assert answer.status_code == 422
        assert answer.get_json()["error"]["code"] == "dice_shown"
        assert "practice" not in answer.get_json()["error"]["message"]  # not between people


def test_no_one_may_undo_once_the_secret_seed_is_out(client, app):
    game, tokens = start(client, ANN_AND_BOT)
    live = live_game(app, game["id"])
    while not live.state.is_over:
        assert wait_until(lambda: live.state.to_act() == 0 or live.state.is_over, timeout=20)
        if not live.state.is_over:
            assert move(client, app, game["id"], tokens[0]).status_code == 200
    assert wait_until(lambda: live.state.facts.revealed, timeout=10)
    assert can_undo(client, game["id"]) == [False, False]
    refused = client.post(
        f"/api/games/{game['id']}/commands",
        json={"command": {"t": "undo"}},
        headers={"X-Seat-Token": tokens[0]},
    )
    assert refused.status_code == 422  # as the page was told: it does not offer it


def test_a_move_decided_on_a_stale_board_is_refused_and_changes_nothing(client, app):
    game, tokens = start(client, TWO_PEOPLE, seed=5)
    live = live_game(app, game["id"])
    seat = live.state.to_act()
    seen = live.seq
    assert move(client, app, game["id"], tokens[seat], seq=seen).status_code == 200
    now = live.seq
    stale = move(client, app, game["id"], tokens[live.state.to_act()], seq=seen)
    assert stale.status_code == 409
    error = stale.get_json()["error"]
    assert error["code"] == "stale_state" and error["seq"] == now and live.seq == now
    for bad in (-1, "3", True, 1.5):
        refused = move(client, app, game["id"], tokens[live.state.to_act()], seq=bad)
        assert refused.status_code == 400, bad
    assert live.seq == now


def test_a_games_log_downloads_as_its_file(client, app):
    game, _ = start(client, ANN_AND_BOT, seed=7)
    answer = client.get(f"/api/games/{game['id']}/log")
    assert answer.status_code == 200
    assert answer.headers["Content-Disposition"] == f'attachment; filename="web-{game["id"]}.dmlog"'
    path = app.config["DATA_DIR"] / f"web-{game['id']}.dmlog"
    assert answer.get_data() == path.read_bytes()
    assert Game.load(path).state.names == ("Ann", "Brok (greedy)")


def test_a_finished_game_opens_in_the_replay_viewer_and_not_before(client, app):
    bots = [{"name": None, "bot": "random"}, {"name": None, "bot": "random"}]
    game, _ = start(client, bots)
    name = f"web-{game['id']}.dmlog"
    live = live_game(app, game["id"])
    if not live.state.is_over:
        early = client.get(f"/api/replays/{name}")
        assert early.status_code == 404 and early.get_json()["error"]["code"] == "game_in_play"
    assert wait_until(lambda: live.state.facts.revealed, timeout=30)
    summary = client.get(f"/api/replays/{name}").get_json()
    assert summary["events"] == live.seq and summary["over"]
    assert summary["source"] == "game"
    assert client.get(f"/replay/{name}").status_code == 200
    board = client.get(f"/api/replays/{name}/state?at={live.seq}").get_json()
    assert board == client.get(f"/api/games/{game['id']}/state").get_json()
    for other in ("web-nothere.dmlog", "web-../x.dmlog", f"web-{game['id']}.dmlog.x"):
        assert client.get(f"/api/replays/{other}").status_code == 404
