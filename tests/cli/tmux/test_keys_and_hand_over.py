"""What a newcomer's full games in tmux found, checked on the screen of a real terminal:
ids a face could be read for, space that took a die, a refusal hidden by the completion
menu, a command's class name in a refusal, no hand-over at one keyboard, and the end of a
solo game that stayed unmarked once undone."""

from __future__ import annotations

import re

from core.game import Game
from tests.support.solo_lines import TO_THE_BEER, TO_THE_END


def typed(term, line: str) -> None:
    term.keys(":")
    term.keys("-l", line)
    term.keys("Enter")


def test_ids_space_refusals_and_the_command_line_on_screen(terminal, tmp_path):
    """Seed 51: die 1 (a 3) may be taken and another die shows a 1."""
    log = tmp_path / "g.dmlog"
    term = terminal("--seed", "51", "--fast", "--bots", "random", "--log", str(log))
    term.wait_for("Choose your hero")
    term.keys("Enter")
    screen = term.wait_for("Take a top die")
    mountain = [line[:39] for line in screen.split("\n")[2:12]]
    ids = re.findall(r"\S+", " ".join(mountain[1::2]))
    assert ids and all(re.fullmatch(r"#\d+", i) for i in ids), mountain  # ids never bare
    seq = Game.load(log).seq

    term.keys("Space")
    term.wait_for("Enter takes the die; space only picks dice")
    assert Game.load(log).seq == seq  # space took nothing

    typed(term, "stop")
    term.wait_for("'stop' is only for the solo game")
    term.keys("r")
    term.wait_for("'refill' is only for the solo game")

    term.keys(":")
    term.keys("-l", "take")
    term.wait_for("take #")  # the completion menu, ids with their #
    term.keys("Enter")
    screen = term.wait_for("take needs a die number")  # not hidden under the menu
    assert ":take" in screen
    term.keys("Escape")

    typed(term, "take 1")
    screen = term.wait_for("Which die? #1 shows a 3 and #")
    assert Game.load(log).seq == seq
    typed(term, "take #1")
    term.wait_for("You took die 1 ")
    term.keys("q")
    term.wait_for("The game is saved in")


def test_hot_seat_says_whose_turn_it_is_and_waits_for_them(terminal):
    term = terminal("--hotseat", "--name", "Ada", "--name", "Bo", "--bots", "1", "--seed", "3")
    screen = term.wait_for("Pass the keyboard to")
    first = re.search(r"Pass the keyboard to (\w+)\.", screen)[1]
    other = "Bo" if first == "Ada" else "Ada"
    assert f"{first}: press Enter to play" in screen
    term.keys("Enter")
    term.wait_for(f"{first}: Choose your hero")
    term.keys("1")
    screen = term.wait_for(f"Pass the keyboard to {other}.")
    assert f"{other}'s hero choice" in screen
    term.keys("Enter")
    term.wait_for(f"{other}: Choose your hero")
    term.keys("q")
    term.wait_for("The game is saved in")


def test_an_undone_end_of_a_solo_game_is_shown_undone(terminal, tmp_path):
    log = tmp_path / "solo.dmlog"
    term = terminal("--solo", "--practice", "--seed", "5", "--log", str(log))
    term.wait_for("Trove")
    for line in (*TO_THE_BEER, *TO_THE_END):
        # the ids as typed here: "#3", never a bare 3 that a tunnel's face shows too
        typed(term, re.sub(r"^take (\d+)", r"take #\1", line))
    screen = term.wait_for("Game over")
    term.keys("u")
    screen = term.wait_for("(undone)")
    ended = [line for line in screen.split("\n") if "nothing more" in line]
    assert ended and all("(undone)" in line for line in ended), screen
