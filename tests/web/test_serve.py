"""``dice-miner serve``: options, the address it prints, a real server answering, clear errors."""

from __future__ import annotations

import json
import threading
import urllib.request

import pytest

from frontends.cli import serve
from frontends.cli.main import build_parser, main
from tests.support.web_support import record_game


def parse(*argv):
    return build_parser().parse_args(["serve", *argv])


def test_defaults_listen_on_loopback_port_5000_with_the_repositorys_replays():
    args = parse()
    assert (args.host, args.port, args.replays, args.data) == ("127.0.0.1", 5000, None, None)


def test_the_server_serves_the_pages_and_the_api(tmp_path, capsys):
    replays = tmp_path / "replays"
    replays.mkdir()
    record_game(replays / "one.dmlog", names=("Ann", "Bo"), commands=10)
    args = parse("--replays", str(replays), "--port", "0", "--data", str(tmp_path / "data"))
    app, server = serve.make_server(args)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        base = serve.address("127.0.0.1", server.port)
        with urllib.request.urlopen(base) as page:
            assert page.status == 200 and b"Dice Miner" in page.read()
        with urllib.request.urlopen(base + "api/replays") as answer:
            assert [r["name"] for r in json.load(answer)["replays"]] == ["one.dmlog"]
    finally:
        server.shutdown()
        server.server_close()
        app.extensions["dice_miner"].games.close()


def test_the_address_is_a_url():
    assert serve.address("127.0.0.1", 5000) == "http://127.0.0.1:5000/"
    assert serve.address("::1", 8080) == "http://[::1]:8080/"


def test_a_missing_replays_folder_is_a_one_line_error(tmp_path, capsys):
    assert main(["serve", "--replays", str(tmp_path / "nowhere"), "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a folder of replays" in err


def test_a_port_in_use_is_a_one_line_error(tmp_path, capsys):
    args = parse("--replays", str(tmp_path), "--port", "0", "--data", str(tmp_path / "d"))
    _, server = serve.make_server(args)
    try:
        code = main(["serve", "--replays", str(tmp_path), "--port", str(server.port)])
        assert code == 2
        assert "cannot listen on" in capsys.readouterr().err
    finally:
        server.server_close()


@pytest.mark.parametrize("argv", [["--port", "70000"], ["--port", "http"], ["--bot-pace", "x"]])
def test_bad_options_are_refused_by_argparse(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        parse(*argv)
    assert exit_.value.code == 2
    assert "serve" in capsys.readouterr().err


def test_a_negative_bot_pace_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:  # a usage error, as argparse gives every one
        main(["serve", "--replays", str(tmp_path), "--bot-pace", "-1"])
    assert exit_.value.code == 2
    assert "--bot-pace" in capsys.readouterr().err
