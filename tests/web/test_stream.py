"""The live event stream (SSE): ids are seqs, resuming skips nothing, it stays bounded."""

from __future__ import annotations

import json
import threading
import time

import pytest

from core.events.codec import command_to_dict
from core.rules.legal import legal_commands
from tests.support.web_support import live_game, make_app, wait_until

PEOPLE = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]
BOTS = [{"name": None, "bot": "random"}, {"name": None, "bot": "random"}]


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path, SSE_HEARTBEAT=0.1, SSE_MAX_SECONDS=1.0)
    yield app
    app.extensions["dice_miner"].games.close()


def start(client, players) -> dict:
    answer = client.post("/api/games", json={"players": players, "seed": 9})
    assert answer.status_code == 201
    return answer.get_json()


def read_stream(client, path: str, headers=None) -> list[dict]:
    """Every message of a stream until the server ends it, each a dict of its fields."""
    response = client.get(path, headers=headers or {}, buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    text = b"".join(response.response).decode()
    response.close()
    messages = []
    for block in text.split("\n\n"):
        if not block.strip():
            continue
        message: dict = {}
        for line in block.split("\n"):
            if line.startswith(":"):
                message["comment"] = line[1:].strip()
            else:
                key, _, value = line.partition(": ")
                message[key] = value
        messages.append(message)
    return messages


def steps(messages) -> list[dict]:
    return [m for m in messages if m.get("event") == "step"]


def test_a_finished_game_streams_every_event_with_its_seq_as_id_then_ends(client, app):
    game = start(client, BOTS)
    live = live_game(app, game["id"])
    assert wait_until(lambda: live.state.is_over, timeout=30)
    messages = read_stream(client, f"/api/games/{game['id']}/stream")
    assert messages[0]["retry"].isdigit()
    sent = steps(messages)
    assert [int(m["id"]) for m in sent] == list(range(live.seq))
    datas = [json.loads(m["data"]) for m in sent]
    assert all(d["event"]["seq"] == int(m["id"]) for d, m in zip(datas, sent, strict=True))
    assert datas[-1]["state"]["phase"] == "over"  # the last event carries the board
    assert all(d["state"] is None for d in datas[:-1])
    assert datas[-1]["totals"] == list(live.state.totals())
    assert messages[-1]["event"] == "end"


def test_a_reconnecting_browser_resumes_after_its_last_event_id(client, app):
    game = start(client, BOTS)
    live = live_game(app, game["id"])
    assert wait_until(lambda: live.state.is_over, timeout=30)
    resumed = steps(
        read_stream(client, f"/api/games/{game['id']}/stream", headers={"Last-Event-ID": "41"})
    )
    assert [int(m["id"]) for m in resumed] == list(range(42, live.seq))
    from_query = steps(read_stream(client, f"/api/games/{game['id']}/stream?from=40"))
    assert int(from_query[0]["id"]) == 40
    both = steps(
        read_stream(
            client, f"/api/games/{game['id']}/stream?from=3", headers={"Last-Event-ID": "50"}
        )
    )
    assert int(both[0]["id"]) == 51  # the header wins: that is what a reconnect sends


def test_a_bad_resume_point_is_a_400(client, app):
    game = start(client, PEOPLE)
    answer = client.get(f"/api/games/{game['id']}/stream", headers={"Last-Event-ID": "x"})
    assert answer.status_code == 400 and answer.get_json()["error"]["code"] == "bad_argument"
    answer = client.get(f"/api/games/{game['id']}/stream?from=9999")
    assert answer.status_code == 400


def test_an_idle_stream_sends_keep_alives_and_ends_by_itself(client, app):
    game = start(client, PEOPLE)
    started = time.monotonic()
    messages = read_stream(client, f"/api/games/{game['id']}/stream?from={game['seq']}")
    assert time.monotonic() - started < 5
    assert steps(messages) == []
    assert any(m.get("comment") == "keep-alive" for m in messages)


def test_a_watcher_sees_a_move_as_it_is_made(client, app):
    game = start(client, PEOPLE)
    live = live_game(app, game["id"])
    key = {s["seat"]: s["token"] for s in game["seats"]}[live.state.to_act()]
    command = command_to_dict(next(legal_commands(live.state)))

    def play_soon():
        time.sleep(0.2)
        answer = app.test_client().post(
            f"/api/games/{game['id']}/commands",
            json={"command": command},
            headers={"X-Seat-Token": key},
        )
        assert answer.status_code == 200

    mover = threading.Thread(target=play_soon)
    mover.start()
    messages = read_stream(client, f"/api/games/{game['id']}/stream?from={game['seq']}")
    mover.join()
    sent = steps(messages)
    assert sent and int(sent[0]["id"]) == game["seq"]
    data = json.loads(sent[-1]["data"])
    assert data["event"]["type"] == "HeroChosen"
    assert data["state"]["seq"] == live.seq


def test_closing_the_server_ends_open_streams(client, app):
    game = start(client, PEOPLE)
    threading.Timer(0.2, app.extensions["dice_miner"].games.close).start()
    started = time.monotonic()
    read_stream(client, f"/api/games/{game['id']}/stream?from={game['seq']}")
    assert time.monotonic() - started < 0.9  # before SSE_MAX_SECONDS: woken by the close


# -- what comes with the events: the board's marks, the chart's points, the dice -----------------


def test_each_event_comes_with_the_marks_the_pages_get_beside_its_record(client, app):
    game = start(client, BOTS)
    live = live_game(app, game["id"])
    assert wait_until(lambda: live.state.is_over, timeout=30)
    sent = [
        json.loads(m["data"]) for m in steps(read_stream(client, f"/api/games/{game['id']}/stream"))
    ]
    marks = client.get(f"/api/games/{game['id']}/events").get_json()["marks"]
    assert [d["marks"] for d in sent] == marks
    assert sum(m is not None for m in marks) > len(marks) // 2
    assert all("marks" not in d["event"] for d in sent)  # the record stays the log's


def test_each_burst_ends_with_the_charts_points_and_the_dice_revealed(client, app):
    game = client.post("/api/games", json={"players": BOTS}).get_json()  # a secret seed
    assert game["dice"]["kind"] == "secret"
    live = live_game(app, game["id"])
    assert wait_until(lambda: live.state.is_over and live.state.facts.revealed, timeout=30)
    datas = [
        json.loads(m["data"]) for m in steps(read_stream(client, f"/api/games/{game['id']}/stream"))
    ]
    last = datas[-1]
    summary = client.get(f"/api/games/{game['id']}").get_json()
    assert last["scores"] == summary["scores"] == json.loads(json.dumps(live.scores.data()))
    assert last["scores"]["points"][-1][1] == last["state"]["table"]["score_now"]
    assert len(last["scores"]["rounds"]) >= 3
    secret = live.state.facts.revealed
    assert last["dice"] == {
        "kind": "revealed",
        "commitment": game["dice"]["commitment"],
        "secret": secret,
    }
    assert all(d["scores"] is None and d["dice"] is None for d in datas[:-1])

    # a spectator resuming after event 40 holds the points up to position 41: the rest comes
    headers = {"Last-Event-ID": "40"}
    resumed = steps(read_stream(client, f"/api/games/{game['id']}/stream", headers=headers))
    scores = json.loads(resumed[-1]["data"])["scores"]
    assert scores["after"] == 41
    assert scores["points"] == [p for p in summary["scores"]["points"] if p[0] > 41]
    assert scores["rounds"] == summary["scores"]["rounds"]
