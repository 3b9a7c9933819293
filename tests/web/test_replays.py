"""The replay API and pages, through Flask's test client: listing, seeking, uploads, errors."""

from __future__ import annotations

import io
import json

import pytest

from core.commands import EndSolo
from core.game import Game
from core.projections.timeline import replay
from core.read.views import state_view
from core.store import load_batches
from frontends.web.replays import SNAPSHOT_EVERY, ReplayLibrary
from tests.support.web_support import make_app, record_game


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    """A finished 4-player log and a 2-player log with undos, recorded once for the module."""
    folder = tmp_path_factory.mktemp("logs")
    record_game(folder / "four.dmlog")
    record_game(folder / "undos.dmlog", names=("Ann", "Bo"), seed=3, bot="random", undo_every=5)
    return folder


@pytest.fixture
def app(tmp_path, logs):
    app = make_app(tmp_path)
    replays = app.config["REPLAYS_DIR"]
    for name in ("four.dmlog", "undos.dmlog"):
        (replays / name).write_bytes((logs / name).read_bytes())
    (replays / "notes.txt").write_text("not a log")
    data = bytearray((logs / "four.dmlog").read_bytes())
    data[len(data) // 2] ^= 0xFF
    (replays / "broken.dmlog").write_bytes(bytes(data))
    return app


def error_of(response, status: int) -> dict:
    """The JSON error of a response that must have ``status``."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.is_json
    return response.get_json()["error"]


# -- listing and reading ----------------------------------------------------------------


def test_listing_names_the_logs_with_their_players_and_reports_damage(client):
    replays = {r["name"]: r for r in client.get("/api/replays").get_json()["replays"]}
    assert set(replays) == {"four.dmlog", "undos.dmlog", "broken.dmlog"}  # no .txt
    assert replays["four.dmlog"]["players"] == ["Ada", "Brok", "Cira", "Dain"]
    assert replays["four.dmlog"]["over"] is True
    assert "damaged at byte" in replays["broken.dmlog"]["error"]
    assert replays["broken.dmlog"]["error"].startswith("broken.dmlog: damaged at byte")


def test_summary_has_the_length_players_and_the_totals_through_the_game(client, logs):
    summary = client.get("/api/replays/four.dmlog").get_json()
    _, batches = load_batches(logs / "four.dmlog")
    final = replay(batches).state
    assert summary["events"] == batches[-1].end
    assert summary["players"] == list(final.names)
    assert summary["winners"] == [final.names[s] for s in final.winners]
    points = summary["scores"]["points"]
    assert points[-1][1] == list(final.totals())
    assert len(summary["scores"]["rounds"]) >= 3  # three rounds scored (plus any tie-break)
    assert [p for p, _ in points] == sorted(p for p, _ in points)


def test_events_come_in_words_from_any_seq(client, logs):
    total = client.get("/api/replays/four.dmlog").get_json()["events"]
    whole = client.get("/api/replays/four.dmlog/events").get_json()
    assert [e["seq"] for e in whole["events"]] == list(range(total))
    assert whole["events"][0]["type"] == "GameStarted"
    assert all(isinstance(e["text"], str) and e["text"] for e in whole["events"])
    page = client.get("/api/replays/four.dmlog/events?from=10&limit=5").get_json()
    assert [e["seq"] for e in page["events"]] == [10, 11, 12, 13, 14]


@pytest.mark.parametrize("name", ["four.dmlog", "undos.dmlog"])
def test_state_at_every_position_is_the_fold_of_the_log(client, logs, name):
    _, batches = load_batches(logs / name)
    total = batches[-1].end
    for at in sorted({1, 2, SNAPSHOT_EVERY, SNAPSHOT_EVERY + 1, total // 2, total - 1, total}):
        body = client.get(f"/api/replays/{name}/state?at={at}").get_json()
        expected = json.loads(json.dumps(state_view(replay(batches, upto=at).state, at)))
        table = body.pop("table")
        assert body == expected
        assert table["to_act_seat"] == replay(batches, upto=at).state.to_act()
    assert client.get(f"/api/replays/{name}/state").get_json()["seq"] == total


def test_snapshot_seeking_agrees_with_folding_from_the_start_everywhere(logs, tmp_path):
    """Seeking uses snapshots; at every position (undos included) it equals a full fold."""
    folder = tmp_path / "r"
    folder.mkdir()
    (folder / "undos.dmlog").write_bytes((logs / "undos.dmlog").read_bytes())
    loaded = ReplayLibrary(folder).get("undos.dmlog")
    assert any(r["type"] == "CommandUndone" for r in loaded.records)
    assert any(r["undone"] for r in loaded.records)
    for at in range(1, loaded.total + 1):
        assert loaded.state_at(at) == replay(loaded.batches, upto=at).state, at


def test_a_file_is_reread_when_it_changes(app, client, logs):
    assert client.get("/api/replays/four.dmlog").get_json()["players"][0] == "Ada"
    (app.config["REPLAYS_DIR"] / "four.dmlog").write_bytes((logs / "undos.dmlog").read_bytes())
    assert client.get("/api/replays/four.dmlog").get_json()["players"] == ["Ann", "Bo"]


# -- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/api/replays/nothing.dmlog",
        "/api/replays/notes.txt",
        "/api/replays/..%2Fdata%2Fx.dmlog",
        "/api/replays/%2E%2E/state",
        "/api/replays/upload-0000000000000000",
    ],
)
def test_names_outside_the_listing_are_unknown(client, path):
    assert error_of(client.get(path), 404)["code"] in ("unknown_replay", "not_found")


def test_traversal_cannot_reach_a_log_outside_the_folder(app, client, logs):
    outside = app.config["REPLAYS_DIR"].parent / "secret.dmlog"
    outside.write_bytes((logs / "four.dmlog").read_bytes())
    for path in ("/api/replays/../secret.dmlog", "/api/replays/..%2Fsecret.dmlog"):
        assert client.get(path).status_code == 404


def test_a_damaged_log_in_the_folder_is_a_json_error_with_its_offset(client):
    error = error_of(client.get("/api/replays/broken.dmlog"), 422)
    assert error["code"] == "log_damaged"
    assert isinstance(error["offset"], int) and error["offset"] > 0
    assert error["record"] >= 1
    assert error["message"].startswith("broken.dmlog: damaged at byte"), error  # no server path


@pytest.mark.parametrize("query", ["at=0", "at=100000", "at=abc", "at=-1"])
def test_a_bad_position_is_a_400(client, query):
    assert error_of(client.get(f"/api/replays/four.dmlog/state?{query}"), 400)["code"] == (
        "bad_argument"
    )


@pytest.mark.parametrize("query", ["from=-1", "from=x", "limit=0", "from=99999"])
def test_a_bad_event_range_is_a_400(client, query):
    assert error_of(client.get(f"/api/replays/four.dmlog/events?{query}"), 400)["code"] == (
        "bad_argument"
    )


def test_unknown_addresses_and_methods_are_json_errors(client):
    assert error_of(client.get("/api/nothing"), 404)["code"] == "not_found"
    assert error_of(client.delete("/api/replays"), 405)["code"] == "method_not_allowed"
    assert error_of(client.put("/api/replays/four.dmlog"), 405)["code"] == "method_not_allowed"


def test_an_unexpected_failure_is_a_500_and_the_server_goes_on(app, client, monkeypatch):
    library = app.extensions["dice_miner"].library

    def broken():
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(library, "listing", broken)
    error = error_of(client.get("/api/replays"), 500)
    assert error["code"] == "internal_error" and "fire" not in error["message"]
    monkeypatch.undo()
    assert client.get("/api/replays").status_code == 200


# -- uploads -----------------------------------------------------------------------------


def test_an_uploaded_log_is_viewed_like_a_listed_one(client, logs):
    data = (logs / "undos.dmlog").read_bytes()
    answer = client.post(
        "/api/replays",
        data={"log": (io.BytesIO(data), "mine.dmlog")},
        content_type="multipart/form-data",
    )
    assert answer.status_code == 201
    name = answer.get_json()["name"]
    assert name.startswith("upload-")
    assert client.get(f"/api/replays/{name}").get_json()["players"] == ["Ann", "Bo"]
    assert client.get(f"/api/replays/{name}/state?at=3").get_json()["seq"] == 3
    assert client.get(f"/replay/{name}").status_code == 200
    raw = client.post("/api/replays", data=data, content_type="application/octet-stream")
    assert raw.status_code == 201 and raw.get_json()["name"] == name  # the same bytes, one name


def test_a_damaged_upload_is_refused_with_the_damages_offset(client, logs):
    data = bytearray((logs / "four.dmlog").read_bytes())
    data[-40] ^= 0x55
    answer = client.post(
        "/api/replays",
        data={"log": (io.BytesIO(bytes(data)), "bad.dmlog")},
        content_type="multipart/form-data",
    )
    error = error_of(answer, 422)
    assert error["code"] in ("log_damaged", "log_torn")
    assert 0 < error["offset"] < len(data)
    assert "bad.dmlog" in error["message"]


@pytest.mark.parametrize("data", [b"hello, not a log", b"\x00" * 64])
def test_an_upload_that_is_no_log_is_refused(client, data):
    answer = client.post("/api/replays", data=data, content_type="application/octet-stream")
    assert error_of(answer, 422)["message"]


def test_an_empty_or_misnamed_upload_is_a_400(client):
    assert error_of(client.post("/api/replays"), 400)["code"] == "no_file"
    answer = client.post(
        "/api/replays",
        data={"file": (io.BytesIO(b"x"), "x.dmlog")},
        content_type="multipart/form-data",
    )
    assert error_of(answer, 400)["code"] == "no_file"


def test_an_oversize_upload_is_a_413_and_the_server_goes_on(tmp_path, logs):
    client = make_app(tmp_path, MAX_CONTENT_LENGTH=4096).test_client()
    answer = client.post(
        "/api/replays", data=b"x" * 10_000, content_type="application/octet-stream"
    )
    error = error_of(answer, 413)
    assert error["code"] == "too_large" and "4096" in error["message"]
    assert client.get("/api/replays").status_code == 200


# -- pages --------------------------------------------------------------------------------


def test_pages_load_their_own_scripts_only(client):
    for path in ("/", "/replay/four.dmlog"):
        page = client.get(path)
        assert page.status_code == 200
        html = page.get_data(as_text=True)
        assert 'type="module"' in html
        assert "http://" not in html and "https://" not in html  # nothing from elsewhere
        assert page.headers["Content-Security-Policy"].startswith("default-src 'self'")
    for asset in ("/static/js/viewer.js", "/static/js/game.js", "/static/css/app.css"):
        assert client.get(asset).status_code == 200


def test_an_unknown_replay_page_is_a_404_page(client):
    page = client.get("/replay/nothing.dmlog")
    assert page.status_code == 404
    assert "nothing.dmlog" in page.get_data(as_text=True)


def test_names_are_escaped_in_pages(app, client, tmp_path):
    names = ("<script>alert(1)</script>", "Bo")
    record_game(app.config["REPLAYS_DIR"] / "evil.dmlog", names=names, commands=6)
    html = client.get("/replay/evil.dmlog").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_a_solo_game_is_viewed_with_its_score(app, client):
    game = Game.new(["Sol"], 3, mode="solo", log=app.config["REPLAYS_DIR"] / "solo.dmlog")
    game.issue(EndSolo(0))
    game.close()
    summary = client.get("/api/replays/solo.dmlog").get_json()
    assert summary["mode"] == "solo" and summary["over"]
    state = client.get("/api/replays/solo.dmlog/state").get_json()
    assert state["phase"] == "over" and state["table"]["solo_score"]["rating"]
    assert client.get("/replay/solo.dmlog").status_code == 200
