"""``dice-miner play`` in a real terminal: tmux runs it, sends keys and captures the screen."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys

import pytest

from core.bots import make_bot
from core.bots.play import bot_command
from core.branch import write_branch
from core.commands import TakeDie
from core.game import Game
from core.projections.state import EXCAVATION
from core.verify import rerun
from tests.support.tmux import Terminal


def locate(screen: str, text: str, rows, columns: int) -> tuple[int, int]:
    """The (column, row) of ``text`` as a whole word within the given rows and columns."""
    lines = screen.split("\n")
    for y in rows:
        match = re.search(rf"(?<![0-9]){re.escape(text)}(?![0-9])", lines[y][:columns])
        if match:
            return match.start(), y
    raise AssertionError(f"{text!r} is not on the screen where expected:\n{screen}")


def test_play_in_tmux_shows_the_board_takes_refuses_undoes_and_quits(terminal, tmp_path):
    """The screen a newcomer sees, a take, a refused command, an undo, and a clean quit."""
    log = tmp_path / "game.dmlog"
    term = terminal("--seed", "7", "--fast", "--bots", "random", "--log", str(log))

    screen = term.wait_for("Choose your hero")
    assert "DICE MINER" in screen and "Your hero choice" in screen
    for hero in ("Alchemist", "Dragon Slayer", "Engineer", "Prospector", "Surveyor", "Treasurer"):
        assert hero in screen
    assert "You" in screen and "Brok" in screen and "Cira" in screen

    term.keys("3")  # the Engineer
    screen = term.wait_for("Take a top die")
    assert "Mountain" in screen and "Engineer" in screen and "Events" in screen
    keybar = screen.rstrip("\n").split("\n")[-1]
    assert "Enter" in keybar and "take" in keybar  # the keys that work now
    assert "undo" not in keybar  # not yet: the mountain was rolled since the hero choice
    coloured = term.screen(colours=True)
    assert "\x1b[" in coloured and "48;5;" in coloured  # dice drawn on coloured backgrounds

    term.keys("Enter")
    screen = term.wait_for("You took die")
    assert " u  undo" in screen.rstrip("\n").split("\n")[-1]  # the take can be undone

    term.keys(":")
    term.keys("-l", "take 99")
    term.keys("Enter")
    screen = term.wait_for("there is no die 99")
    assert "You took die" in screen  # the refused command changed nothing

    term.keys("u")
    screen = term.wait_for("Undid")
    assert "undone: You took die" in screen

    # a mouse click (SGR report, as a terminal sends it) on the id of a die that may be taken
    die = next(c.die for c in Game.load(log).legal() if isinstance(c, TakeDie))
    x, y = locate(screen, str(die), rows=(3, 5, 7, 9, 11), columns=40)
    term.keys("-l", f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m")
    term.wait_for(f"You took die {die} ")

    term.keys("q")
    screen = term.wait_for("The game is saved in")
    assert "dice-miner play --resume" in screen
    game = Game.load(log)
    assert game.state.heroes[0] == "Engineer"
    assert game.state.troves[0] == (die,)  # the first take was undone, the click took this one


def test_play_in_tmux_at_80_by_24_still_shows_the_essentials(tmp_path):
    """The smallest supported terminal keeps the mountain, the scores, the troves and the keys."""
    argv = ["--seed", "3", "--fast", "--bots", "random", "--log", str(tmp_path / "g.dmlog")]
    command = shlex.join([sys.executable, "-m", "frontends.cli", "play", *argv])
    term = Terminal(command, {"XDG_DATA_HOME": str(tmp_path)}, width=80, height=24)
    try:
        term.wait_for("Choose your hero")
        term.keys("1")
        screen = term.wait_for("Take a top die")
        lines = screen.split("\n")
        assert len(lines) >= 24
        for needle in ("Mountain", "Scores", "Troves", "Events", "Enter", "quit"):
            assert needle in screen
        # a refusal longer than the screen is wide wraps, to be read whole
        side_die = Game.load(tmp_path / "g.dmlog").state.mountain[0]  # slot (0, 0)
        term.keys(":")
        term.keys("-l", f"take {side_die}")
        term.keys("Enter")
        screen = term.wait_for("beer)", timeout=10)
        assert f"die {side_die} is covered" in screen
        # a line that does not parse says why, and stays open to be corrected
        term.keys(":")
        term.keys("-l", "take abc")
        term.keys("Enter")
        screen = term.wait_for("the die must be a number, not 'abc'", timeout=10)
        assert ":take abc" in screen
        term.keys("Escape")
        term.keys("C-c")
        term.wait_for("The game is saved in")
    finally:
        term.close()


def test_play_in_tmux_with_ascii_draws_only_ascii_even_in_boxes(terminal):
    """--ascii: the board, the help box and a menu's box in plain ASCII."""
    term = terminal("--seed", "5", "--fast", "--solo", "--ascii")
    screen = term.wait_for("Trove")
    assert screen.isascii()
    term.keys("?")
    screen = term.wait_for("Keys")
    assert screen.isascii() and "+---" in screen
    term.keys("Escape")
    term.keys("m")  # a menu: which magic die to spend
    screen = term.wait_for("Spend which magic die")
    assert screen.isascii()
    term.keys("q")
    term.wait_for("The game is saved in")


