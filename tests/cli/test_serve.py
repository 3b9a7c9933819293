"""``dice-miner serve``: options that would start a server on which no game could start."""

import pytest

from frontends.cli import serve
from frontends.cli.args import CliError
from frontends.cli.main import build_parser


def options(tmp_path, *argv: str):
    return build_parser().parse_args(
        ["serve", "--replays", str(tmp_path), "--port", "0", "--data", str(tmp_path / "d"), *argv]
    )


@pytest.mark.parametrize("pace", ["nan", "inf", "11", "-0.5", "soon"])
def test_a_bot_pace_no_live_game_accepts_is_refused_at_start(tmp_path, pace, capsys):
    """A live game takes 0 to 10 s between bot moves: any other default refused every game."""
    with pytest.raises(SystemExit) as exit_:
        options(tmp_path, "--bot-pace", pace)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "--bot-pace" in err and ("0 to 10" in err or "not a number of seconds" in err)


@pytest.mark.parametrize("pace", ["0", "10"])
def test_the_ends_of_the_bot_pace_range_serve(tmp_path, pace):
    app, server = serve.make_server(options(tmp_path, "--bot-pace", pace))
    server.server_close()
    app.extensions["dice_miner"].games.close()


def test_a_data_folder_that_is_a_file_is_refused_at_start(tmp_path):
    """Every game started would have failed (500) trying to make the folder."""
    (tmp_path / "d").write_text("not a folder")
    with pytest.raises(CliError, match="--data must be a folder"):
        serve.make_server(options(tmp_path))


def test_a_data_folder_that_cannot_be_made_is_refused_at_start(tmp_path):
    (tmp_path / "file").write_text("x")
    args = options(tmp_path, "--data", str(tmp_path / "file" / "below"))
    with pytest.raises(CliError, match="cannot make the --data folder"):
        serve.make_server(args)


def test_a_missing_data_folder_is_made(tmp_path):
    app, server = serve.make_server(options(tmp_path, "--data", str(tmp_path / "new" / "data")))
    server.server_close()
    app.extensions["dice_miner"].games.close()
    assert (tmp_path / "new" / "data").is_dir()


def test_max_games_sets_how_many_games_are_in_play_at_once(tmp_path):
    app, server = serve.make_server(options(tmp_path, "--max-games", "2"))
    try:
        client = app.test_client()
        people = {"players": [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]}
        for n in range(2):
            made = client.post(
                "/api/games", json=people, environ_base={"REMOTE_ADDR": f"10.0.0.{n}"}
            )
            assert made.status_code == 201
        refused = client.post("/api/games", json=people, environ_base={"REMOTE_ADDR": "10.0.1.1"})
        assert refused.status_code == 503 and refused.json["error"]["code"] == "server_full"
    finally:
        server.server_close()
        app.extensions["dice_miner"].games.close()


@pytest.mark.parametrize("value", ["0", "-3", "many"])
def test_a_max_games_no_game_could_start_under_is_refused(tmp_path, value, capsys):
    with pytest.raises(SystemExit) as exit_:
        options(tmp_path, "--max-games", value)
    assert exit_.value.code == 2 and "--max-games" in capsys.readouterr().err
