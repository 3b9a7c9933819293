"""The HTTP API against its OpenAPI 3.1 description: schemathesis (a fuzzer from PyPI)
sends generated requests to a real ``dice-miner serve``; no answer is a 5xx, and every
answer matches the description (status, content type, body)."""

from __future__ import annotations

import json
import urllib.request

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance

from frontends.web import openapi
from tests.support.serve_support import Server

SCHEMA = schemathesis.openapi.from_dict(openapi.document()).exclude(
    path_regex="/stream$"  # an event stream stays open by design: described, not fuzzed
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("served")
    (folder / "replays").mkdir()
    served = Server("--data", str(folder / "data"), "--replays", str(folder / "replays"))
    yield served
    served.stop()


def test_the_description_is_served_and_in_the_docs(server):
    with urllib.request.urlopen(f"{server.url}/api/openapi.json") as answer:
        assert json.load(answer) == openapi.document()
    assert openapi.PAGE.read_text() == openapi.render()  # python -m frontends.web.openapi


@SCHEMA.parametrize()
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_the_api_answers_as_described_and_never_with_a_5xx(server, case):
    """Every check but "a schema-valid request is accepted": the API refuses (4xx, with
    its error shape) what no schema can state, bytes that are not a log, a seat's move
    the rules forbid."""
    case.call_and_validate(base_url=server.url, excluded_checks=[positive_data_acceptance])
