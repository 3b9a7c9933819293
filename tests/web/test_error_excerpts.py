"""An error answer quotes what was sent only in part, and says a number too long in words.

A review sent a 1 MB command text and got it back whole in a 1,000,071-byte 400, and a
5,000-digit seed came back as Python's "Exceeds the limit (4300 digits)".
"""

from __future__ import annotations

import pytest

from frontends.web.errors import MAX_MESSAGE, excerpt
from tests.support.web_support import make_app

ANN_AND_BOT = [{"name": "Ann", "bot": None}, {"name": "Brok", "bot": "random"}]


@pytest.fixture
def client(tmp_path):
    app = make_app(tmp_path)
    yield app.test_client()
    app.extensions["dice_miner"].games.close()


def test_an_excerpt_keeps_the_beginning_and_the_end_and_says_how_much_is_left_out():
    assert excerpt("short") == "short"
    text = "unknown command '" + "x" * 10_000 + "'; try one of: take, beer"
    cut = excerpt(text)
    assert len(cut) <= MAX_MESSAGE
    assert cut.startswith("unknown command 'xxx") and cut.endswith("try one of: take, beer")
    head, rest = cut.split("… (")
    count, tail = rest.split(" characters left out) …")
    assert len(head) + int(count.replace(",", "")) + len(tail) == len(text)


def test_a_megabyte_command_is_not_echoed_back(client):
    game = client.post("/api/games", json={"players": ANN_AND_BOT}).get_json()
    token = next(s["token"] for s in game["seats"] if "token" in s)
    sent = "take " + "7" * 1_000_000
    answer = client.post(
        f"/api/games/{game['id']}/commands", json={"text": sent}, headers={"X-Seat-Token": token}
    )
    assert answer.status_code == 400
    assert len(answer.get_data()) < 1_000  # was 1,000,071 bytes
    error = answer.get_json()["error"]
    assert error["code"] == "bad_command" and "characters left out" in error["message"]


def test_every_long_thing_a_client_names_comes_back_cut(client):
    long = "z" * 5_000
    for path in (
        f"/api/replays/{long}",
        f"/api/games/{long}",
        f"/api/replays/four.dmlog/state?at={long}",
        f"/api/games/none/events?from={long}",
    ):
        answer = client.get(path)
        assert 400 <= answer.status_code < 500, path
        assert len(answer.get_data()) < 1_000, path


def test_a_five_thousand_digit_seed_gets_a_plain_message(client):
    body = '{"players": [{"name": "Ann", "bot": null}, {"name": null, "bot": "random"}], "seed": '
    answer = client.post(
        "/api/games", data=body + "9" * 5_000 + "}", content_type="application/json"
    )
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error["code"] == "bad_json"
    assert error["message"] == "a number in the body has 5,000 digits: no field takes more than 20"
    # a number of a sensible length is still read, and refused by the rules in their words
    answer = client.post("/api/games", data=body + "9" * 30 + "}", content_type="application/json")
    assert answer.status_code == 400
    assert "seed must be a whole number" in answer.get_json()["error"]["message"]