def test_play_resumes_a_what_if_branch_and_undo_stops_at_its_branch_point(terminal, tmp_path):
    """``./play --resume`` plays a branch like any game; undo never reaches the parent's moves."""
    parent, branch = tmp_path / "game.dmlog", tmp_path / "what-if.dmlog"
    with Game.new(["You", "Brok (greedy)"], seed=7, log=parent, sync=False) as game:
        bot = make_bot("greedy")
        while game.seq < 12 or game.state.phase != EXCAVATION or game.to_act() != 0:
            game.issue(bot_command(game, bot))
        at = game.seq
    write_branch(parent, branch, at, "same", sync=False)

    term = terminal("--resume", str(branch), "--fast")
    screen = term.wait_for("Take a top die")
    assert "Branched from another game" in screen
    term.keys("u")
    term.wait_for("There is nothing of yours to undo")
    term.keys("Enter")
    term.wait_for("You took die")
    term.keys("u")
    term.wait_for("Undid")
    term.keys("u")
    term.wait_for("There is nothing of yours to undo")
    term.keys("q")
    term.wait_for("The game is saved in")
    game = Game.load(branch)
    assert game.seq > at + 1 and type(game.timeline.top.command).__name__ == "BranchGame"
    assert rerun(game.batches()) is None


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_a_kill_or_a_closed_terminal_gives_the_terminal_back(terminal, tmp_path, signame):
    """`kill` (SIGTERM) or the terminal closing (SIGHUP) leaves the game as `q` does: the
    screen back as it was, the way to continue printed, no traceback (the game's mode
    was left on the terminal before)."""
    log = tmp_path / "game.dmlog"
    term = terminal("--seed", "7", "--fast", "--bots", "random", "--log", str(log))
    term.wait_for("Choose your hero")
    assert term.tmux("display-message", "-p", "-t", "play", "#{alternate_on}").strip() == "1"
    pane = int(term.tmux("display-message", "-p", "-t", "play", "#{pane_pid}").strip())
    program = pane  # the shell tmux started may have run the program as its child
    with open(f"/proc/{pane}/comm") as comm:
        if "python" not in comm.read():
            program = int(
                subprocess.run(
                    ["pgrep", "-P", str(pane)], capture_output=True, text=True
                ).stdout.split()[0]
            )
    os.kill(program, getattr(signal, signame))
    said = term.wait_for("Continue it with")
    assert "Traceback" not in term.history() and str(log) in said.replace("\n", "")
    assert term.tmux("display-message", "-p", "-t", "play", "#{alternate_on}").strip() == "0"
