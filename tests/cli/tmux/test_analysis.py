"""The hint key and the review after the game, on a real terminal (tmux), with few sampled
futures (``play --samples``) so that each takes a moment."""

from __future__ import annotations

import re
import shlex
import sys

from core.analysis import ANALYSIS_VERSION
from core.game import Game
from tests.support.games import play
from tests.support.tmux import Terminal
from tests.support.tui import SEATS


def test_the_hint_key_shows_the_best_moves_and_a_move_drops_them(terminal):
    term = terminal("--seed", "7", "--fast", "--bots", "random", "--samples", "16")
    term.wait_for("Choose your hero")
    term.keys("t")
    screen = term.wait_for("your best moves")
    assert re.search(r"1\. choose the [A-Za-z ]+  \d+% to win  \(:hero ", screen), screen
    term.keys("3")
    screen = term.wait_for("Take a top die")
    assert "your best moves" not in screen  # the move dropped it
    term.keys("t")
    screen = term.wait_for("your best moves")
    assert re.search(
        r"1\. take die \d+ \(.*\) from row \d, col \d  \d+% to win  \(:take #\d+\)", screen
    )
    assert " t  hide the hint " in screen
    term.keys("Enter")
    term.wait_for("You took die")
    assert "your best moves" not in term.screen()
    term.keys("q")
    term.wait_for("The game is saved in")


def test_the_review_after_the_game_steps_through_the_mistakes(tmp_path):
    log = tmp_path / "done.dmlog"
    game = play(Game.new([s.name for s in SEATS], 11, log=log))
    game.close()
    argv = [sys.executable, "-m", "frontends.cli", "play", "--resume", str(log), "--samples", "8"]
    term = Terminal(shlex.join(argv), {"XDG_DATA_HOME": str(tmp_path)})
    try:
        screen = term.wait_for("Game over")
        assert "v: review the game" in screen
        term.keys("v")
        screen = term.wait_for("Review 1/", timeout=60)
        assert re.search(r"You: accuracy [\d.]+ over \d+ choices", screen)
        assert (
            "played: " in screen and "best:   " in screen and "points of win chance lost" in screen
        )
        steps = int(re.search(r"Review 1/(\d+)", screen)[1])
        assert steps > 1
        term.keys("Right")
        screen = term.wait_for("Review 2/")
        term.keys("Left")
        term.wait_for("Review 1/")
        for _ in range(steps):
            term.keys("Right")
        screen = term.wait_for(f"Review {steps}/{steps}")
        assert "Cira" in screen.split(f"Review {steps}/{steps}")[1].split("\n")[0]  # the last seat
        term.keys("Escape")
        screen = term.wait_for("v: review the game")
        assert "Review " not in screen
        term.keys("q")
        term.wait_for("wins")
        kept = f"done.dmlog.analysis-v{ANALYSIS_VERSION}-*.json"
        assert list(tmp_path.glob(kept))  # kept beside the log
    finally:
        term.close()
