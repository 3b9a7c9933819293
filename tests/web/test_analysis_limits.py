"""Analyses are bounded: one client may have a few waiting or running (429 beyond), and
so many in all (503 beyond). Over PostgreSQL those limits are the site's, and an
analysis asked for through one server is run once, by a worker that runs analyses,
and read back through any server."""

from __future__ import annotations

import time

import pytest

from core.analysis import analyse_log
from core.store.postgres import PostgresStore
from frontends.web.analysis import for_the_page
from tests.support.web_support import make_app, record_game

SAMPLES = 16


def start(client, name: str, address: str):
    return client.post(f"/api/replays/{name}/analysis", environ_base={"REMOTE_ADDR": address})


def until_done(client, name: str, timeout: float = 180.0) -> dict:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        status = client.get(f"/api/replays/{name}/analysis").get_json()
        if status["state"] in ("done", "failed"):
            return status
        time.sleep(0.1)
    raise AssertionError(f"the analysis never ended: {status}")


def replays(app, count: int) -> list[str]:
    names = []
    for n in range(count):
        name = f"game-{n}.dmlog"
        record_game(app.config["REPLAYS_DIR"] / name, names=("Ann", "Bo"), seed=n, commands=30)
        names.append(name)
    return names


def test_one_client_and_everyone_are_bounded_on_one_server(tmp_path):
    app = make_app(tmp_path, ANALYSIS_SAMPLES=SAMPLES, ANALYSES_PER_CLIENT=1, ANALYSES_QUEUED=2)
    first, second, third = replays(app, 3)
    client = app.test_client()
    try:
        assert start(client, first, "10.0.0.1").status_code == 202
        refused = start(client, second, "10.0.0.1")
        assert refused.status_code == 429 and "Retry-After" in refused.headers
        assert refused.get_json()["error"]["code"] == "too_many_analyses"
        assert start(client, second, "10.0.0.2").status_code == 202
        busy = start(client, third, "10.0.0.3")  # two wait or run: the server's limit
        assert busy.status_code == 503 and busy.get_json()["error"]["code"] == "analyses_busy"
        assert start(client, first, "10.0.0.9").status_code in (200, 202)  # asked already
        assert until_done(client, first)["state"] == "done"
        assert until_done(client, second)["state"] == "done"
        assert start(client, third, "10.0.0.1").status_code == 202  # room again
        assert until_done(client, third)["state"] == "done"
    finally:
        app.extensions["dice_miner"].games.close()


@pytest.mark.usefixtures("postgres_server")
def test_over_postgresql_the_site_queues_each_analysis_once(postgres_server, tmp_path):
    url = postgres_server.fresh_schema()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    quiet = make_app(
        tmp_path / "a",
        STORE=PostgresStore(url),
        ANALYSE_HERE=False,  # a server that only queues: another runs them
        ANALYSIS_SAMPLES=SAMPLES,
        ANALYSES_PER_CLIENT=1,
        ANALYSES_QUEUED=3,
    )
    working = make_app(
        tmp_path / "b",
        STORE=PostgresStore(url),
        REPLAYS_DIR=quiet.config["REPLAYS_DIR"],
        ANALYSIS_SAMPLES=SAMPLES,
        ANALYSES_PER_CLIENT=1,
        ANALYSES_QUEUED=3,
    )
    first, second = replays(quiet, 2)
    a, b = quiet.test_client(), working.test_client()
    try:
        queued = start(a, first, "10.0.0.1")
        assert queued.status_code == 202
        assert queued.get_json()["state"] in ("queued", "running")
        # the client's limit is the site's: the other server refuses it too
        assert start(b, second, "10.0.0.1").status_code == 429
        done = until_done(a, first)  # run by the working server, read through the quiet one
        assert done["state"] == "done"
        log = quiet.config["REPLAYS_DIR"] / first
        expected = for_the_page(analyse_log(str(log), SAMPLES, keep=False).document)
        assert done["analysis"] == expected
        assert until_done(b, first)["analysis"] == expected
        assert start(b, first, "10.0.0.7").status_code == 200  # done: never run twice
        assert start(b, second, "10.0.0.1").status_code == 202  # its first is done: room
        assert until_done(a, second)["state"] == "done"
    finally:
        for app in (quiet, working):
            app.extensions["dice_miner"].games.close()
            app.extensions["dice_miner"].store.close()
