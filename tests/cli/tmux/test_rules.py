"""The rules on screen (R), in a real terminal: the ones a newcomer cannot guess from the
board, in the words of docs/RULES.md, a page at a time even on a small screen."""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

import pytest

from frontends.cli.tui import rules_view
from frontends.rules_explained import MULTI_RULES, SOLO_RULES
from tests.support.tmux import Terminal

RULES_MD = (Path(__file__).resolve().parents[3] / "docs" / "RULES.md").read_text()


def test_the_rules_quote_docs_rules_md_on_what_players_trip_on():
    words = " ".join(text for _, text in MULTI_RULES + SOLO_RULES)
    for phrase in (
        "highest starts, beer beats 5",
        "only a player who shared a beer this turn may take side dice",
        "whether to freeze it on a chest: a tool die showing K chests can hold K frozen",
        "the diagonal run resting on its covered side slides down one step",
        "Starting dice rolled to beer are not wild",
    ):
        assert phrase in words
        assert phrase.lower() in " ".join(RULES_MD.lower().replace("**", "").split())
    # the hazard formula, as RULES.md writes it (in ASCII on the terminal)
    formula = "(P > 0 ? P x C : -C) + (S > 0 ? S x D : -D)"
    assert formula in words
    assert formula.replace(" x ", " \u00d7 ").replace("-", "\u2212") in RULES_MD


@pytest.mark.parametrize("solo", [False, True])
@pytest.mark.parametrize(("columns", "rows"), [(60, 20), (80, 24), (120, 40)])
def test_every_topic_is_on_a_page_whole_and_each_page_fits(solo, columns, rows):
    book = rules_view.pages(solo, columns, rows)
    lines = [text for page in book for _, text in page]
    for page in book:
        assert len(page) <= rows - rules_view.CHROME
        assert all(len(text) <= rules_view.page_width(columns) for _, text in page)
    for title, text in SOLO_RULES if solo else MULTI_RULES:
        assert f" {title}" in lines
        assert " ".join(" ".join(lines).split()).count(" ".join(text.split())) == 1


def box_text(screen: str) -> str:
    """The words inside the box drawn on the screen, its wrapped lines joined."""
    lines = screen.split("\n")
    top = next(line for line in lines if "┌" in line)
    left, right = top.index("┌"), top.rindex("┐")
    inside = [line[left + 1 : right] for line in lines if len(line) > right]
    return " ".join(" ".join(inside).split())


def read_every_page(term, key: str) -> str:
    """Each rules page in turn, to the last, as one text."""
    seen = box_text(term.wait_for("page 1 of"))
    last = int(seen.split("page 1 of ")[1].split()[0])
    for n in range(2, last + 1):
        term.keys(key)
        seen += " " + box_text(term.wait_for(f"page {n} of {last}"))
    return seen


def wait_closed(term, timeout: float = 10.0) -> str:
    """The screen once the rules box is gone."""
    deadline = time.monotonic() + timeout
    while "| Rules |" in (screen := term.screen()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "| Rules |" not in screen, screen
    return screen


def play(*argv: str, width: int, height: int, tmp_path) -> Terminal:
    command = shlex.join([sys.executable, "-m", "frontends.cli", "play", *argv])
    return Terminal(command, {"XDG_DATA_HOME": str(tmp_path)}, width=width, height=height)


def test_r_shows_the_rules_a_page_at_a_time_at_60_by_20(tmp_path):
    log = str(tmp_path / "g.dmlog")
    term = play("--seed", "3", "--fast", "--bots", "random", "--log", log, width=60, height=20,
                tmp_path=tmp_path)  # fmt: skip
    try:
        term.wait_for("Choose your hero")
        term.keys("R")
        screen = term.wait_for("Who starts")
        assert "beer beats 5" in screen and "page 1 of" in screen and "next page" in screen
        seen = read_every_page(term, "Right")
        for title, text in MULTI_RULES:  # every rule, whole, in the box
            assert title in seen and " ".join(text.split()) in seen
        screen = term.screen()
        assert "← back · Esc closes" in screen and "→ next" not in screen  # the last page
        term.keys("Escape")
        assert "Choose your hero" in wait_closed(term)
        # the help says where the rules are; ':rules' opens them too
        term.keys("?")
        term.wait_for("the rules, explained a page at a time")
        term.keys("Escape", ":")
        term.keys("-l", "rules")
        term.keys("Enter")
        term.wait_for("Who starts")
        term.keys("Escape", "q")
        term.wait_for("The game is saved in")
    finally:
        term.close()


def test_the_solo_game_explains_freezing_and_wild_beer(tmp_path):
    log = str(tmp_path / "s.dmlog")
    term = play("--solo", "--seed", "4", "--log", log, width=80, height=24, tmp_path=tmp_path)
    try:
        term.wait_for("Trove")
        term.keys("R")
        term.wait_for("Top dice only")
        seen = read_every_page(term, "Enter")
        assert "whether to freeze it on a chest" in seen and "Beer is wild" in seen
        term.keys("Enter")  # Enter on the last page closes the rules
        assert "Take a top die" in wait_closed(term)
        term.keys("q")
        term.wait_for("The game is saved in")
    finally:
        term.close()
