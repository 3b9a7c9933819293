"""The analysis's time is measured, not guessed: before it starts the page is told the
positions to weigh at this server's measured rate (a default until it has timed one),
while it runs the seconds left at its own pace."""

from __future__ import annotations

import time

import pytest

from core.analysis.history import history
from core.analysis.report import tasks
from core.store import load_batches
from frontends.web.analysis import EXTENSION, SECONDS_PER_POSITION
from tests.support.web_support import make_app, record_game

SAMPLES = 4


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path, ANALYSIS_SAMPLES=SAMPLES)
    for name, commands in (("first.dmlog", 14), ("second.dmlog", 30)):
        record_game(app.config["REPLAYS_DIR"] / name, names=("Ann", "Bo"), commands=commands)
    yield app
    app.extensions["dice_miner"].games.close()


def positions(app, name: str) -> int:
    _, batches = load_batches(app.config["REPLAYS_DIR"] / name)
    return len(tasks(history(batches)))


def test_the_estimate_is_the_positions_at_the_rate_measured_here(app):
    client = app.test_client()
    count = positions(app, "first.dmlog")
    before = client.get("/api/replays/first.dmlog/analysis").get_json()
    assert before["state"] == "none"
    assert before["estimate_s"] == max(1, round(count * SECONDS_PER_POSITION))
    started = time.monotonic()
    running = client.post("/api/replays/first.dmlog/analysis").get_json()
    seen = [running]
    while seen[-1]["state"] == "running":
        time.sleep(0.05)
        seen.append(client.get("/api/replays/first.dmlog/analysis").get_json())
    took = time.monotonic() - started
    assert seen[-1]["state"] == "done" and "seconds_left" not in seen[-1]
    lefts = [s["seconds_left"] for s in seen if s["state"] == "running" and s["total"]]
    assert lefts and all(left >= 0 for left in lefts)
    rate = app.extensions[EXTENSION].rates["multi"]
    assert 0 < rate <= took / count + 0.05  # what a position took here, timed
    second = client.get("/api/replays/second.dmlog/analysis").get_json()
    assert second["estimate_s"] == max(1, round(positions(app, "second.dmlog") * rate))
