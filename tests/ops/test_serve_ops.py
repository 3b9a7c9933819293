"""A real server of 2 gunicorn workers over PostgreSQL, as an operator watches it: ``/metrics``
adds up every worker's values (and forgets a dead worker's open streams), ``/readyz`` is
503 with the reason while the database is away and ``/healthz`` stays 200, and the
server's metrics folder is gone once it stops."""

from __future__ import annotations

import os
import signal
import threading
import urllib.request
from collections import Counter
from pathlib import Path

import pytest

from core.events.codec import command_to_dict
from core.game import Game
from core.store.postgres import PostgresStore
from tests.support.metrics import samples
from tests.support.serve_support import Server, call
from tests.support.web_support import wait_until

pytestmark = pytest.mark.usefixtures("postgres_server")


def scrape(server: Server) -> dict[str, float]:
    with urllib.request.urlopen(server.url + "/metrics", timeout=10) as answer:
        assert answer.headers["Content-Type"].startswith("text/plain")
        return samples(answer.read().decode())


def workers_of(server: Server) -> list[int]:
    pid = server.process.pid
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(child) for child in children]


def serve(database: str, tmp_path: Path) -> Server:
    return Server(
        "--store", database, "--workers", "2", "--replays", str(tmp_path),
        "--idle-close", "0", "--quiet-seat", "0", "--access-log", "off",
        env={"TMPDIR": str(tmp_path)},
    )  # fmt: skip


def hold_stream(server: Server, game_id: str) -> threading.Event:
    """Open the game's event stream and keep it open until the event is set."""
    opened, done = threading.Event(), threading.Event()

    def follow() -> None:
        try:
            with urllib.request.urlopen(f"{server.url}/api/games/{game_id}/stream") as stream:
                stream.readline()
                opened.set()
                done.wait(30)
        except OSError:
            pass  # the worker holding it was killed

    threading.Thread(target=follow, daemon=True).start()
    assert opened.wait(10)
    return done


def test_metrics_add_up_every_worker_and_forget_a_dead_ones_streams(postgres_server, tmp_path):
    database = postgres_server.fresh_schema()
    server, reader = serve(database, tmp_path), PostgresStore(database)
    try:
        [folder] = tmp_path.glob("dice-miner-metrics-*")  # the server's own, in its TMPDIR
        players = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]
        answers: Counter[int] = Counter()
        for _ in range(4):
            status, game, _ = call(server, "POST", "/api/games", {"players": players})
            assert status == 201, game
            made = 0
            while made < 3:  # each request a new connection: both workers take some
                local = Game.from_stream(reader.read(game["id"]))  # what the database holds
                token = game["seats"][local.state.to_act()]["token"]
                move = {"command": command_to_dict(local.legal()[0]), "seq": local.seq}
                path = f"/api/games/{game['id']}/commands"
                status, answer, _ = call(server, "POST", path, move, token)
                assert status in (200, 409), answer  # 409: asked a worker not caught up yet
                answers[status] += 1
                made += status == 200
        done = hold_stream(server, game["id"])
        for _ in range(6):  # whichever worker answers the scrape, the sums are the server's
            found = scrape(server)
            for status, count in answers.items():
                assert found[f'dice_miner_commands_total{{status="{status}"}}'] == count
            assert found["dice_miner_command_seconds_count"] == answers.total()
            assert found["dice_miner_streams_open"] == 1
        for pid in workers_of(server):
            os.kill(pid, signal.SIGKILL)  # the stream's worker among them
        server.wait_ready()
        assert wait_until(lambda: scrape(server)["dice_miner_streams_open"] == 0)
        assert scrape(server)['dice_miner_commands_total{status="200"}'] == 12  # kept
        done.set()
    finally:
        server.stop()
        reader.close()
    assert not folder.exists()


def test_readyz_is_503_while_the_database_is_away_and_healthz_stays_200(postgres_server, tmp_path):
    server = serve(postgres_server.fresh_schema(), tmp_path)
    try:
        assert call(server, "GET", "/readyz")[0] == 200
        postgres_server.stop_now()
        try:
            status, body, headers = call(server, "GET", "/readyz")
            assert status == 503 and body["code"] == "store_unavailable", body
            assert "cannot be reached" in body["reason"] and headers["Retry-After"]
            assert call(server, "GET", "/healthz")[:2] == (200, {"status": "ok"})
            players = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]
            assert call(server, "POST", "/api/games", {"players": players})[0] == 503
            key = 'dice_miner_store_errors_total{code="store_unavailable"}'
            assert scrape(server)[key] >= 1
        finally:
            postgres_server.start_again()
        assert wait_until(lambda: call(server, "GET", "/readyz")[0] == 200, timeout=20)
    finally:
        server.stop()
    assert "Traceback" not in "".join(server.output)


def test_a_server_started_while_the_database_is_away_waits_for_it(postgres_server, tmp_path):
    """Its workers start all the same (a worker that failed to start took the whole
    server down): 503 meanwhile, healthy, and everything works once the database is back."""
    database = postgres_server.fresh_schema()
    postgres_server.stop_now()
    try:
        server = serve(database, tmp_path)
    except BaseException:
        postgres_server.start_again()
        raise
    try:
        try:
            assert call(server, "GET", "/healthz")[:2] == (200, {"status": "ok"})
            assert call(server, "GET", "/readyz")[0] == 503
        finally:
            postgres_server.start_again()
        assert wait_until(lambda: call(server, "GET", "/readyz")[0] == 200, timeout=20)
        players = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]
        status, game, _ = call(server, "POST", "/api/games", {"players": players})
        assert status == 201, game
    finally:
        server.stop()
    assert "Traceback" not in "".join(server.output)
