"""A game's analysis through the web API: started on demand, run in the background while
the server answers, its progress told, the same document as ``dice-miner analyse``, kept
beside a log of the replays folder (read back by a new server, and by the CLI) and in
memory for an upload."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from core.analysis import analyse_log
from core.analysis.cache import cache_path
from core.analysis.judge import Options
from frontends.web.analysis import for_the_page
from tests.support.web_support import make_app, record_game

SAMPLES = 4  # a quick analysis: the shape and the flow are what is tested here


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path, ANALYSIS_SAMPLES=SAMPLES)
    record_game(app.config["REPLAYS_DIR"] / "short.dmlog", names=("Ann", "Bo"), commands=14)
    yield app
    app.extensions["dice_miner"].games.close()


def until_done(client, name: str, timeout: float = 120.0) -> list[dict]:
    """Every status the page would have seen, polling, up to the one that is done."""
    seen, end = [], time.monotonic() + timeout
    while time.monotonic() < end:
        status = client.get(f"/api/replays/{name}/analysis").get_json()
        seen.append(status)
        if status["state"] in ("done", "failed"):
            return seen
        time.sleep(0.05)
    raise AssertionError(f"the analysis never ended: {seen[-1]}")


def test_an_analysis_runs_in_the_background_and_is_the_clis_document(app, tmp_path):
    client = app.test_client()
    name = "short.dmlog"
    assert client.get(f"/api/replays/{name}/analysis").get_json()["state"] == "none"
    started = client.post(f"/api/replays/{name}/analysis")
    assert started.status_code == 202 and started.get_json()["state"] == "running"
    assert client.post(f"/api/replays/{name}/analysis").get_json()["state"] in ("running", "done")
    seen = until_done(client, name)
    done = seen[-1]
    assert done["state"] == "done" and done["done"] == done["total"] > 0
    counts = [s["done"] for s in seen]
    assert counts == sorted(counts)  # progress only grows

    log = app.config["REPLAYS_DIR"] / name
    cli = analyse_log(str(log), SAMPLES, keep=False).document
    assert done["analysis"] == for_the_page(cli)
    for decision in done["analysis"]["decisions"]:  # each move also as the board draws it
        for move in (decision["played"], decision["best"], *decision["candidates"]):
            assert move["move"]["seat"] == decision["seat"]
            assert move["move"]["t"] == move["command"].split()[0], move

    # kept beside the log, as the CLI keeps it: a new server (and the CLI) read it back
    sha = app.extensions["dice_miner"].library.get(name).sha256
    assert Path(cache_path(str(log), sha, Options(SAMPLES))).exists()
    again = make_app(tmp_path, ANALYSIS_SAMPLES=SAMPLES).test_client()
    answer = again.get(f"/api/replays/{name}/analysis").get_json()
    assert answer["state"] == "done" and answer["analysis"] == done["analysis"]
    assert analyse_log(str(log), SAMPLES).cached


def test_an_uploads_analysis_is_kept_in_memory_only(app):
    client = app.test_client()
    data = (app.config["REPLAYS_DIR"] / "short.dmlog").read_bytes()
    name = client.post("/api/replays", data=data).get_json()["name"]
    before = set(app.config["REPLAYS_DIR"].iterdir())
    client.post(f"/api/replays/{name}/analysis")
    assert until_done(client, name)[-1]["state"] == "done"
    assert set(app.config["REPLAYS_DIR"].iterdir()) == before


def test_the_server_answers_while_an_analysis_runs(app):
    client = app.test_client()
    client.post("/api/replays/short.dmlog/analysis")
    start = time.monotonic()
    while client.get("/api/replays/short.dmlog/analysis").get_json()["state"] == "running":
        answered = time.monotonic()
        assert client.get("/api/replays/short.dmlog/boards").status_code == 200
        assert time.monotonic() - answered < 2.0
        assert time.monotonic() - start < 120
        time.sleep(0.05)


def test_an_unknown_replay_has_no_analysis(app):
    client = app.test_client()
    assert client.get("/api/replays/nothing.dmlog/analysis").status_code == 404
    assert client.post("/api/replays/nothing.dmlog/analysis").status_code == 404
