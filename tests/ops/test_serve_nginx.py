"""The reverse proxy of ``docs/operate.md``, run: Debian's nginx from the page's own snippet
(its ports moved to free ones on loopback, its files under a temporary prefix) in front of
two real servers on one PostgreSQL database. Moves and a spectator's stream go through it,
each event arriving as it happens; both servers answer; a client is the address nginx saw
(``--proxies 1``), never one it claims; ``/metrics`` is for loopback only; and with one
server SIGKILLed the other answers everything."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from core.events.codec import command_to_dict
from core.game import Game
from core.store.postgres import PostgresStore
from tests.support.serve_support import REPO, Server
from tests.support.web_support import wait_until

pytestmark = [pytest.mark.usefixtures("postgres_server"), pytest.mark.slow]

DOC = REPO / "docs" / "operate.md"


def nginx_binary() -> str:
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
    if found is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("the reverse proxy test must run in CI: apt-get install nginx")
        pytest.skip("needs nginx (apt-get install nginx)")
    return found


def snippet() -> str:
    """The page's nginx configuration, as an operator copies it."""
    [block] = re.findall(r"```nginx\n(.*?)```", DOC.read_text(), re.S)
    return block


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Nginx:
    """nginx in the foreground under ``prefix``, serving the snippet on a loopback port."""

    def __init__(self, binary: str, prefix: Path, upstreams: list[int]) -> None:
        self.port = free_port()
        site = snippet().replace("listen 80;", f"listen 127.0.0.1:{self.port};")
        for documented, port in zip(("5001", "5002"), upstreams, strict=True):
            site = site.replace(f"127.0.0.1:{documented} ", f"127.0.0.1:{port} ")
        (prefix / "site.conf").write_text(site)
        temp = "\n".join(
            f"    {kind}_temp_path {prefix}/{kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        user = "user root;\n" if os.geteuid() == 0 else ""  # else workers run as nobody
        (prefix / "nginx.conf").write_text(
            f"daemon off;\nworker_processes 1;\npid {prefix}/nginx.pid;\n{user}"
            f"error_log {prefix}/error.log warn;\n"
            "events { worker_connections 256; }\n"
            f"http {{\n    access_log {prefix}/access.log;\n{temp}\n"
            f"    include {prefix}/site.conf;\n}}\n"
        )
        self.process = subprocess.Popen(
            [binary, "-p", str(prefix), "-e", str(prefix / "error.log"),
             "-c", str(prefix / "nginx.conf")],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,  # it logs to error.log
            start_new_session=True,  # stopped with its workers, whatever happens
        )  # fmt: skip
        self.prefix = prefix
        if not wait_until(self._up, timeout=10):
            self.stop()
            raise AssertionError(f"nginx did not start: {self.errors()}")

    def _up(self) -> bool:
        try:
            return self.request("GET", "/healthz")[0] == 200
        except OSError:
            return False

    def request(self, method, path, body=None, headers=None, source="127.0.0.1"):
        """``(status, json)`` of one request through nginx, from loopback address ``source``."""
        conn = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=30, source_address=(source, 0)
        )
        try:
            data = None if body is None else json.dumps(body)
            sent = {"Content-Type": "application/json", **(headers or {})}
            conn.request(method, path, body=data, headers=sent)
            answer = conn.getresponse()
            raw = answer.read()
            try:
                return answer.status, json.loads(raw)
            except ValueError:
                return answer.status, raw.decode(errors="replace")
        finally:
            conn.close()

    def errors(self) -> str:
        log = self.prefix / "error.log"
        return log.read_text() if log.exists() else ""

    def stop(self) -> None:
        """Stop the master and its workers (SIGKILL if a fast shutdown takes too long)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)  # any worker left behind
        self.process.wait(10)


class StreamReader:
    """A spectator's stream through nginx: each event's seq and when it arrived."""

    def __init__(self, port: int, game_id: str) -> None:
        self.arrived: dict[int, float] = {}
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.conn.request("GET", f"/api/games/{game_id}/stream")
        self.answer = self.conn.getresponse()
        assert self.answer.status == 200
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for raw in self.answer:
                line = raw.decode().rstrip("\n")
                if line.startswith("id: "):
                    self.arrived[int(line[4:])] = time.monotonic()
        except (OSError, ValueError, AttributeError):
            pass  # closed at the end of the test

    def close(self) -> None:
        self.conn.close()


def test_two_servers_behind_the_documented_nginx(postgres_server, tmp_path):
    binary = nginx_binary()
    database = postgres_server.fresh_schema()
    options = ("--store", database, "--workers", "2", "--replays", str(tmp_path),
               "--proxies", "1", "--idle-close", "0",
               "--quiet-seat", "0")  # fmt: skip
    servers = [Server(*options), Server(*options)]
    nginx = reader = None
    try:
        ports = [int(server.url.rsplit(":", 1)[1]) for server in servers]
        (tmp_path / "nginx").mkdir()
        nginx = Nginx(binary, tmp_path / "nginx", ports)
        reader = PostgresStore(database)
        players = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]
        status, game = nginx.request("POST", "/api/games", {"players": players})
        assert status == 201, game
        stream = StreamReader(nginx.port, game["id"])
        posted = 0
        while posted < 8:
            local = Game.from_stream(reader.read(game["id"]))
            token = game["seats"][local.state.to_act()]["token"]
            move = {"command": command_to_dict(local.legal()[0]), "seq": local.seq}
            path = f"/api/games/{game['id']}/commands"
            sent = time.monotonic()
            status, answer = nginx.request("POST", path, move, {"X-Seat-Token": token})
            assert status in (200, 409), answer  # 409: a worker not caught up yet
            if status == 200:
                posted += 1
                last = answer["seq"] - 1
                assert wait_until(lambda last=last: last in stream.arrived, timeout=5)
                assert stream.arrived[last] - sent < 2.0  # as it happens, not buffered
        assert sorted(stream.arrived) == list(range(max(stream.arrived) + 1))
        stream.close()

        # each client counts as the address nginx saw (the per-client limit's key, and the
        # access log's first field), whatever address it claims
        forged = {"X-Forwarded-For": "203.0.113.9"}
        assert nginx.request("GET", "/api/bots?as=forged", headers=forged)[0] == 200
        assert nginx.request("GET", "/api/bots?as=second", source="127.0.0.2")[0] == 200

        def logged(marker: str) -> str:
            for server in servers:
                for line in server.output:
                    if f"GET /api/bots?as={marker} " in line:
                        return line
            return ""

        assert wait_until(lambda: logged("forged") and logged("second"))
        assert logged("forged").startswith("127.0.0.1 ")
        assert logged("second").startswith("127.0.0.2 ")
        assert nginx.request("GET", "/metrics")[0] == 200
        assert nginx.request("GET", "/metrics", source="127.0.0.2")[0] == 403
        for server in servers:  # nginx shared the requests between the two servers
            assert wait_until(lambda s=server: any("POST /api/games/" in x for x in s.output))

        servers[0].kill()  # one server gone: the other answers everything
        for _ in range(10):
            status, summary = nginx.request("GET", f"/api/games/{game['id']}")
            assert status == 200 and summary["seq"] >= posted, summary
        assert nginx.request("GET", "/readyz")[0] == 200
    finally:
        if nginx is not None:
            nginx.stop()
        if reader is not None:
            reader.close()
        for server in servers:
            server.stop()
    assert "[emerg]" not in nginx.errors() and "[crit]" not in nginx.errors()
