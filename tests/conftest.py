"""Test configuration for the whole suite: Hypothesis profiles (derandomized in CI, so every
run is the same), the throwaway PostgreSQL server that several layers use, and the
markers that let a developer leave out what needs a browser, a terminal, a database or
minutes: ``./test -m "not browser and not tmux and not postgres and not slow"``
is the quick inner loop (``browser``, ``tmux`` and ``postgres`` are given by the
fixtures a test uses; ``slow`` by the modules that start real servers by the dozen)."""

import os

import pytest
from hypothesis import HealthCheck, settings

from tests.support.store_backends import (  # noqa: F401  (postgres_server: the fixture, for every layer)
    FIXTURES,
    postgres_server,
)

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
    folder: every test in ``tests/cli/tmux/``), the database's (directly, or as the
    contract suite's PostgreSQL backend)."""
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        params = getattr(getattr(item, "callspec", None), "params", {})
        backend = params.get("store_backend")
        if used & {"browser", "page"}:
            item.add_marker(pytest.mark.browser)
        tmux_module = item.path.name.startswith("test_play_tmux")  # one not yet shelved
        if "terminal" in used or item.path.parent.name == "tmux" or tmux_module:
            item.add_marker(pytest.mark.tmux)
        if "postgres_server" in used or "postgres_server" in FIXTURES.get(backend, ()):
            item.add_marker(pytest.mark.postgres)
