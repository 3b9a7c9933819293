"""Small terminals in tmux: at 60x20 the totals and every key of the help stay on screen
and a refused command line never leaves "Window too small"; at 70x22 the review after
the game is drawn."""

from __future__ import annotations

import re
import shlex
import sys

from core.game import Game
from tests.support.games import play as play_out
from tests.support.tmux import Terminal
from tests.support.tui import SEATS


def play(tmp_path, *argv: str, width: int, height: int) -> Terminal:
    command = shlex.join([sys.executable, "-m", "frontends.cli", "play", *argv])
    return Terminal(command, {"XDG_DATA_HOME": str(tmp_path)}, width=width, height=height)


def test_at_60_by_20_the_totals_the_help_and_a_refusal_all_show(tmp_path):
    log = str(tmp_path / "g.dmlog")
    term = play(tmp_path, "--seed", "3", "--fast", "--bots", "random", "--log", log,
                "--samples", "8", width=60, height=20)  # fmt: skip
    try:
        term.wait_for("Choose your hero")
        term.keys("Enter")
        screen = term.wait_for("Take a top die")
        assert re.search(r"Scores +Total", screen)
        for name in ("You", "Brok", "Cira"):
            assert re.search(rf"[ ▶]{name} +0\b", screen), screen  # each seat's total
        assert "Troves" in screen and "Mountain" in screen

        term.keys("?")
        screen = term.wait_for("Enter or Esc closes this help.")
        for words in ("move over the dice", "share a beer", "undo your move", "the rules",
                      "type a command", "quit: the log keeps the game"):  # fmt: skip
            assert words in screen, words
        assert "┐" in screen.split("\n")[0] or "┌" in screen  # the box is whole
        box = [line for line in screen.split("\n") if "│" in line]
        assert all(line.rstrip().endswith("│") or line.rstrip()[-2] == "│" for line in box)
        term.keys("Escape")

        # a hint takes the troves' rows: there is no room for both
        term.keys("t")
        screen = term.wait_for("(:take #", timeout=60)
        assert "your best moves" in screen and "Mountain" in screen
        term.keys("t")
        term.wait_for("Troves")

        # a line that does not parse wraps the status line to two rows while the command
        # line is open: the screen gives up its event rows, never the whole game
        term.keys(":")
        term.keys("-l", "dig")
        term.keys("Enter")
        screen = term.wait_for("try one of")
        lines = screen.split("\n")
        status = next(n for n, line in enumerate(lines) if "unknown command" in line)
        assert "undo" in lines[status + 1] and lines[status + 2].startswith(":dig")  # wrapped
        assert "Window too small" not in screen and "Mountain" in screen
        term.keys("Escape", "q")
        term.wait_for("The game is saved in")
    finally:
        term.close()


def test_at_70_by_22_the_review_is_drawn(tmp_path):
    log = tmp_path / "done.dmlog"
    play_out(Game.new([s.name for s in SEATS], 11, log=log)).close()
    term = play(tmp_path, "--resume", str(log), "--samples", "8", width=70, height=22)
    try:
        screen = term.wait_for("Game over")
        assert "Window too small" not in screen and "Final scores" in screen
        term.keys("v")
        screen = term.wait_for("Review 1/", timeout=60)
        assert "Window too small" not in screen
        assert "played: " in screen and "best:   " in screen
        assert "Mountain" in screen or "trove" in screen  # the board shows the step
        assert all(len(line) <= 70 for line in screen.split("\n"))
        term.keys("Right")
        term.wait_for("Review 2/")
        term.keys("Escape", "q")
        term.wait_for("wins")
    finally:
        term.close()


def test_at_60_by_20_the_solo_score_keeps_its_points(tmp_path):
    log = str(tmp_path / "s.dmlog")
    term = play(tmp_path, "--solo", "--seed", "4", "--log", log, width=60, height=20)
    try:
        screen = term.wait_for("Score so far")
        for words in ("hazards", "treasure", "frozen x2", "runs to 5", "total"):
            assert re.search(rf"│   {re.escape(words)} +0$", screen, re.MULTILINE), words
        term.keys("q")
        term.wait_for("The game is saved in")
    finally:
        term.close()
