"""Slow and idle clients starve no one: 500 connections to a real server of 2 gevent workers
(headers sent a byte at a time, bodies sent slowly or stalled, event streams left open and
unread) while ordinary requests are each answered within a second; the slow heads and the
stalled bodies are dropped by the server on time. And a bot thinks off the event loop."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from tests.support.serve_support import REPO, Server, call

pytestmark = pytest.mark.usefixtures("postgres_server")

HEADS, BODIES, STALLED, STREAMS = 150, 100, 100, 150  # 500 connections in all
CLIENT_TIMEOUT = 3.0  # serve --client-timeout: a stalled body is dropped after this
HEAD_SECONDS = 5.0  # gunicorn's keepalive: a request's head must arrive within it


class Slow:
    """One slow client: a socket and the bytes it still has to send, one at a time."""

    def __init__(self, port: int, data: bytes, send_now: int = 0) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.sendall(data[:send_now])  # the part sent at once (a body's head, say)
        self.sock.setblocking(False)
        self.rest = data[send_now:]
        self.dropped_at: float | None = None

    def drip(self) -> None:
        """Send one more byte, if any are left and the server still listens."""
        if self.dropped_at is not None or not self.rest:
            return
        try:
            self.sock.send(self.rest[:1])
            self.rest = self.rest[1:]
        except OSError:
            self.dropped_at = time.monotonic()

    def closed_by_server(self) -> bool:
        """True once the server has closed the connection (whatever it answered first)."""
        if self.dropped_at is not None:
            return True
        try:
            while True:
                data = self.sock.recv(65536)
                if not data:
                    break
        except BlockingIOError:
            return False
        except OSError:
            pass
        self.dropped_at = time.monotonic()
        return True


@pytest.mark.slow
def test_500_slow_or_idle_connections_leave_every_request_answered_within_a_second(
    postgres_server, tmp_path
):
    server = Server(
        "--store", postgres_server.fresh_schema(), "--workers", "2", "--replays", str(tmp_path),
        "--client-timeout", str(CLIENT_TIMEOUT), "--access-log", "off",
        "--idle-close", "0", "--quiet-seat", "0",
    )  # fmt: skip
    clients: list[Slow] = []
    streams: list[socket.socket] = []
    try:
        port = int(server.url.rsplit(":", 1)[1])
        players = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]
        status, game, _ = call(server, "POST", "/api/games", {"players": players})
        assert status == 201, game
        # the floor: the same request on this machine, now, before any slow client comes
        # (a busy machine, another test run beside this one, slows both alike)
        floor = []
        for _ in range(5):
            asked = time.monotonic()
            call(server, "GET", f"/api/games/{game['id']}")
            floor.append(time.monotonic() - asked)
        limit = max(1.0, 8 * sorted(floor)[2])  # a second, or 8 times the median if slower
        head = f"GET /api/games/{game['id']} HTTP/1.1\r\nHost: x\r\nUser-Agent: slow\r\n\r\n"
        body = b'{"players": [' + b" " * 2000 + b"]}"
        post = (
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        started = time.monotonic()
        heads = [Slow(port, head.encode()) for _ in range(HEADS)]
        bodies = [Slow(port, post, send_now=len(post) - len(body) + 10) for _ in range(BODIES)]
        stalled = [Slow(port, post, send_now=len(post) - len(body) + 10) for _ in range(STALLED)]
        clients = heads + bodies + stalled
        for _ in range(STREAMS):  # event streams opened and never read again
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(f"GET /api/games/{game['id']}/stream HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            streams.append(sock)
        opened = time.monotonic() - started

        stop = threading.Event()

        def drip() -> None:  # the slow heads and bodies: a byte each, every half second
            while not stop.wait(0.5):
                for client in heads + bodies:
                    client.drip()

        dripper = threading.Thread(target=drip, daemon=True)
        dripper.start()
        waits = []
        try:
            deadline = time.monotonic() + HEAD_SECONDS + CLIENT_TIMEOUT + 2
            while time.monotonic() < deadline:
                asked = time.monotonic()
                status, summary, _ = call(server, "GET", f"/api/games/{game['id']}")
                waits.append(time.monotonic() - asked)
                assert status == 200 and summary["id"] == game["id"]
                time.sleep(0.25)
            assert max(waits) < limit, (max(waits), limit, waits)
            assert len(waits) >= 10
            # the slow heads had their 5 s; the stalled bodies were dropped after 3 s silent
            assert all(c.closed_by_server() for c in heads), "a slow head was let stay"
            assert all(c.closed_by_server() for c in stalled), "a stalled body was let stay"
            for client in heads:
                assert client.dropped_at - started < opened + HEAD_SECONDS + 2.0
        finally:
            stop.set()
            dripper.join(5)
        # the idle streams were held all along, heartbeats aside: the server still has them
        with urllib.request.urlopen(server.url + "/metrics", timeout=10) as answer:
            text = answer.read().decode()
        assert f"dice_miner_streams_open {float(STREAMS)}" in text
    finally:
        for client in clients:
            client.sock.close()
        for sock in streams:
            sock.close()
        server.stop()
    assert " 500 " not in "".join(server.output) and "Traceback" not in "".join(server.output)


THINKING = """
import time
from gevent import monkey; monkey.patch_all()
import gevent
from core.host.thinking import think, think_in
from frontends.cli.gworker import in_native_thread

