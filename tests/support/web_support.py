"""Helpers for the web tests: recorded logs, an app per test, a real server, a real Chromium.

The browser is Debian's ``chromium`` driven by Playwright with the system binary
(nothing here downloads a browser). Without it the browser tests are skipped
with the reason, except in CI (``CI=true``), where they fail: CI must prove them.
"""

from __future__ import annotations

import json
import os
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from benchmarks.web import CHROMIUM, CHROMIUM_ARGS
from core.bots import make_bot
from core.bots.play import bot_command, play_game
from core.game import Game
from frontends.web.app import create_app


def record_game(
    path: Path,
    names=("Ada", "Brok", "Cira", "Dain"),
    seed: int = 7,
    bot: str = "greedy",
    commands: int | None = None,
    undo_every: int = 0,
) -> Game:
    """Let bots play a logged game (to the end, or ``commands`` commands); return it, closed.

    With ``undo_every`` = k, every k-th command is undone once and played again,
    so the log holds undo batches as a real game does.
    """
    game = Game.new(list(names), seed, log=path, sync=False)
    bots = [make_bot(bot) for _ in names]
    if commands is None and not undo_every:
        play_game(game, bots)
    else:
        played = 0
        while not game.state.is_over and (commands is None or played < commands):
            game.issue(bot_command(game, bots[game.to_act()]))
            played += 1
            if undo_every and played % undo_every == 0:
                game.undo()
                game.issue(bot_command(game, bots[game.to_act()]))
    game.close()
    return game


#: The repository's recorded games (``replays/``).
REPLAYS = Path(__file__).resolve().parents[2] / "replays"


def copy_replays(app, names) -> None:
    """Put these of the repository's replays into the app's replay library."""
    for name in names:
        (app.config["REPLAYS_DIR"] / name).write_bytes((REPLAYS / name).read_bytes())


def web_config(tmp_path: Path, **overrides) -> dict:
    """An app configuration confined to ``tmp_path``: fast bots, short streams."""
    replays = tmp_path / "replays"
    replays.mkdir(exist_ok=True)
    config = {
        "REPLAYS_DIR": replays,
        "DATA_DIR": tmp_path / "data",
        "BOT_PACE": 0.0,
        "SSE_HEARTBEAT": 0.2,
        "SSE_MAX_SECONDS": 3.0,
        "TESTING": True,
        # tests make many games from one address and must not be raced by the sweep;
        # tests/web/test_idle.py turns these on
        "GAMES_PER_CLIENT": None,
        "IDLE_CLOSE_SECONDS": None,
        "QUIET_SEAT_SECONDS": None,
    }
    config.update(overrides)
    return config


def make_app(tmp_path: Path, **overrides):
    """A fresh app for one test."""
    return create_app(web_config(tmp_path, **overrides))


def live_game(app, game_id: str):
    """The server-side LiveGame behind an id."""
    return app.extensions["dice_miner"].games.get(game_id)


def wait_until(predicate, timeout: float = 10.0, step: float = 0.02) -> bool:
    """Poll ``predicate`` until it is true or ``timeout`` seconds pass."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


class LiveServer:
    """The app on a real threaded HTTP server on a free loopback port, in a thread."""

    def __init__(self, app) -> None:
        self.app = app
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.app.extensions["dice_miner"].games.close()  # ends bot threads and open streams
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


def api(server: LiveServer, path: str, body=None, token: str | None = None):
    """Call a live server's JSON API as a script would; ``token`` is a seat's secret."""
    request = urllib.request.Request(server.url + path)
    if body is not None:
        request.data = json.dumps(body).encode()
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("X-Seat-Token", token)
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def open_page(browser, server: LiveServer, width: int = 1366, height: int = 900):
    """A new page, watched: its script errors, its requests off the server, its POSTs."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.errors, page.outside, page.posts = [], [], []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("request", lambda r: r.url.startswith(server.url) or page.outside.append(r.url))
    page.on("request", lambda r: r.method == "POST" and page.posts.append(r.url))
    return context, page


@contextmanager
def watched_page(browser, server: LiveServer, width: int = 1366, height: int = 900):
    """``open_page``, closed after use; a script error or a request off the server fails."""
    context, page = open_page(browser, server, width, height)
    yield page
    context.close()
    assert page.outside == []
    assert page.errors == []


def my_turn(server: LiveServer, game_id: str, seat: int = 0, timeout: float = 10.0) -> dict:
    """The seat's choices once the game waits for it (the bots having moved); fail if never."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        choices = api(server, f"/api/games/{game_id}/choices")
        if choices.get("turn") and choices["seat"] == seat:
            return choices
        time.sleep(0.02)
    raise AssertionError("the bots never gave the turn back")


def tab_to(page, wanted, probe, presses: int = 80) -> dict:
    """Press Tab until ``wanted(probe(page))`` holds (``probe`` describes the focused element);
    fail, saying where the focus is, if it never does."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        now = probe(page)
        if wanted(now):
            return now
    raise AssertionError(f"Tab never reached it; the focus is on {probe(page)}")


def chromium_or_skip() -> None:
    """Skip (locally) or fail (in CI) when the system Chromium or Playwright is missing."""
    missing = None
    if not os.path.exists(CHROMIUM):
        missing = f"{CHROMIUM} is missing (apt-get install chromium)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            missing = "the playwright package is missing (pip install -e '.[test]')"
    if missing is None:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"browser tests must run in CI: {missing}")
    pytest.skip(f"browser tests need Chromium: {missing}")


@pytest.fixture(scope="module")
def browser() -> Iterator:
    """One headless Chromium (the system's binary) for a test module."""
    chromium_or_skip()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
