"""The store's games and what-if branches in Chromium: the home page lists a stored game,
the viewer shows a game's branches (listed, marked under the timeline) and a branch's
parent, and "Play from here" starts a live branch whose page says where its dice come from.

See ``tests/support/web_support.py`` for when these tests skip.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

from core.branch import write_branch
from core.store import import_log, load_batches_bytes
from tests.support.web_support import LiveServer, api, make_app

REPLAYS = Path(__file__).resolve().parents[3] / "replays"
STORED = "web-0000000000000002.dmlog"  # two-players.dmlog, put in the server's store


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("web")
    app = make_app(root, SSE_MAX_SECONDS=30.0)
    replays = app.config["REPLAYS_DIR"]
    (replays / "four-players.dmlog").write_bytes((REPLAYS / "four-players.dmlog").read_bytes())
    write_branch(replays / "four-players.dmlog", replays / "what-if.dmlog", 104, "same", sync=False)
    scan, batches = load_batches_bytes((REPLAYS / "two-players.dmlog").read_bytes())
    import_log(app.extensions["dice_miner"].store, scan, batches).close()
    with LiveServer(app) as live:
        yield live


def rendered(page, seq: int) -> None:
    page.wait_for_selector(f"body[data-rendered-seq='{seq}']", state="attached")


def viewer(page, server, name: str, at: int) -> None:
    page.goto(f"{server.url}/replay/{name}?at={at}")
    rendered(page, at)
    page.wait_for_selector("body[data-family=loaded]", state="attached")


def test_the_home_page_lists_a_stored_game_marked_and_opens_it(page, server):
    page.goto(server.url + "/")
    row = page.locator("#replay-list tr", has_text=STORED)
    row.wait_for()
    assert row.locator(".tag.stored").inner_text() == "stored"
    what_if = page.locator("#replay-list tr", has_text="what-if.dmlog")
    assert what_if.locator(".tag.what-if").inner_text() == "what-if at 104"
    plain = page.locator("#replay-list tr", has_text="four-players.dmlog")
    assert plain.locator(".tag").count() == 0
    row.get_by_role("link", name=STORED).click()
    page.wait_for_url(f"**/replay/{STORED}")
    rendered(page, 1)
    page.keyboard.press("End")
    rendered(page, 129)  # the last board may still be on its way (its boards come packed)
    assert "Game over" in page.locator("#status").inner_text()


def test_the_viewer_lists_a_games_branches_and_marks_them_on_the_timeline(page, server):
    viewer(page, server, "four-players.dmlog", 20)
    family = page.locator("#family")
    assert family.is_visible()
    item = family.locator(".family-branch")
    assert item.count() == 1 and "what-if.dmlog" in item.inner_text()
    mark = page.locator("#branch-marks .branch-mark[data-at='104']")
    slider = page.locator("#timeline").bounding_box()
    box = mark.bounding_box()
    expected = slider["x"] + 8 + (slider["width"] - 16) * (104 - 1) / (139 - 1)
    assert abs(box["x"] + box["width"] / 2 - expected) < 3
    mark.click()  # the mark shows the board where the branch parts
    rendered(page, 104)
    item.get_by_role("button", name="event 104").click()
    rendered(page, 104)
    item.get_by_role("link", name="what-if.dmlog").click()  # the branch, at the same point
    page.wait_for_url("**/replay/what-if.dmlog?at=104")
    rendered(page, 104)
    page.wait_for_selector("body[data-family=loaded]", state="attached")
    parent = page.locator("#family .family-parent")
    assert parent.inner_text().startswith("A what-if branch of four-players.dmlog at event 104")
    assert page.locator("#branch-marks .parent-mark[data-at='104']").count() == 1
    parent.get_by_role("link", name="four-players.dmlog").click()  # back to the parent there
    page.wait_for_url("**/replay/four-players.dmlog?at=104")
    rendered(page, 104)


def test_play_from_here_is_offered_at_branch_points_only_saying_why(page, server):
    viewer(page, server, "four-players.dmlog", 86)  # inside the batch of events 83 to 87
    page.click("#play-from")
    where = page.locator("#branch-where")
    assert "the nearest branch points are after event 82 and after event 87" in where.inner_text()
    assert page.locator("#branch-start").is_disabled()
    where.get_by_role("button", name="after event 87").click()
    rendered(page, 88)
    assert "keeps this game's first 88 events" in where.inner_text()
    assert page.locator("#branch-start").is_enabled()
    page.keyboard.press("End")
    rendered(page, 139)
    assert "The game is over here" in where.inner_text()
    assert page.locator("#branch-start").is_disabled()


def test_play_from_here_starts_a_live_branch_that_says_where_its_dice_come_from(page, server):
    viewer(page, server, "four-players.dmlog", 104)
    page.click("#play-from")
    assert page.locator("#branch-form").is_visible()
    seats = [page.locator(f"#branch-seat-{seat}").input_value() for seat in range(4)]
    assert seats == ["person", "greedy", "random", "greedy"]  # montecarlo-1 is to act here
    page.select_option("#branch-seat-2", "random")
    page.click("#branch-start")
    page.wait_for_url("**/games/*#seat=0&token=*")  # one person: straight to their seat
    dice = page.locator("#dice")
    dice.get_by_role("link", name="four-players.dmlog").wait_for()
    assert dice.inner_text() == (
        "A what-if branch of four-players.dmlog at event 104, same luck: the dice are known "
        "(each position rolls what that game rolled there)."
    )
    game_id = page.url.split("/games/")[1].split("#")[0]
    summary = api(server, f"/api/games/{game_id}")
    assert [s["bot"] for s in summary["seats"]] == [None, "greedy", "random", "greedy"]
    page.locator("#typed-input").fill("take 54")  # the move the original made here
    page.locator("#typed-input").press("Enter")
    page.wait_for_selector("#events [data-seq='105']", state="attached")
    original = api(server, "/api/replays/four-players.dmlog/events?from=104&limit=1")["events"]
    assert page.locator("#events [data-seq='105']").inner_text().endswith(original[0]["text"])


def test_play_from_here_keeps_the_bot_each_seats_name_says(page, server):
    # the sample replays name their bots by kind and seat ("montecarlo-1", "random-3"): each
    # once defaulted to a greedy bot under its old name
    viewer(page, server, "four-players.dmlog", 100)  # random-3 is to act here
    page.click("#play-from")
    seats = [page.locator(f"#branch-seat-{seat}").input_value() for seat in range(4)]
    assert seats == ["montecarlo", "greedy", "person", "greedy"]


def test_the_seat_defaults_follow_a_board_that_comes_after_the_form(page, server):
    # the form is built when the family loads; a board that arrives later (a slow
    # answer) must still make the seat to act a person's, not leave the first seat's
    def late(route):
        page.wait_for_timeout(1500)
        route.continue_()

    page.route("**/api/replays/four-players.dmlog/state*", late)
    page.route("**/api/replays/four-players.dmlog/boards*", late)
    page.goto(f"{server.url}/replay/four-players.dmlog?at=100")
    page.wait_for_selector("body[data-family=loaded]", state="attached")
    rendered(page, 100)
    page.click("#play-from")
    seats = [page.locator(f"#branch-seat-{seat}").input_value() for seat in range(4)]
    assert seats == ["montecarlo", "greedy", "person", "greedy"]
    page.select_option("#branch-seat-0", "person")  # a person's choice is never redone
    page.click("button[data-action=prev]")
    rendered(page, 99)
    assert page.locator("#branch-seat-0").input_value() == "person"
    page.unroute_all(behavior="ignoreErrors")


def test_the_same_luck_of_a_secret_not_revealed_is_refused_on_the_page(page, server):
    game = api(server, "/api/games", {"players": [{"name": "Ann"}, {"name": "Bo"}]})
    with urllib.request.urlopen(f"{server.url}/api/games/{game['id']}/log") as answer:
        log = answer.read()
    headers = {"X-Filename": "mid.dmlog", "Content-Type": "application/octet-stream"}
    upload = urllib.request.Request(server.url + "/api/replays", data=log, headers=headers)
    with urllib.request.urlopen(upload) as answer:  # a log downloaded mid-game, uploaded
        name = json.load(answer)["name"]
    family = api(server, f"/api/replays/{name}/branches")
    viewer(page, server, name, family["points"][-1])
    page.click("#play-from")
    for seat in (0, 1):
        page.select_option(f"#branch-seat-{seat}", "person")
    page.click("#branch-start")
    error = page.locator("#branch-error")
    page.wait_for_selector("#branch-error:not(:empty)")
    assert "secret seed not revealed yet" in error.inner_text()
    page.check("input[name=luck][value=fresh]")
    assert "Fresh luck: new dice" in page.locator("#luck-hint").inner_text()
    page.click("#branch-start")
    links = page.locator("#branch-links")
    links.get_by_role("link", name="Watch only").wait_for()  # two people: a link for each
    assert links.get_by_role("link", name="Play as Ann").count() == 1
    assert links.get_by_role("link", name="Play as Bo").count() == 1
    assert error.inner_text() == ""


def test_play_from_here_takes_the_keyboard_and_esc_gives_it_back(page, server):
    viewer(page, server, "four-players.dmlog", 104)
    toggle = page.locator("#play-from")
    toggle.focus()
    page.keyboard.press("Enter")
    assert page.locator("#branch-form").is_visible()
    focused = "[document.activeElement.name, document.activeElement.value]"
    assert page.evaluate(focused) == ["luck", "same"]  # the form's first field, its choice
    assert toggle.get_attribute("aria-expanded") == "true"
    page.keyboard.press("Escape")
    assert page.locator("#branch-form").is_hidden()
    assert toggle.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.activeElement.id") == "play-from"
    page.keyboard.press("ArrowRight")  # the viewer's keys work again
    rendered(page, 105)
