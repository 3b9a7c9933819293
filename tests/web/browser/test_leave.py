"""Leaving, the final standings and the rematch in a real Chromium: a person leaves with a
confirmation and watches on, a finished game shows each player's categories, and one
click on a rematch brings the other person to it through a link on their finished game."""

from __future__ import annotations

import pytest

from tests.support.web_support import LiveServer, api, live_game, make_app, wait_until

TWO_PEOPLE = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]
ANN_AND_BOTS = [
    {"name": "Ann", "bot": None},
    {"name": None, "bot": "greedy"},
    {"name": None, "bot": "random"},
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("web"), SSE_MAX_SECONDS=30.0)
    with LiveServer(app) as live:
        yield live


def link(server, game, seat):
    return server.url + game["seats"][seat]["link"]


def test_a_person_leaves_after_confirming_and_watches_a_bot_play_on(page, server, tmp_path):
    game = api(server, "/api/games", {"players": TWO_PEOPLE})
    page.goto(link(server, game, 0))
    page.wait_for_selector("#leave:not([hidden])")
    assert page.locator("#leave-confirm").is_hidden()
    page.click("#leave-open")
    assert page.locator("#leave-confirm").is_visible()
    assert "cannot be taken back" in page.inner_text("#leave-question")
    page.screenshot(path=str(tmp_path / "leave-confirm.png"))
    page.click("#leave-no")  # staying changes nothing
    assert page.locator("#leave-confirm").is_hidden()
    assert api(server, f"/api/games/{game['id']}")["left"] == []
    page.click("#leave-open")
    with page.expect_navigation():
        page.click("#leave-yes")
    page.wait_for_selector("#events li:has-text('Ann left the game')")
    assert "#" not in page.url  # a spectator now: the seat's link is gone from the page
    assert page.locator("#leave").is_hidden()
    summary = api(server, f"/api/games/{game['id']}")
    assert summary["left"] == [0] and not summary["over"]
    page.screenshot(path=str(tmp_path / "left.png"), full_page=True)


def test_a_finished_game_shows_each_players_categories(page, server, tmp_path):
    game = api(server, "/api/games", {"players": ANN_AND_BOTS, "pace": 0})
    table = live_game(server.app, game["id"]).table
    table.hand_to_bot(0, "greedy", "the test plays Ann's seat")  # bots play it to its end
    assert wait_until(lambda: table.state.is_over, timeout=60)
    page.goto(link(server, game, 0))
    page.wait_for_selector("#standings:not([hidden]) #standings-table tbody tr")
    headers = page.locator("#standings-table thead th").all_inner_texts()
    assert headers[3:9] == ["Tunnels", "Treasure", "Hazards", "Round 1", "Round 2", "Round 3"]
    assert headers[-1] == "Total"
    standings = api(server, f"/api/games/{game['id']}/standings")
    rows = page.locator("#standings-table tbody tr")
    assert rows.count() == 3
    for n, row in enumerate(standings["rows"]):
        cells = rows.nth(n).locator("td, th").all_inner_texts()
        assert cells[1].startswith(row["name"])
        assert cells[3:6] == [str(points) for points in row["categories"]]
        assert cells[-1] == str(row["total"])
    assert (
        "a greedy bot stood in"
        in rows.all_inner_texts()[[r["name"] for r in standings["rows"]].index("Ann")]
    )
    assert page.locator("#leave").is_hidden()
    page.locator("#standings").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "standings.png"))


def test_one_click_makes_a_rematch_and_the_other_person_follows_a_link(
    browser, page, server, tmp_path
):
    game = api(server, "/api/games", {"players": TWO_PEOPLE})
    for seat in (1, 0):  # both leave: closed, over
        api(server, f"/api/games/{game['id']}/leave", {}, token=game["seats"][seat]["token"])
    other = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    other.goto(link(server, game, 1))
    other.wait_for_selector("#rematch-start")
    page.goto(link(server, game, 0))
    page.wait_for_selector("#standings:not([hidden])")
    assert "Closed before its end" in page.inner_text("#standings-closed")
    with page.expect_navigation():
        page.click("#rematch-start")
    new_id = api(server, f"/api/games/{game['id']}")["rematch"]
    assert new_id and f"/games/{new_id}#seat=0&token=" in page.url
    page.wait_for_selector("#leave:not([hidden])")  # Ann's seat of the new game
    # Bo's finished game shows the way to his seat of the rematch
    other.wait_for_selector("#rematch-link", timeout=10_000)
    assert other.inner_text("#rematch-link") == "Play the rematch"
    other.screenshot(path=str(tmp_path / "rematch-link.png"))
    with other.expect_navigation():
        other.click("#rematch-link")
    other.reload()
    other.wait_for_selector("#leave:not([hidden])")  # his old link plays his new seat
    assert f"/games/{new_id}#seat=1&token={game['seats'][1]['token']}" in other.url
    other.context.close()
