"""The terminal tests' fixtures: tmux must be there (skipped locally without it, failed in
CI), and ``terminal`` starts ``dice-miner play`` in a fresh tmux session, closed after the
test. Every test here is marked ``tmux`` (tests/conftest.py)."""

from __future__ import annotations

import os
import shlex
import sys

import pytest

from tests.support.tmux import TMUX, Terminal


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