def decide(seconds):  # a bot thinking hard: pure CPU, no I/O
    end = time.perf_counter() + seconds
    n = 0
    while time.perf_counter() < end:
        n += 1
    return n

ticks = []
def loop():
    while True:
        ticks.append(time.perf_counter())
        gevent.sleep(0.01)

think_in(in_native_thread if RUNNER else None)
gevent.spawn(loop)
gevent.sleep(0.05)
think(decide, 1.0)
gevent.sleep(0.05)  # the loop's ticks after the thought, if it was stalled by it
gaps = [b - a for a, b in zip(ticks, ticks[1:])]
print(round(max(gaps), 3))
"""


def test_a_bot_thinks_in_a_real_thread_while_the_event_loop_runs_on():
    """Under gevent a second of a bot's thought stalls nothing; on the loop it stalls all."""

    def longest_stall(runner: bool) -> float:
        code = f"RUNNER = {runner}\n" + THINKING
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        return float(done.stdout.split()[-1])

    assert longest_stall(True) < 0.25  # ticks every 10 ms, give or take the GIL's turns
    assert longest_stall(False) > 0.9  # the control: thinking on the loop stops everything


def test_an_analysis_running_leaves_the_server_answering_within_a_second(tmp_path):
    """An analysis weighs positions in processes of its own: the worker's event loop, which
    waits on them, keeps answering everyone else meanwhile."""
    from tests.support.web_support import record_game

    replays = tmp_path / "replays"
    replays.mkdir()
    record_game(replays / "short.dmlog", names=("Ann", "Bo"), commands=8)
    server = Server("--data", str(tmp_path / "data"), "--replays", str(replays))
    try:
        floor = []  # the same request before the analysis: what this machine gives now
        for _ in range(5):
            asked = time.monotonic()
            assert call(server, "GET", "/healthz")[0] == 200
            floor.append(time.monotonic() - asked)
        limit = max(1.0, 8 * sorted(floor)[2])  # a second, or 8 times the median if slower
        status, started, _ = call(server, "POST", "/api/replays/short.dmlog/analysis")
        assert status in (200, 202) and started["state"] == "running", started
        waits, progress = [], started
        deadline = time.monotonic() + 120
        while progress["state"] == "running" and time.monotonic() < deadline:
            asked = time.monotonic()
            assert call(server, "GET", "/healthz")[0] == 200
            waits.append(time.monotonic() - asked)
            progress = call(server, "GET", "/api/replays/short.dmlog/analysis")[1]
            time.sleep(0.2)
        assert progress["state"] == "done", progress
        assert len(waits) >= 5 and max(waits) < limit, (limit, waits)
    finally:
        server.stop()
