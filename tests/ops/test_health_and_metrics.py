"""What an operator asks a server: ``/healthz`` (alive), ``/readyz`` (its store answers) and
``/metrics`` (Prometheus text), in one process; ``tests/ops/test_serve_ops.py`` asks real
gunicorn servers over PostgreSQL."""

from __future__ import annotations

import os

from core.errors import StoreUnavailable
from core.store import MemoryStore
from tests.support.metrics import samples
from tests.support.web_support import make_app


class AwayStore(MemoryStore):
    """A store whose ping fails, counting every call anything makes to it."""

    def __init__(self) -> None:
        super().__init__()
        self.pings = 0
        self.jobs: dict[str, int] | None = None

    def ping(self) -> None:
        self.pings += 1
        raise StoreUnavailable("memory: the database cannot be reached (stopped); try later")

    def games(self):
        raise AssertionError("a health check read the catalogue")


class JobStore(MemoryStore):
    """A store that keeps jobs (``job_counts``), as the PostgreSQL store does."""

    def __init__(self, counts: dict[str, int] | Exception) -> None:
        super().__init__()
        self.counts = counts

    def job_counts(self) -> dict[str, int]:
        if isinstance(self.counts, Exception):
            raise self.counts
        return self.counts


def test_healthz_answers_without_touching_the_store_and_readyz_says_why_it_is_not_ready(tmp_path):
    store = AwayStore()
    client = make_app(tmp_path, STORE=store, RESUME_GAMES=False).test_client()
    alive = client.get("/healthz")
    assert alive.status_code == 200 and alive.json == {"status": "ok"}
    assert store.pings == 0
    ready = client.get("/readyz")
    assert ready.status_code == 503 and store.pings == 1
    assert ready.json["status"] == "unavailable" and ready.json["code"] == "store_unavailable"
    assert "cannot be reached" in ready.json["reason"] and ready.headers["Retry-After"]


def test_readyz_is_200_while_the_file_store_can_be_written_and_503_once_it_cannot(tmp_path):
    client = make_app(tmp_path, DATA_DIR=tmp_path / "disk" / "data").test_client()
    ready = client.get("/readyz")  # the folder is made by the first game
    assert ready.status_code == 200 and ready.json["store"].startswith("file:")
    (tmp_path / "disk").write_text("")  # a file where the folder would be made
    broken = client.get("/readyz")
    assert broken.status_code == 503 and "is not a folder" in broken.json["reason"]
    (tmp_path / "disk").unlink()
    (tmp_path / "disk").mkdir(mode=0o500)  # read-only
    try:
        refused = client.get("/readyz")
        if os.geteuid() != 0:  # root writes anywhere: os.access says so
            assert refused.status_code == 503 and "cannot be written" in refused.json["reason"]
    finally:
        (tmp_path / "disk").chmod(0o700)
    assert client.get("/readyz").status_code == 200


def test_commands_are_counted_by_their_answer_and_timed(tmp_path):
    client = make_app(tmp_path).test_client()
    before = samples(client.get("/metrics").text)
    players = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]
    game = client.post("/api/games", json={"players": players}).json
    choices = client.get(f"/api/games/{game['id']}/choices").json
    token = game["seats"][choices["seat"]]["token"]
    move = {"command": choices["heroes"][0]["command"]}
    url = f"/api/games/{game['id']}/commands"
    assert client.post(url, json=move, headers={"X-Seat-Token": token}).status_code == 200
    assert client.post(url, json=move, headers={"X-Seat-Token": "x" * 24}).status_code == 403
    scrape = client.get("/metrics")
    assert scrape.status_code == 200 and scrape.mimetype == "text/plain"
    after = samples(scrape.text)

    def grew(name: str) -> float:
        return after.get(name, 0.0) - before.get(name, 0.0)

    assert grew('dice_miner_commands_total{status="200"}') == 1
    assert grew('dice_miner_commands_total{status="403"}') == 1
    assert grew("dice_miner_command_seconds_count") == 2
    assert grew("dice_miner_command_seconds_sum") > 0
    assert after["dice_miner_tables_live"] == 1  # this app's lobby, read when scraped
    assert "dice_miner_jobs" not in scrape.text  # the file store keeps no jobs


def test_store_failures_answered_are_counted(tmp_path):
    class Failing(MemoryStore):
        def create(self, *args, **kwargs):
            raise StoreUnavailable("memory: the database cannot be reached; try again later")

    client = make_app(tmp_path, STORE=Failing(), RESUME_GAMES=False).test_client()
    before = samples(client.get("/metrics").text)
    players = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]
    assert client.post("/api/games", json={"players": players}).status_code == 503
    after = samples(client.get("/metrics").text)
    key = 'dice_miner_store_errors_total{code="store_unavailable"}'
    assert after[key] - before.get(key, 0.0) == 1


def test_jobs_are_read_from_the_store_when_scraped_and_left_out_while_it_is_away(tmp_path):
    store = JobStore({"queued": 3, "claimed": 2})
    client = make_app(tmp_path, STORE=store).test_client()
    found = samples(client.get("/metrics").text)
    assert found['dice_miner_jobs{state="queued"}'] == 3
    assert found['dice_miner_jobs{state="claimed"}'] == 2
    store.counts = StoreUnavailable("the database cannot be reached")
    scrape = client.get("/metrics")
    assert scrape.status_code == 200 and "dice_miner_jobs{" not in scrape.text


def test_an_open_event_stream_is_counted_until_it_ends(tmp_path):
    client = make_app(tmp_path, SSE_MAX_SECONDS=30.0).test_client()
    players = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]
    game = client.post("/api/games", json={"players": players}).json
    before = samples(client.get("/metrics").text)["dice_miner_streams_open"]
    response = client.get(f"/api/games/{game['id']}/stream", buffered=False)
    chunks = response.response
    assert next(iter(chunks)).startswith(b"retry:")
    assert samples(client.get("/metrics").text)["dice_miner_streams_open"] == before + 1
    response.close()  # the client goes: the server's generator is closed
    assert samples(client.get("/metrics").text)["dice_miner_streams_open"] == before
