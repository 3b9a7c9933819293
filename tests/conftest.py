"""Test configuration: Hypothesis profiles (derandomized in CI, so every run is the same),
and the browser tests' fixtures (each browser test module defines its own ``server``)."""

import os

import pytest
from hypothesis import HealthCheck, settings

from tests.store_backends import (  # noqa: F401  (the contract suite's backends)
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


@pytest.fixture
def page(browser, server):  # noqa: F811
    """A page of the module's ``server``, failing the test on a script error or a request
    off the server (``tests.web_support.watched_page``)."""
    with watched_page(browser, server) as page:
        yield page
