"""What playing whole solo games in both frontends found, each pinned by a test.

Seed 5 is replayed with the same moves in the terminal session and in the pages:
a wild tunnel beer whose options did not say which sequence each face opens or
extends; a recycle picked in the browser in a "wrong" click order that the engine
refused (the terminal puts the set in an order the engine takes); the end of the
game that did not say why it ended nor the rating band's range; and, in the
browser, no way to undo the move that ended a solo game (the terminal has one).
"""

from __future__ import annotations

import time

from flask import request

from core.commands import SpendMagic, TakeDie
from core.game import Game
from core.modes.solo.scoring import solo_score
from core.modes.solo.take import take_event
from core.modes.solo.words import take_choice
from core.rules.legal import legal_commands
from frontends.cli.tui import solo_view
from frontends.cli.tui.session import Session
from frontends.cli.tui.table import Seat
from frontends.web.readmodel import board_view, choices
from tests.support.solo_lines import SEED, TO_THE_BEER, TO_THE_END, played
from tests.support.web_support import LiveServer, api, make_app, wait_until, watched_page


def text_of(fragments) -> str:
    return "".join(f[1] for f in fragments)


# -- what each take option does ------------------------------------------------------


def test_the_terminal_menu_says_which_sequence_each_wild_face_opens_or_extends():
    session = Session(played(*TO_THE_BEER), (Seat("You"),))
    session.chooser.choose(("die", 21))
    labels = [item.label for item in session.chooser.menu.items]
    assert labels == [
        "take die 21 as 1, opening sequence 3",
        "take die 21 as 2, extending sequence 2 to 1-2",
        "take die 21 as 3, extending sequence 1 to 1-2-3",
    ]


def test_the_pages_take_options_say_the_same_as_the_terminal_menu():
    game = played(*TO_THE_BEER)
    options = choices(game.state, 0)["take"]["21"]
    session = Session(game, (Seat("You"),))
    session.chooser.choose(("die", 21))
    assert [o["label"] for o in options] == [item.label for item in session.chooser.menu.items]


def test_every_take_label_names_the_engines_own_assignment():
    """Over random solo games: the sequence, tool and chest a label names are the ones the
    event records once the option is taken, and options of one die never read alike."""
    from core.bots import make_bot
    from core.bots.play import bot_command

    checked = set()
    for seed in (*range(6), 9, 17, 19):  # 9: a wild tool die, 17: a hazard, 19: a chest
        game, bot = Game.new(["You"], seed, mode="solo"), make_bot("random")
        while not game.state.is_over:
            state = game.state
            for die, options in choices(state, 0)["take"].items():
                labels = [o["label"] for o in options]
                assert len(set(labels)) == len(labels), labels
                for option in options:
                    cmd = TakeDie(
                        0,
                        int(die),
                        option["command"].get("as_face"),
                        bool(option["command"].get("freeze")),
                    )
                    event = take_event(state, cmd.die, cmd.as_face, cmd.freeze)
                    assert option["label"].startswith(take_choice(state, event))
                    if event.sequence is not None:
                        assert f"sequence {event.sequence + 1}" in option["label"]
                        checked.add("sequence")
                    if event.tool is not None:
                        assert f"neutralized by die {event.tool}" in option["label"]
                        checked.add("tool")
                    if event.chest is not None:
                        assert f"frozen on the chest of die {event.chest}" in option["label"]
                        checked.add("chest")
            game.issue(bot_command(game, bot))
    assert checked == {"sequence", "tool", "chest"}


# -- recycling -------------------------------------------------------------------------


def test_the_pages_recycle_orders_are_each_a_legal_spend_naming_the_eligible_dice():
    game = played(*TO_THE_BEER, *TO_THE_END[:3])
    spends = {s["die"]: s for s in choices(game.state, 0)["spend"]}
    legal = {c for c in legal_commands(game.state) if isinstance(c, SpendMagic)}
    for die, spend in spends.items():
        assert spend["orders"], die
        assert {d for order in spend["orders"] for d in order} == set(spend["eligible"])
        for order in spend["orders"]:
            assert SpendMagic(0, tuple(order), die=die) in legal
    assert [26, 38, 42] in [sorted(o) for o in spends[54]["orders"]]


# -- the end ----------------------------------------------------------------------------


