"""Real ``dice-miner serve`` processes for the tests: started, asked, watched, killed."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


class Server:
    """``dice-miner serve`` in its own process group, on a free port."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        command = [sys.executable, "-m", "frontends.cli", "serve", "--port", "0", *args]
        self.process = subprocess.Popen(
            command,
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
            env={**os.environ, **(env or {})},
        )
        first = self.process.stdout.readline()
        if "served at" not in first:
            self.stop()
            raise AssertionError(f"the server did not start: {first}{self.process.stdout.read()}")
        self.url = first.split()[-1].rstrip("/")
        self.output: list[str] = [first]
        threading.Thread(target=self._drain, daemon=True).start()
        try:
            self.wait_ready()
        except BaseException:
            self.stop()  # never left running behind a failed test
            raise

    def _drain(self) -> None:
        for line in self.process.stdout:
            self.output.append(line)

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                call(self, "GET", "/api/games")
                return
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.1)
        raise AssertionError(f"the server at {self.url} never answered:\n{''.join(self.output)}")

    def kill(self) -> None:
        """SIGKILL the whole server: its arbiter and every worker."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)


def call(server: Server, method: str, path: str, body=None, token: str | None = None):
    """``(status, json, headers)`` of one request (4xx and 5xx answered, not raised)."""
    request = urllib.request.Request(server.url + path, method=method)
    if body is not None:
        request.data = json.dumps(body).encode()
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("X-Seat-Token", token)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer), answer.headers
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null"), error.headers


class Spectator:
    """Follows a game's event stream, reconnecting with Last-Event-ID, until its end."""

    def __init__(self, server: Server, game_id: str) -> None:
        self.server = server
        self.game_id = game_id
        self.ids: list[int] = []
        self.ended = threading.Event()
        self.errors: list[str] = []
        self.statuses: list[int] = []  # the HTTP errors answered to a (re)connection
        self.deadline = time.monotonic() + 600  # a bounded test: it gives up then
        self.thread = threading.Thread(target=self._follow, daemon=True)
        self.thread.start()

    def base_url(self) -> str:
        """The server to (re)connect to."""
        return self.server.url

    def _follow(self) -> None:
        last = None
        while not self.ended.is_set() and time.monotonic() < self.deadline:
            request = urllib.request.Request(f"{self.base_url()}/api/games/{self.game_id}/stream")
            if last is not None:
                request.add_header("Last-Event-ID", str(last))
            try:
                with urllib.request.urlopen(request, timeout=60) as stream:
                    event = None
                    for raw in stream:
                        line = raw.decode().rstrip("\n")
                        if line.startswith("id: "):
                            last = int(line[4:])
                            self.ids.append(last)
                        elif line.startswith("event: "):
                            event = line[7:]
                        elif line == "" and event == "end":
                            self.ended.set()
                            return
            except urllib.error.HTTPError as error:
                self.statuses.append(error.code)
                time.sleep(0.2)
            except (urllib.error.URLError, ConnectionError, OSError) as exc:
                self.errors.append(str(exc))
                time.sleep(0.2)


def post_from(server: Server, address: str, path: str, body: dict, token: str | None = None):
    """``(status, json)`` of a POST sent from the loopback ``address`` (a client of its own)."""
    host, _, port = server.url.removeprefix("http://").rpartition(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30, source_address=(address, 0))
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["X-Seat-Token"] = token
    try:
        conn.request("POST", path, json.dumps(body), headers)
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read() or b"null")
    finally:
        conn.close()


def workers_of(server: Server) -> list[int]:
    """The pids of the server's gunicorn workers (its arbiter's children)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[1]) == server.process.pid:
                found.append(int(entry))
    return found
