"""The web layer's fixtures: a fresh app confined to the test's folder (closed after, so
its bot threads and streams end) with the module's ``replays`` in its library (none
unless the module defines that fixture), and Flask's test client on it. A module whose
app needs other settings defines its own ``app``; ``client`` then uses it."""

from __future__ import annotations

import pytest

from tests.support.web_support import copy_replays, make_app


@pytest.fixture(scope="module")
def replays() -> tuple[str, ...]:
    """Which of the repository's ``replays/`` the module's app serves (a module overrides)."""
    return ()


@pytest.fixture
def app(tmp_path, replays):
    app = make_app(tmp_path)
    copy_replays(app, replays)
    yield app
    app.extensions["dice_miner"].games.close()


@pytest.fixture
def client(app):
    return app.test_client()
