"""A real ``dice-miner serve``, SIGKILLed and started again: the old seat link still plays."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.support.web_support import wait_until

ROOT = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 20.0


class Server:
    """``dice-miner serve --port 0`` in its own process, its address read from what it prints."""

    def __init__(self, tmp_path: Path) -> None:
        command = [
            sys.executable,
            "-c",
            "import sys; from frontends.cli.main import main; sys.exit(main())",
            "serve",
            "--port",
            "0",
            "--data",
            str(tmp_path / "data"),
            "--replays",
            str(tmp_path),
            "--bot-pace",
            "0",
        ]
        self.process = subprocess.Popen(
            command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.stderr: list[str] = []
        threading.Thread(target=self._read, args=(self.process.stdout, self.lines.put)).start()
        threading.Thread(target=self._read, args=(self.process.stderr, self.stderr.append)).start()
        try:
            self.output = [self.line()]
            prefix = "Dice Miner is served at "
            assert self.output[0].startswith(prefix), (self.output, self.stderr)
            self.url = self.output[0][len(prefix) :].strip().rstrip("/")
        except BaseException:
            self.kill()
            raise

    @staticmethod
    def _read(stream, put) -> None:
        for line in stream:
            put(line)

    def line(self) -> str:
        """The next line the server prints."""
        try:
            return self.lines.get(timeout=STARTUP_SECONDS)
        except queue.Empty:
            raise AssertionError(f"the server printed nothing; stderr: {self.stderr}") from None

    def call(self, method: str, path: str, body=None, token: str | None = None):
        """The status and JSON answer of one request."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token is not None:
            request.add_header("X-Seat-Token", token)
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as error:
            with error:
                return error.code, json.load(error)

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind."""
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self.process.stdout.close()
        self.process.stderr.close()


@pytest.fixture
def servers(tmp_path):
    started: list[Server] = []

    def start() -> Server:
        started.append(Server(tmp_path))
        return started[-1]

    yield start
    for server in started:
        if server.process.poll() is None:
            server.kill()


def ann_to_act(server: Server, game_id: str) -> dict:
    """Wait until the bot has moved and Ann (seat 0) is to act; her choices."""
    found = {}

    def ready() -> bool:
        found.update(server.call("GET", f"/api/games/{game_id}/choices")[1])
        return found.get("seat") == 0 and found.get("turn")

    assert wait_until(ready, timeout=10), found
    return found


def test_a_killed_server_started_again_lets_the_old_link_play(servers):
    first = servers()
    players = [{"name": "Ann", "bot": None}, {"name": "Brok", "bot": "random"}]
    # a practice game: Ann's undo takes back the round's mountain her hero brought too
    body = {"players": players, "seed": 11, "practice": True}
    status, game = first.call("POST", "/api/games", body)
    assert status == 201, game
    token = game["seats"][0]["token"]
    hero = ann_to_act(first, game["id"])["heroes"][0]["command"]
    status, answer = first.call(
        "POST", f"/api/games/{game['id']}/commands", {"command": hero}, token
    )
    assert status == 200, answer
    choices = ann_to_act(first, game["id"])
    seq = choices["seq"]
    first.kill()

    again = servers()
    status, summary = again.call("GET", f"/api/games/{game['id']}")
    assert status == 200 and summary["seq"] == seq
    again.line()  # where the replays come from
    assert "1 unfinished game(s) resumed, 0 finished listed, 0 skipped" in again.line()
    assert again.call("GET", f"/api/games/{game['id']}/choices")[1] == choices
    bad = again.call("POST", f"/api/games/{game['id']}/commands", {"text": "undo"}, "x" * 24)
    assert bad[0] == 403
    status, answer = again.call(
        "POST", f"/api/games/{game['id']}/commands", {"text": "undo"}, token
    )
    assert status == 200, answer  # back to before Ann's hero, with the bot's reply
    assert ann_to_act(again, game["id"])["phase"] == "setup"
    status, answer = again.call(
        "POST", f"/api/games/{game['id']}/commands", {"command": hero}, token
    )
    assert status == 200, answer
    replayed = ann_to_act(again, game["id"])  # the bot answered as before: the same dice
    assert replayed["seq"] > seq and {**replayed, "seq": seq} == choices
    assert not [line for line in again.stderr if "not resumed" in line]
