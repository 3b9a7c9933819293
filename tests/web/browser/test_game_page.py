"""The game page in Chromium, as the reviews asked of it: Undo only when the server would
take it, the game so far to step through, a finished game in the replay viewer and its log
to download, the dice's origin shown, every move sent with its position and an id of its
own (sent again after a network failure, played once; a stale one refused in words), and on
a phone the instruction and Cancel of a spend kept in view.

See ``tests/support/web_support.py`` for when these tests skip.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from core.events.codec import command_to_dict
from tests.support.web_support import (
    api,
    live_game,
    my_turn,
    wait_until,
    watched_page,
)

ANN_AND_BOTS = [
    {"name": "Ann", "bot": None},
    {"name": None, "bot": "greedy"},
    {"name": None, "bot": "greedy"},
]
MAGIC_HEROES = ("Alchemist", "Dragon Slayer", "Surveyor")  # heroes with a magic face


def new_game(server, players=ANN_AND_BOTS, **extra) -> dict:
    return api(server, "/api/games", {"players": players, "pace": 0, **extra})


def play(server, game: dict, seat: int, command: dict) -> dict:
    token = next(s["token"] for s in game["seats"] if s["seat"] == seat)
    return api(server, f"/api/games/{game['id']}/commands", {"command": command}, token)


def shown(page) -> int:
    return int(page.get_attribute("body", "data-rendered-seq") or 0)


def wait_shown(page, seq: int) -> None:
    page.wait_for_selector(f"body[data-rendered-seq='{seq}']", state="attached")


def undo_button(page):
    return page.locator("#action-buttons button", has_text="Undo my last move")


# -- Undo, only when it can work ---------------------------------------------------------------


def test_undo_is_offered_only_when_the_server_would_take_it(page, server):
    from playwright.sync_api import expect

    # a practice game: Ann alone against bots may undo even the round's mountain her hero
    # and the bots' replies brought (in any other game, what the dice showed stays)
    game = new_game(server, seed=3, practice=True)
    page.goto(server.url + game["seats"][0]["link"])
    page.wait_for_selector(".hero-card")
    expect(undo_button(page)).to_have_count(0)  # nothing of Ann's to undo yet
    page.click(".hero-card >> nth=0")
    expect(undo_button(page)).to_have_count(1)  # her hero, with the bots' replies after it
    undo_button(page).click()
    page.wait_for_selector(".hero-card")
    expect(undo_button(page)).to_have_count(0)

    # two people: once Bo has moved, Ann's move is no longer hers alone to take back
    people = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]
    game = new_game(server, people, seed=5)
    live = live_game(server.app, game["id"])
    first = live.state.to_act()
    page.goto(server.url + game["seats"][first]["link"])
    page.wait_for_selector(".hero-card")
    page.click(".hero-card >> nth=0")
    expect(undo_button(page)).to_have_count(1)  # her hero, no dice rolled since
    other = live.state.to_act()
    assert other != first
    play(server, game, other, command_to_dict(live.table.game.legal()[0]))
    expect(undo_button(page)).to_have_count(0)
    assert page.locator("#refusal").is_hidden()  # nothing was tried and refused


# -- every move with its position and an id; a stale one said in words ---------------------------


def test_a_move_carries_its_position_and_an_id_sent_again_after_a_network_failure(page, server):
    game = new_game(server, seed=3)
    page.goto(server.url + game["seats"][0]["link"])
    page.wait_for_selector(".hero-card")
    seq = shown(page)
    sent = []

    def drop_the_first(route):
        sent.append(json.loads(route.request.post_data))
        if len(sent) == 1:
            route.abort("connectionreset")  # the network, not the server, failed it
        else:
            route.continue_()

    page.route("**/commands", drop_the_first)
    page.click(".hero-card >> nth=0")
    page.wait_for_selector("#mountain .die.selectable")  # the hero was chosen: the dig began
    assert len(sent) == 2
    assert sent[0] == sent[1]  # the same move, the same id, sent again
    assert sent[0]["seq"] == seq and len(sent[0]["id"]) == 32
    records = api(server, f"/api/games/{game['id']}/events")["events"]
    assert sum(r["type"] == "HeroChosen" and r["player"] == "Ann" for r in records) == 1
    page.unroute("**/commands")
    die = page.locator("#mountain .die.selectable").first.get_attribute("data-die")
    page.route(
        "**/commands",
        lambda route: (sent.append(json.loads(route.request.post_data)), route.continue_()),
    )
    page.click(f"#mountain .die[data-die='{die}']")
    page.wait_for_selector(f".player[data-seat='0'] .trove [data-die='{die}']")
    assert sent[-1]["id"] != sent[0]["id"]  # a fresh id for each intended move


def test_a_move_chosen_on_a_board_the_game_has_left_is_refused_in_a_sentence(page, server):
    from playwright.sync_api import expect

    game = new_game(server, seed=3)
    token = game["seats"][0]["token"]
    page.goto(server.url + game["seats"][0]["link"])
    page.wait_for_selector(".hero-card")
    live = live_game(server.app, game["id"])
    heroes = [c for c in live.table.game.legal() if c.TAG == "hero"]

    def another_tab_moves_first(route):
        # the same seat moves from elsewhere (another tab) while this move is on its way
        api(
            server,
            f"/api/games/{game['id']}/commands",
            {"command": command_to_dict(heroes[-1])},
            token,
        )
        route.continue_()

    page.route("**/commands", another_tab_moves_first, times=1)
    page.click(".hero-card >> nth=0")
    expect(page.locator("#refusal")).to_contain_text("The game moved on before your move arrived")
    expect(page.locator("#refusal")).to_have_attribute("data-code", "stale_state")
    # the board is the game's again: the hero the other tab chose, the dig begun
    page.wait_for_selector("#mountain .die.selectable")
    assert wait_until(lambda: shown(page) == live.seq)
    ann = api(server, f"/api/games/{game['id']}/state")["players"][0]
    assert ann["hero"] == heroes[-1].hero


# -- the game so far, a finished game, the dice --------------------------------------------------


def test_the_game_so_far_can_be_stepped_through_and_back_to_now(page, server):
    from playwright.sync_api import expect

    game = new_game(server, seed=3)
    page.goto(server.url + game["seats"][0]["link"])
    page.wait_for_selector(".hero-card")
    page.click(".hero-card >> nth=0")
    page.wait_for_selector("#mountain .die.selectable")
    now = shown(page)
    page.evaluate("document.activeElement.blur()")  # on a die, the arrows move among the dice
    page.keyboard.press("ArrowLeft")
    wait_shown(page, now - 1)
    assert page.locator("#mountain .die.selectable").count() == 0  # a past board is not played
    expect(page.locator("#prompt")).to_contain_text(f"Looking back at event {now - 2} of {now - 1}")
    board = api(server, f"/api/games/{game['id']}/state?at={now - 1}")
    assert page.locator("#mountain .die").count() == len(board["mountain"])
    page.locator("#timeline").fill("3")
    wait_shown(page, 3)
    assert page.locator("#position").inner_text() == f"event 2 of {now - 1}"
    page.click("#now")
    wait_shown(page, now)
    page.wait_for_selector("#mountain .die.selectable")


def finish(server, game: dict) -> None:
    live = live_game(server.app, game["id"])
    while not live.state.facts.revealed:
        assert wait_until(lambda: live.state.to_act() == 0 or live.state.facts.revealed, 20)
        if live.state.to_act() == 0:
            play(server, game, 0, command_to_dict(live.table.game.legal()[0]))


def test_the_dice_are_shown_secret_then_revealed_and_the_game_opens_in_the_viewer(page, server):
    from playwright.sync_api import expect

    game = new_game(server)
    page.goto(server.url + game["seats"][0]["link"])
    page.wait_for_selector(".hero-card")
    commitment = game["dice"]["commitment"]
    note = page.locator("#dice")
    expect(note).to_contain_text(
        f"Dice from a secret seed, revealed when the game ends (SHA-256 {commitment[:8]}…)"
    )
    assert page.locator("#after").is_hidden()
    finish(server, game)
    secret = live_game(server.app, game["id"]).state.facts.revealed
    expect(note).to_contain_text(f"Dice from the secret seed {secret[:8]}…")
    expect(note).to_contain_text(f"dice-miner log verify web-{game['id']}.dmlog")
    with page.expect_download() as download:
        page.click("#download-log")
    log = server.app.config["DATA_DIR"] / f"web-{game['id']}.dmlog"
    assert Path(download.value.path()).read_bytes() == log.read_bytes()
    page.click("#open-replay")
    page.wait_for_url(f"**/replay/web-{game['id']}.dmlog?at=*")  # at its end
    page.wait_for_selector("body[data-boards='all']", state="attached")
    assert "Game over" in page.locator("#status").inner_text()


def test_a_chosen_seed_is_shown_as_no_secret(page, server):
    from playwright.sync_api import expect

    game = new_game(server, seed=42, seed_chosen_by="Ann")
    page.goto(server.url + game["watch"])
    expect(page.locator("#dice")).to_have_text(
        "Seed 42, chosen by Ann: not secret (whoever knows it can foresee the dice)."
    )


# -- on a phone ---------------------------------------------------------------------------------


def test_on_a_phone_the_instruction_and_cancel_stay_in_view_while_picking(browser, server):
    game = new_game(server, seed=3)
    token = game["seats"][0]["token"]
    with watched_page(browser, server, 390, 844) as page:
        page.goto(server.url + game["seats"][0]["link"])
        page.wait_for_selector(".hero-card")
        hero = next(h for h in MAGIC_HEROES if page.locator(f".hero-card[data-hero='{h}']").count())
        page.click(f".hero-card[data-hero='{hero}']")
        while (choices := my_turn(server, game["id"]))["phase"] != "magic":
            if "take" not in choices:  # the hero clicked on the page is still on its way
                time.sleep(0.05)
                continue
            take = next(iter(choices["take"].values()))[0]["command"]
            api(server, f"/api/games/{game['id']}/commands", {"command": take}, token)
        spend = next(s for s in choices["spend"] if s["hero_face"] is not None)
        face = page.locator(f"[data-hero-face='0:{spend['hero_face']}'].selectable")
        face.click()
        page.wait_for_selector("#action.picking")
        page.locator(".player").last.scroll_into_view_if_needed()  # down to the last trove
        page.mouse.wheel(0, 5000)
        for selector in ("#prompt", "#action-buttons button:has-text('Cancel')"):
            box = page.locator(selector).bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= 844, (selector, box)
        page.click("#action-buttons button:has-text('Cancel')")
        page.wait_for_selector("#action:not(.picking)", state="attached")
