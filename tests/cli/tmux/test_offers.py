"""Only what can be done is offered, in tmux: a fresh ':' line after a refused one, the undo
key only while an undo would be taken, and a game whose dice are a web host's secret shown
with no move offered and the reason said."""

from __future__ import annotations

import os
import re

from core.game import Game
from core.mountain import slot_index


def key_bar(screen: str) -> str:
    return screen.rstrip("\n").split("\n")[-1]


def test_a_colon_on_a_refused_line_starts_a_fresh_one(terminal, tmp_path):
    log = tmp_path / "g.dmlog"
    term = terminal("--seed", "7", "--fast", "--bots", "random", "--log", str(log))
    term.wait_for("Choose your hero")
    term.keys("Enter")
    term.wait_for("Take a top die")
    term.keys(":")
    term.keys("-l", "take abc")
    term.keys("Enter")
    screen = term.wait_for("the die must be a number")
    assert ":take abc" in screen  # kept, to be corrected
    term.keys(":")  # as if it had closed: a new line, not ':take abc:'
    term.keys("-l", "take #")
    screen = term.wait_for("take #\n")  # typed on a line of its own
    assert ":take abc" not in screen and "abc:" not in screen
    term.keys("Escape", "q")
    term.wait_for("The game is saved in")


def test_the_undo_key_shows_only_while_an_undo_would_be_taken(terminal, tmp_path):
    log = tmp_path / "g.dmlog"
    term = terminal("--seed", "7", "--fast", "--bots", "random", "--log", str(log))
    screen = term.wait_for("Choose your hero")
    assert "undo" not in key_bar(screen)  # nothing of yours yet
    term.keys("Enter")
    screen = term.wait_for("Take a top die")
    assert "undo" not in key_bar(screen)  # the mountain was rolled since the hero choice
    term.keys("u")
    screen = term.wait_for("✗")  # pressed all the same: it says why
    seq = Game.load(log).seq
    term.keys("Enter")
    screen = term.wait_for("You took die")
    assert " u  undo" in key_bar(screen)
    term.keys("u")
    screen = term.wait_for("Undid")
    assert Game.load(log).seq > seq  # the undo is logged
    term.keys("q")
    term.wait_for("The game is saved in")


def test_a_secret_seed_game_is_shown_with_no_moves_offered_and_why(terminal, tmp_path):
    """A web game between people draws its dice from a secret its host keeps: the
    terminal cannot roll them, so it shows the game and says so, offering no move."""
    log = tmp_path / "web.dmlog"
    names = ["Ada", "Brok (random)", "Cira (random)"]
    Game.new(names, secret=os.urandom(32), log=log).close()
    size = log.stat().st_size
    term = terminal("--resume", str(log), "--fast")
    screen = term.wait_for("not played on")
    bar = key_bar(screen)
    assert "choose" not in bar and "pick" not in bar and "undo" not in bar
    assert "help" in bar and "quit" in bar
    term.keys("Enter", "1", "u")
    term.keys(":")
    term.keys("-l", "hero Alchemist")
    term.keys("Enter")
    screen = term.wait_for("✗")
    assert "not played on" in screen
    assert "Traceback" not in term.history() and "Unhandled exception" not in term.history()
    term.keys("q")
    term.wait_for("was only shown here")
    assert log.stat().st_size == size  # nothing was written to it


def test_the_board_numbers_its_rows_and_columns_as_the_events_name_them(terminal, tmp_path):
    log = tmp_path / "g.dmlog"
    term = terminal("--seed", "3", "--fast", "--bots", "random", "--log", str(log))
    term.wait_for("Choose your hero")
    term.keys("Enter")
    screen = term.wait_for("Take a top die")
    lines = screen.split("\n")
    assert [line[:2] for line in lines[2:12:2]] == ["r4", "r3", "r2", "r1", "r0"]
    assert all(f"c{c}" in lines[12] for c in range(6))
    term.keys("Right")  # the cursor onto the top row's second die
    screen = term.wait_for("row 4, col 1]")
    found = re.search(r"\[die (\d+) \([^)]*\), row (\d), col (\d)\]", screen)
    assert found, screen
    die, row, col = map(int, found.groups())
    assert Game.load(log).state.mountain[slot_index(row, col)] == die
    ids = screen.split("\n")[2 + 2 * (4 - row) + 1][:39].split()
    assert ids[col] == f"#{die}"  # the col-th id of the row labelled r{row}
    term.keys("Enter")
    term.wait_for(f"You took die {die} ")
    assert f"from row {row}, col {col}" in " ".join(term.screen().split())
    term.keys("q")
    term.wait_for("The game is saved in")
