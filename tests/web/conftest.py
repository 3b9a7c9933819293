"""The web layer's fixtures: a fresh app confined to the test's folder (closed after, so
its bot threads and streams end) and Flask's test client on it. A module whose app needs
a library of replays or other settings defines its own ``app``; ``client`` then uses it."""

from __future__ import annotations

import pytest

from tests.support.web_support import make_app


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["dice_miner"].games.close()


@pytest.fixture
def client(app):
    return app.test_client()
