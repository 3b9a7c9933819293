"""Test configuration: Hypothesis profiles (derandomized in CI, so every run is the same),
the browser tests' fixtures (each browser test module defines its own ``server``), and
the markers that let a developer leave out what needs a browser, a terminal, a
database or minutes: ``./test -m "not browser and not tmux and not postgres and not slow"``
is the quick inner loop (``browser``, ``tmux`` and ``postgres`` are given by the
fixtures a test uses; ``slow`` by the modules that start real servers by the dozen)."""

import os

import pytest
from hypothesis import HealthCheck, settings

from tests.store_backends import (  # noqa: F401  (the contract suite's backends)
    FIXTURES,
    postgres_server,
    store_backend,
)
from tests.web_support import browser, watched_page  # noqa: F401  (the fixture, for every module)

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

#: The markers, and what each says a test needs.
MARKERS = {
    "browser": "drives Debian's Chromium (Playwright)",
    "tmux": "drives the game in a real terminal (tmux)",
    "postgres": "needs a PostgreSQL server (a throwaway cluster started for the session)",
    "slow": "starts real servers and kills them, for tens of seconds",
}


def pytest_configure(config) -> None:
    for name, what in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {what}")


def pytest_collection_modifyitems(items) -> None:
    """Mark each test by the fixtures it uses: the browser's, the terminal's (or its
    module: the ``test_play_tmux`` ones), the database's (directly, or as the contract
    suite's PostgreSQL backend)."""
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        params = getattr(getattr(item, "callspec", None), "params", {})
        backend = params.get("store_backend")
        if used & {"browser", "page"}:
            item.add_marker(pytest.mark.browser)
        if "terminal" in used or item.path.name.startswith("test_play_tmux"):
            item.add_marker(pytest.mark.tmux)
        if "postgres_server" in used or "postgres_server" in FIXTURES.get(backend, ()):
            item.add_marker(pytest.mark.postgres)


@pytest.fixture
def page(browser, server):  # noqa: F811
    """A page of the module's ``server``, failing the test on a script error or a request
    off the server (``tests.web_support.watched_page``)."""
    with watched_page(browser, server) as page:
        yield page
