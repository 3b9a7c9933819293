"""A player's name cannot pass for a bot or another seat, nor hold a line break or a
control character (they break the boards): refused when a table is set up
(``core.host.seats.check_seats``) with a stable code and a sentence, through the web API
and the terminal alike; logs made before stay valid."""

from __future__ import annotations

import pytest

from core.errors import SetupError
from core.game import Game
from core.host.seats import parse_seats
from core.verify import rerun
from frontends.cli import play
from tests.support.cli_helpers import play_options as options
from tests.support.web_support import make_app

BOTS_BY_NAME = {
    "greedy": "greedy",
    "random": "random",
}  # the names a bot is asked for, and its kind


def person(name):
    return {"name": name, "bot": None}


def bot(kind="greedy", name=None):
    return {"name": name, "bot": kind}


@pytest.mark.parametrize(
    ("players", "code", "words"),
    [
        ([person("Zed (greedy)"), bot()], "name_like_bot", "would pass for a bot"),
        ([person("Ann (me)"), bot()], "name_like_bot", "would pass for a bot"),
        ([person("Brok"), bot(name="Brok")], "name_taken", "would be taken for seat 1"),
        ([person("Ann"), person("ann")], "name_taken", "each seat needs a name of its own"),
        ([person("Ann\nBo"), bot()], "bad_name", "no line break"),
        ([person("Ann\x1b[31m"), bot()], "bad_name", "control character"),
        ([person("Ann\u2028"), bot()], "bad_name", "no line break"),
    ],
)
def test_the_host_refuses_names_that_mislead_with_a_code(players, code, words):
    with pytest.raises(SetupError) as refused:
        parse_seats(players, BOTS_BY_NAME)
    assert refused.value.code == code
    assert words in str(refused.value)


def test_an_unnamed_bot_takes_a_dwarfs_name_no_person_has():
    seats = parse_seats([person("Brok"), bot(), bot("random")], BOTS_BY_NAME)
    assert seats == [("Brok", None), ("Ada (greedy)", "greedy"), ("Cira (random)", "random")]
    assert parse_seats([person("Ann"), bot()], BOTS_BY_NAME)[1] == ("Brok (greedy)", "greedy")


def test_a_logged_game_with_such_names_still_loads_and_verifies(tmp_path):
    """The check is the new table's, not the rules': a log made before it (a person
    "Brok" beside the bot "Brok (greedy)") is decided again as it was (log verify)."""
    game = Game.new(["Brok", "Brok (greedy)"], seed=1)
    assert game.state.names == ("Brok", "Brok (greedy)")
    assert rerun(game.batches()) is None  # decided again, the same events


def test_the_web_api_answers_the_code_and_the_sentence(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    answer = client.post("/api/games", json={"players": [person("Zed (greedy)"), bot()]})
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error["code"] == "name_like_bot"
    assert error["message"].startswith("seat 1: 'Zed (greedy)' would pass for a bot")
    newline = client.post("/api/games", json={"players": [person("A\nB"), bot()]})
    assert newline.get_json()["error"]["code"] == "bad_name"
    app.extensions["dice_miner"].games.close()


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--name", "Zed (greedy)"], "would pass for a bot"),
        (["--name", "Ann\nBo"], "no line break"),
        (["--solo", "--name", "Ann\nBo"], "no line break"),
        (["--hotseat", "--name", "Ann", "--name", "ann", "--bots", "0"], "name of its own"),
    ],
)
def test_the_terminal_refuses_them_before_a_game_starts(tmp_path, argv, words):
    log = tmp_path / "x.dmlog"
    with pytest.raises(play.PlayError) as refused:
        play.start(options(*argv, "--seed", "1", "--log", str(log)))
    assert str(refused.value).startswith("--name: seat ")
    assert words in str(refused.value)
    assert not log.exists()
