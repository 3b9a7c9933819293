"""``dice-miner play``: options into seats, where logs go, resuming, and one-line errors."""

from __future__ import annotations

import argparse
import io
import re

import pytest

from core.bots import BOTS
from core.game import Game
from core.modes.solo.scoring import solo_score
from frontends.cli import play
from frontends.cli.main import build_parser, main
from frontends.cli.tui.table import Seat, bot_seat, default_bot, seats_from_names


def options(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["play", *argv])


def test_no_options_is_you_against_two_bots_of_the_default_kind():
    seats = play.table_from_options(options())
    assert seats == (Seat("You"), bot_seat("Brok", default_bot()), bot_seat("Cira", default_bot()))
    assert default_bot() == ("greedy" if "greedy" in BOTS else "random")


@pytest.mark.parametrize(
    ("argv", "humans", "bots"),
    [
        (["--players", "2"], ["You"], [default_bot()]),
        (["--players", "4", "--bots", "random"], ["You"], ["random"] * 3),
        (["--bots", "random,random"], ["You"], ["random", "random"]),
        (["--bots", "2"], ["You"], [default_bot()] * 2),
        (["--bots", "3"], ["You"], [default_bot()] * 3),  # like --bots a,b,c: 4 players
        (["--bots", "1"], ["You"], [default_bot()]),
        (["--hotseat"], ["Player 1", "Player 2", "Player 3"], []),
        (["--hotseat", "--name", "Ada", "--name", "Bo"], ["Ada", "Bo"], []),
        (
            ["--hotseat", "--players", "4", "--bots", "2"],
            ["Player 1", "Player 2"],
            [default_bot()] * 2,
        ),
        (["--name", "Ada"], ["Ada"], [default_bot()] * 2),
    ],
)
def test_seats_from_options(argv, humans, bots):
    seats = play.table_from_options(options(*argv))
    assert [s.name for s in seats if s.is_person] == humans
    assert [s.bot for s in seats if not s.is_person] == bots


def test_bots_never_share_a_name_with_a_person():
    seats = play.table_from_options(options("--hotseat", "--name", "Brok", "--bots", "1"))
    names = [s.name.split(" (")[0] for s in seats]
    assert len(set(names)) == len(names) == 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "2", "--bots", "3"], "you play one seat"),
        (["--bots", "4"], "2 to 4 players, not 5"),
        (["--bots", "clever"], "unknown bot 'clever'"),
        (["--name", "A", "--name", "B"], "need --hotseat"),
        (["--hotseat", "--players", "2", "--bots", "2"], "no seat for a person"),
        (["--hotseat", "--name", "A", "--players", "3"], "^1 name for 3 people at"),
        (["--players", "2", "--bots", "greedy,random"], "^--bots names 2 kinds for 1 bot seat$"),
    ],
)
def test_impossible_tables_are_refused_in_words(argv, message):
    with pytest.raises(play.PlayError, match=message):
        play.table_from_options(options(*argv))


def test_logs_go_to_the_per_user_data_dir_never_overwriting(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    first = play.default_log(7)
    assert first.parent == tmp_path / "dice-miner" and first.name.endswith("seed7.dmlog")
    first.write_bytes(b"")
    second = play.default_log(7)
    assert second != first and second.name.endswith("seed7-2.dmlog")
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert play.data_dir() == tmp_path / "home" / ".local" / "share" / "dice-miner"


def test_start_new_and_resume(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    game, seats, path, notes = play.start(options("--seed", "12", "--bots", "random"))
    assert path.exists() and game.state.seed == 12 and notes == []
    game.issue(game.legal()[0])
    state = game.state
    game.close()
    resumed, seats2, path2, _ = play.start(options("--resume", str(path)))
    assert resumed.state == state and seats2 == seats and path2 == path
    resumed.close()
    assert "Continue it with: dice-miner play --resume" in play.summary(resumed, path)


def test_resume_takes_no_table_options(tmp_path):
    with pytest.raises(play.PlayError, match="drop --seed, --hotseat"):
        play.start(options("--resume", str(tmp_path / "x.dmlog"), "--seed", "3", "--hotseat"))


def test_an_existing_log_is_not_overwritten(tmp_path):
    log = tmp_path / "x.dmlog"
    log.write_bytes(b"keep me")
    with pytest.raises(play.PlayError, match="already exists"):
        play.start(options("--log", str(log), "--seed", "1"))
    assert log.read_bytes() == b"keep me"


def test_solo_starts_a_solo_game(tmp_path):
    game, seats, _, _ = play.start(
        options("--solo", "--seed", "3", "--log", str(tmp_path / "s.dmlog"))
    )
    assert game.state.mode == "solo" and seats == (Seat("You"),)
    game.close()


def test_solo_is_for_one_player(tmp_path):
    with pytest.raises(play.PlayError, match="one player: drop --players"):
        play.start(options("--solo", "--players", "3"))


def test_the_summary_of_a_finished_solo_game_gives_the_score_and_rating(tmp_path):
    game = Game.new(["You"], 4, mode="solo")
    game.issue_text("stop")
    text = play.summary(game, tmp_path / "s.dmlog")
    final = solo_score(game.state)
    assert text.startswith(f"{final.score} points: {final.rating}.")
    assert str(tmp_path / "s.dmlog") in text


def test_a_resumed_log_whose_bot_kind_is_gone_plays_with_the_default(tmp_path):
    seats, notes = seats_from_names(("Ada", "Brok (wizard)"))
    assert seats == (Seat("Ada"), Seat("Brok (wizard)", default_bot()))
    assert "not available" in notes[0]
    only_bots, _ = seats_from_names(("Brok (random)", "Cira (random)"))
    assert only_bots[0].is_person and not only_bots[1].is_person


def test_play_without_a_terminal_is_a_one_line_error(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs a terminal" in err
    assert main(["play", "--pace", "-1"]) == 2
    assert "--pace" in capsys.readouterr().err


def test_summary_of_a_finished_game_names_the_winner_and_the_log(tmp_path):
    game = Game.new(["Ada", "Brok"], 5)
    while not game.state.is_over:
        game.issue(game.legal()[-1] if game.state.phase == "magic" else game.legal()[0])
    text = play.summary(game, tmp_path / "g.dmlog")
    winner = game.state.names[game.state.winners[0]]
    assert text.startswith(winner) and str(tmp_path / "g.dmlog") in text


def test_play_help_shows_the_games_options_then_every_other_command(capsys, monkeypatch):
    """./play --help is the game's help (the wrapper starts the game given options alone):
    its options, then the other commands, named as the wrapper runs them."""

    monkeypatch.setenv("DICE_MINER_PROG", "./play")
    with pytest.raises(SystemExit) as done:
        main(["play", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: ./play [-h]")
    for option in ("--resume LOG", "--solo", "--hotseat", "--bots SPEC", "--seed SEED"):
        assert option in out
    assert "./play COMMAND --help" in out
    for name in ("demo", "serve", "replay", "log", "store"):
        assert re.search(rf"^  {name} +\S", out, re.MULTILINE), name
