"""Test configuration for the whole suite: Hypothesis profiles (derandomized in CI, so every
run is the same), the throwaway PostgreSQL server that several layers use, and the
markers that let a developer leave out what needs a browser, a terminal, a database or
minutes: ``./test -m "not browser and not tmux and not postgres and not slow"``
is the quick inner loop (``browser``, ``tmux`` and ``postgres`` are given by the
fixtures a test uses; ``slow`` by the modules that start real servers by the dozen)."""

import os
from collections import Counter

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
    contract suite's PostgreSQL backend). Then make every test's node id its own."""
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
    distinct_node_ids(items)


def distinct_node_ids(items) -> None:
    """Give each test its own node id, and fail the collection if two still share one.

    pytest-xdist sends tests to its workers by node id, so of tests sharing an id it runs
    one. schemathesis names each API operation's test ``test_x[GET /api/games]`` but (with
    pytest 9) leaves every one the id ``test_x``: here each takes the id its name says."""
    shared = Counter(item.nodeid for item in items)
    for item in items:
        own = f"{item.parent.nodeid}::{item.name}"
        if shared[item.nodeid] > 1 and own != item.nodeid and hasattr(item, "_id"):
            item._id = type(item._id).parse(own)  # where pytest keeps the id, parsed
    still = sorted(nodeid for nodeid, n in Counter(i.nodeid for i in items).items() if n > 1)
    if still:
        raise pytest.UsageError(f"tests share a node id (pytest-xdist would run one): {still}")
