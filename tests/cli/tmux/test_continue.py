"""Coming back to a game in a real terminal: a plain ``play`` offers the last unfinished
game of the data folder, and ``--resume last`` continues it without its path."""

from __future__ import annotations

import os
import shlex
import sys
import time

from core.game import Game
from frontends.cli.saved import data_dir
from tests.support.tmux import Terminal

NAMES = ["You", "Brok (random)", "Cira (random)"]


def logged_game(folder, name: str, *, finished: bool = False, seed: int = 11):
    """A game of the data folder: heroes chosen (unfinished) or played to its end."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    game = Game.new(NAMES, seed, log=path)
    while not game.state.is_over and (finished or game.state.phase == "setup"):
        game.issue(game.legal()[-1] if game.state.phase == "magic" else game.legal()[0])
    game.close()
    return path


def test_play_offers_the_last_unfinished_game_and_continues_it(terminal, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    folder = data_dir()
    older = logged_game(folder, "game-old.dmlog", seed=3)
    wanted = logged_game(folder, "game-wanted.dmlog", seed=11)
    done = logged_game(folder, "game-done.dmlog", finished=True, seed=5)
    now = time.time()
    os.utime(older, (now - 300, now - 300))
    os.utime(wanted, (now - 200, now - 200))
    os.utime(done, (now - 100, now - 100))  # newest, but over: not offered
    seq = Game.load(wanted).seq

    term = terminal("--fast")
    screen = term.wait_for("Continue it? [Y/n]")
    assert "Your last game is not finished: round 1 of 3, You against Brok and Cira" in screen
    # the log's path may be wrapped (a temporary folder is longer under pytest-xdist)
    assert "game-wanted.dmlog" in screen.replace("\n", "")
    term.keys("Enter")
    screen = term.wait_for("Take a top die")
    assert "game-wanted.dmlog" in screen.replace("\n", "")  # the event lines say which log
    term.keys("q")
    screen = term.wait_for("--resume last")
    assert Game.load(wanted).seq >= seq
    assert sorted(p.name for p in folder.iterdir()) == [
        "game-done.dmlog",
        "game-old.dmlog",
        "game-wanted.dmlog",
    ]  # fmt: skip  (no new game was started)


def test_resume_last_continues_it_and_no_starts_a_new_game(terminal, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    folder = data_dir()
    wanted = logged_game(folder, "game-wanted.dmlog", seed=11)

    term = terminal("--fast", "--resume", "last")
    screen = term.wait_for("Take a top die")
    assert "game-wanted.dmlog" in screen and "seed 11" in screen
    term.keys("q")
    term.wait_for("The game is saved in")

    term = terminal("--fast")
    term.wait_for("Continue it? [Y/n]")
    term.keys("x", "Enter")
    term.wait_for("Answer y (continue it) or n (a new game).")
    term.keys("n", "Enter")
    term.wait_for("Choose your hero")  # a new game, with its own log
    term.keys("q")
    term.wait_for("The game is saved in")
    assert len(list(folder.glob("*.dmlog"))) == 2
    assert Game.load(wanted).state.phase != "setup"


def test_resume_last_with_nothing_to_continue_says_so(tmp_path):
    # the status is said by the shell that ran it: tmux marks the pane dead on the
    # terminal's end, and under load had not recorded the status 10 s later ("?")
    play = shlex.join([sys.executable, "-m", "frontends.cli", "play", "--resume", "last"])
    term = Terminal(f"{play}; echo exit status $?", {"XDG_DATA_HOME": str(tmp_path / "data")})
    try:
        term.wait_for("exit status ")
        said = term.history().replace("\n", "")  # the message is wider than the pane
        assert "there is no unfinished game in" in said and "start one with" in said
        assert "exit status 2" in said
    finally:
        term.close()
