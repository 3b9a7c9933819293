"""The terminal's words about logs: what is wrong with a ``--log`` or a ``--resume``, and
hints that name a command the user has (``./play ...`` through the wrapper, else
``dice-miner ...``), proven through the real wrapper script and a real terminal."""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from core.game import Game
from frontends.cli import play
from frontends.cli.launcher import PROG_VARIABLE, command
from frontends.cli.main import build_parser
from frontends.cli.tui.session import Session
from tests.support.cli_helpers import game_with_undo

REPO = Path(__file__).resolve().parents[2]
TMUX = shutil.which("tmux")


def options(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["play", *argv])


@pytest.fixture
def installed(monkeypatch):
    """Run as the installed ``dice-miner`` (not through ``./play``)."""
    monkeypatch.delenv(PROG_VARIABLE, raising=False)


@pytest.fixture
def wrapper(monkeypatch):
    """Run through the repository's wrapper, started as ``./play``."""
    monkeypatch.setenv(PROG_VARIABLE, "./play")


def torn_log(tmp_path: Path) -> Path:
    path = tmp_path / "torn.dmlog"
    game_with_undo(path).close()
    with open(path, "r+b") as f:
        f.truncate(path.stat().st_size - 5)
    return path


# -- the command a hint names --------------------------------------------------------


def test_hints_name_dice_miner_when_installed(installed) -> None:
    assert command("play", "--resume", "/g/a.dmlog") == "dice-miner play --resume /g/a.dmlog"
    assert command("log", "repair", "my game.dmlog") == "dice-miner log repair 'my game.dmlog'"


def test_hints_name_the_wrapper_as_it_was_typed(monkeypatch) -> None:
    monkeypatch.setenv(PROG_VARIABLE, "./play")
    assert command("play", "--resume", "/g/a.dmlog") == "./play --resume /g/a.dmlog"
    assert command("log", "repair", "a.dmlog") == "./play log repair a.dmlog"
    assert command("demo") == "./play demo"
    monkeypatch.setenv(PROG_VARIABLE, "/home/me/dice miner/play")
    assert command("play", "--resume", "a.dmlog") == "'/home/me/dice miner/play' --resume a.dmlog"


# -- --log ---------------------------------------------------------------------------


def test_a_folder_given_as_the_log_is_called_a_folder(tmp_path: Path) -> None:
    with pytest.raises(play.PlayError) as info:
        play.start(options("--log", str(tmp_path), "--seed", "1"))
    message = str(info.value)
    assert message.startswith(f"{tmp_path} is a folder;") and "already exists" not in message
    assert str(tmp_path / "game.dmlog") in message  # what to give instead
    assert list(tmp_path.iterdir()) == []


def test_a_log_in_a_missing_folder_says_the_folder_does_not_exist(tmp_path: Path) -> None:
    missing = tmp_path / "missing" / "dir"
    with pytest.raises(play.PlayError) as info:
        play.start(options("--log", str(missing / "x.dmlog"), "--seed", "1"))
    assert str(info.value) == (
        f"cannot log the game to {missing / 'x.dmlog'}: the folder {missing} does not exist"
    )
    assert "lock" not in str(info.value)
    (tmp_path / "file").write_text("")
    with pytest.raises(play.PlayError, match=r"the folder .*file is not a folder"):
        play.start(options("--log", str(tmp_path / "file" / "x.dmlog"), "--seed", "1"))


def test_an_existing_log_names_the_command_that_continues_it(tmp_path: Path, wrapper) -> None:
    log = tmp_path / "g.dmlog"
    Game.new(["Ada", "Brok"], 1, log=log).close()
    with pytest.raises(play.PlayError) as info:
        play.start(options("--log", str(log), "--seed", "1"))
    assert str(info.value).endswith(f"continue the game it holds with: ./play --resume {log}")


# -- --resume ------------------------------------------------------------------------