def test_the_terminal_result_says_why_the_game_ended_and_marks_the_band():
    over = played(*TO_THE_BEER, *TO_THE_END)
    assert over.state.is_over
    shown = text_of(solo_view.result(Session(over, (Seat("You"),))))
    assert "5 points: Disaster" in shown
    assert "You could do nothing more" in shown
    marked = [f[1] for f in solo_view.result(Session(over, (Seat("You"),))) if "reverse" in f[0]]
    assert marked == ["0-14 Disaster"]

    stopped = played(*TO_THE_BEER, "take 21 as 3", "stop")
    assert "You stopped digging." in text_of(solo_view.result(Session(stopped, (Seat("You"),))))


def test_the_bands_are_the_scoring_modules():
    assert solo_view.bands() == [
        "0-14 Disaster",
        "15-30 A brave start",
        "31-45 Improving",
        "46-60 Average",
        "61-70 Excellent",
        "71+ Masterful",
    ]
    over = played(*TO_THE_BEER, *TO_THE_END)
    table = board_view(over.state, over.seq)["table"]
    assert table["solo_score"]["score"] == solo_score(over.state).score
    assert [name for _, name in table["solo_score"]["bands"]] == [
        band.split(" ", 1)[1] for band in solo_view.bands()
    ]


# -- in the browser ---------------------------------------------------------------------


def typed(page, line: str) -> None:
    seq = page.get_attribute("body", "data-rendered-seq")
    page.fill("#typed-input", line)
    page.press("#typed-input", "Enter")
    page.wait_for_selector(f"body:not([data-rendered-seq='{seq}'])", state="attached")


def test_in_the_browser_a_recycle_in_any_click_order_an_explained_end_and_its_undo(page, server):
    game = api(
        server,
        "/api/games",
        {
            "players": [{"name": "You", "bot": None}],
            "mode": "solo",
            "seed": SEED,
            "practice": True,  # the end it undoes came with a refill
        },
    )
    page.goto(server.url + game["seats"][0]["link"])
    page.wait_for_selector("body[data-rendered-seq]", state="attached")
    for line in (*TO_THE_BEER, *TO_THE_END[:3]):
        typed(page, line)
    seq = page.get_attribute("body", "data-rendered-seq")
    page.locator(".player [data-die='54']").click()
    for die in (26, 38, 42):  # the last one first: 26 is uncovered only once 42 and 38 left
        page.locator(f"#mountain [data-die='{die}']").click()
    page.wait_for_selector(f"body:not([data-rendered-seq='{seq}'])", state="attached")
    assert page.locator("#refusal").is_hidden()
    assert "recycle die 42 from row 3, col 1 and die 38" in page.locator("#events").inner_text()

    for line in TO_THE_END[4:]:
        typed(page, line)
    prompt = page.locator("#prompt")
    assert prompt.inner_text().startswith(
        "You can do nothing more: 5 points, Disaster (Disaster is 0\u201314 points)"
    )
    page.locator("#action-buttons button", has_text="Undo my last move").click()
    page.wait_for_selector("#status:has-text('Digging')")
    assert page.locator("#action-buttons button", has_text="Stop and score").is_visible()


def test_in_the_browser_a_line_typed_while_the_last_move_is_in_flight_is_sent_after_it(
    browser, tmp_path
):
    """The stream draws a move before its own answer arrives: a line typed and entered in
    that moment was dropped (the page busy), or wiped when the answer came."""
    app = make_app(tmp_path, SSE_MAX_SECONDS=30.0)

    @app.after_request
    def slow_answers_to_moves(response):
        if request.method == "POST" and request.path.endswith("/commands"):
            time.sleep(0.6)  # the move is logged and streamed; its answer is late
        return response

    with LiveServer(app) as server, watched_page(browser, server) as page:
        game = api(
            server,
            "/api/games",
            {"players": [{"name": "Ann", "bot": None}], "mode": "solo", "seed": SEED},
        )
        page.goto(server.url + game["seats"][0]["link"])
        page.wait_for_selector("body[data-rendered-seq]", state="attached")
        first, second = TO_THE_BEER[:2]
        typed(page, first)  # drawn from the stream, its answer still on its way
        page.fill("#typed-input", second)
        page.press("#typed-input", "Enter")
        live = app.extensions["dice_miner"].games.get(game["id"])
        assert wait_until(lambda: len(live.table.timeline.commands()) >= 3, timeout=10)
        texts = [c.text() for c in live.table.timeline.commands()[1:]]
        assert texts == [first, second]
        assert wait_until(lambda: page.input_value("#typed-input") == "", timeout=10)
