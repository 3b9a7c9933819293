"""The terminal tests' fixtures: tmux must be there (skipped locally without it, failed in
CI), and ``terminal`` starts ``dice-miner play`` in a fresh tmux session, closed after the
test; ``server`` is the web app on a real HTTP server (for ``./play join`` and ``watch``)
and ``page`` a Chromium page of it. Every test here is marked ``tmux`` (tests/conftest.py).
"""

from __future__ import annotations

import os
import shlex
import sys

import pytest

from tests.support.tmux import TMUX, Terminal
from tests.support.web_support import (  # noqa: F401  (browser: the fixture)
    LiveServer,
    browser,
    make_app,
    watched_page,
)


@pytest.fixture(autouse=True)
def _real_terminal() -> None:
    """Skip (locally) or fail (in CI) when tmux is missing: CI must drive a real terminal."""
    if TMUX is not None:
        return
    missing = "tmux is not installed, so the game cannot be run in a real terminal"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"terminal tests must run in CI: {missing} (apt-get install tmux)")
    pytest.skip(missing)


@pytest.fixture
def terminal(tmp_path):
    opened = []

    def start(*argv: str) -> Terminal:
        play = [sys.executable, "-m", "frontends.cli", "play", *argv]
        term = Terminal(shlex.join(play), {"XDG_DATA_HOME": str(tmp_path / "data")})
        opened.append(term)
        return term

    yield start
    for term in opened:
        term.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The web app on a real HTTP server, for ``./play join`` and ``./play watch``."""
    app = make_app(tmp_path_factory.mktemp("web"), SSE_MAX_SECONDS=30.0)
    with LiveServer(app) as live:
        yield live


@pytest.fixture
def page(browser, server):  # noqa: F811
    """A page of the module's ``server`` in Chromium, for a game played from the browser
    and the terminal at once (``tests.support.web_support.watched_page``)."""
    with watched_page(browser, server) as page:
        yield page