@pytest.mark.parametrize(("env", "repair"), [(None, "dice-miner log"), ("./play", "./play log")])
def test_resuming_a_torn_log_points_to_log_repair(tmp_path, monkeypatch, env, repair) -> None:
    if env is None:
        monkeypatch.delenv(PROG_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(PROG_VARIABLE, env)
    path = torn_log(tmp_path)
    with pytest.raises(play.PlayError) as info:
        play.start(options("--resume", str(path)))
    message = str(info.value)
    assert "incomplete final record" in message
    assert f"with: {repair} repair {path}\n" in message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["torn.dmlog"]  # nothing left


def test_resuming_something_that_is_not_a_log_leaves_nothing_beside_it(tmp_path: Path) -> None:
    """The review's ``./play --resume README.md`` left ``README.md.lock`` behind."""
    readme = tmp_path / "README.md"
    readme.write_text("# Dice Miner\n")
    with pytest.raises(play.DiceMinerError, match="not a Dice Miner log"):
        play.start(options("--resume", str(readme)))
    assert [p.name for p in tmp_path.iterdir()] == ["README.md"]


def test_resuming_a_game_open_elsewhere_says_so(tmp_path: Path) -> None:
    log = tmp_path / "g.dmlog"
    held = Game.new(["Ada", "Brok"], 1, log=log)
    with held, pytest.raises(play.PlayError, match=r"is being written by .*open elsewhere"):
        play.start(options("--resume", str(log)))


def test_resuming_a_finished_game_opens_its_log_read_only(tmp_path: Path) -> None:
    """``u`` on a finished sample of ``replays/`` once appended an undo to a tracked file."""
    log = tmp_path / "finished.dmlog"
    shutil.copyfile(REPO / "replays" / "two-players.dmlog", log)
    before = log.read_bytes()
    game, seats, _, _ = play.start(options("--resume", str(log)))
    with game:
        assert game.state.is_over
        session = Session(game, seats, log, read_only=game.state.is_over)
        assert session.undo() is False
        assert "read-only" in session.status
        assert game.state.is_over
        held = Game.open(log)  # nobody holds its writer's lock
        held.close()
    assert log.read_bytes() == before


# -- after the game --------------------------------------------------------------------


def test_the_last_words_say_you_win_not_you_wins(tmp_path) -> None:
    from core.bots import make_bot
    from core.bots.play import play_game

    game = Game.new(["You", "Brok (random)"], 0)
    assert play_game(game, [make_bot("greedy"), make_bot("random")]).winners == (0,)
    said = play.summary(game, tmp_path / "g.dmlog")
    assert said.startswith("You win (You ") and "wins" not in said


def test_the_quit_message_names_the_command_the_user_has(tmp_path, monkeypatch) -> None:
    game = Game.new(["You", "Brok (random)"], 3)
    path = tmp_path / "g.dmlog"
    monkeypatch.delenv(PROG_VARIABLE, raising=False)
    assert play.summary(game, path).endswith(f"Continue it with: dice-miner play --resume {path}")
    monkeypatch.setenv(PROG_VARIABLE, "./play")
    assert play.summary(game, path).endswith(f"Continue it with: ./play --resume {path}")


# -- the wrapper sets the variable -----------------------------------------------------


def executable(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A copy of ``./play`` with a set-up ``.venv`` whose ``dice-miner`` is this checkout's
    code (so the wrapper runs for real, without installing anything)."""
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(REPO / "scripts" / "setup.sh", repo / "scripts")
    shutil.copy(REPO / "play", repo)
    (repo / "pyproject.toml").write_text("")
    (repo / ".venv" / "bin").mkdir(parents=True)
    (repo / ".venv" / "bin" / "python").symlink_to(sys.executable)
    (repo / ".venv" / ".installed").touch()  # not older than pyproject.toml: no pip run
    executable(
        repo / ".venv" / "bin" / "dice-miner",
        f"#!/bin/sh\nPYTHONPATH={shlex.quote(str(REPO))} "
        f'exec {shlex.quote(sys.executable)} -m frontends.cli "$@"\n',
    )
    return repo


@pytest.mark.parametrize(
    ("argv", "cwd", "prog"),
    [
        (["./play"], "repo", "./play"),
        (["bash", "play"], "repo", "./play"),
        (["repo/play"], ".", "repo/play"),
        (["{repo}/play"], "/", "{repo}/play"),
    ],
)
def test_the_wrapper_tells_the_program_how_it_was_typed(checkout, argv, cwd, prog) -> None:
    """``./play demo`` without a terminal: the refusal's hint is typed as the user typed."""
    home = checkout.parent
    argv = [a.format(repo=checkout) for a in argv]
    done = subprocess.run(
        [*argv, "--seed", "1"],
        cwd=home / cwd,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        text=True,
        timeout=60,
        env={**os.environ, "XDG_DATA_HOME": str(home / "data")},
    )
    assert done.returncode == 2, done.stderr
    expected = shlex.join([prog.format(repo=checkout), "demo"])
    assert f"play needs a terminal; '{expected}' shows a game without one" in done.stderr


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
@pytest.mark.tmux
def test_quitting_a_game_started_with_play_names_play_in_a_real_terminal(checkout) -> None:
    """The real ``./play`` in tmux: the quit message says ``./play --resume``, which works
    from where the user typed ``./play``, not ``dice-miner``, which may not be installed."""
    from tests.support.tmux import Terminal

    log = checkout.parent / "game.dmlog"
    line = f"cd {shlex.quote(str(checkout))} && ./play --seed 7 --fast --bots random --log {log}"
    term = Terminal(line, {"XDG_DATA_HOME": str(checkout.parent / "data")}, width=250)
    try:
        term.wait_for("Choose your hero")
        term.keys("q")
        screen = term.wait_for("Continue it with")
        assert f"Continue it with: ./play --resume {log}" in screen
        assert "dice-miner play --resume" not in screen
    finally:
        term.close()
