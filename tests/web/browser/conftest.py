"""The browser tests' fixtures: Debian's Chromium (``browser``, one per module), a live
server for the module with the module's ``replays`` (tests/web/conftest.py; a module that
needs other settings defines its own ``server``), and a watched ``page`` of it that fails
the test on a script error or a request off the server. Every test using ``browser`` or
``page`` is marked ``browser`` (tests/conftest.py); see ``tests/support/web_support.py``
for when they skip."""

from __future__ import annotations

import pytest

from tests.support.web_support import (  # noqa: F401  (browser: the fixture)
    LiveServer,
    browser,
    copy_replays,
    make_app,
    watched_page,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory, replays):
    app = make_app(tmp_path_factory.mktemp("web"), SSE_MAX_SECONDS=30.0)
    copy_replays(app, replays)
    with LiveServer(app) as live:
        yield live


@pytest.fixture
def page(browser, server):  # noqa: F811
    """A page of the module's ``server``, failing the test on a script error or a request
    off the server (``tests.support.web_support.watched_page``)."""
    with watched_page(browser, server) as page:
        yield page
