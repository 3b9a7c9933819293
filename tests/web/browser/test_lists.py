"""The home page's lists and the seats in a real Chromium: a solo game is listed with its
score (not as a "tie"), the games being played are the unfinished ones with their id,
who is to act and when they last moved, a name cut short is whole on hover, and a bot
playing a person's seat is shown at the seat."""

from __future__ import annotations

import pytest

from core.bots import make_bot
from core.bots.play import bot_command
from core.game import Game
from tests.support.web_support import LiveServer, api, live_game, make_app, record_game, wait_until

LONG = "Gudrunhild Stonehelmsen"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("web"), SSE_MAX_SECONDS=30.0)
    solo = Game.new(["Sol"], 5, mode="solo", log=app.config["REPLAYS_DIR"] / "solo.dmlog")
    bot = make_bot("random")
    while not solo.state.is_over:
        solo.issue(bot_command(solo, bot))
    solo.close()
    record_game(app.config["REPLAYS_DIR"] / "cut.dmlog", names=("Ann", "Bo"), commands=30)
    with LiveServer(app) as live:
        yield live


def test_a_solo_game_is_listed_with_its_score_not_as_a_tie(page, server):
    page.goto(server.url + "/")
    row = page.locator("#replay-list tr", has_text="solo.dmlog")
    row.wait_for()
    result = row.locator("td").nth(3).inner_text()
    assert result.startswith("solo: ") and "tie" not in result
    assert page.locator("#replay-list th").nth(3).text_content() == "Result"


def test_the_games_being_played_are_the_unfinished_ones_with_id_turn_and_time(
    page, server, tmp_path
):
    playing = api(server, "/api/games", {"players": [{"name": "Ann"}, {"name": "Bo"}]})
    done = api(server, "/api/games", {"players": [{"name": "Cy"}, {"name": None, "bot": "greedy"}]})
    api(server, f"/api/games/{done['id']}/leave", {}, token=done["seats"][0]["token"])
    page.goto(server.url + "/")
    row = page.locator(f"#game-list tr[data-game='{playing['id']}']")
    row.wait_for()
    cells = row.locator("td").all_inner_texts()
    to_act = api(server, f"/api/games/{playing['id']}")["to_act"]
    assert cells[0].split() == ["Ann,", "Bo", playing["id"]]
    assert row.get_by_role("link").inner_text() == "Ann, Bo"
    assert cells[1] == f"{['Ann', 'Bo'][to_act]} (choosing a hero)"
    assert cells[2] == "just now"
    assert page.locator(f"#game-list tr[data-game='{done['id']}']").count() == 0  # over
    page.screenshot(path=str(tmp_path / "home.png"), full_page=True)


def test_a_long_name_is_whole_on_hover_and_a_stand_in_shows_at_the_seat(page, server, tmp_path):
    game = api(server, "/api/games", {"players": [{"name": "Ann"}, {"name": LONG}, {"name": "Bo"}]})
    table = live_game(server.app, game["id"]).table
    table.hand_to_bot(1, "greedy", f"{LONG} has not moved for 5 minutes")
    api(server, f"/api/games/{game['id']}/leave", {}, token=game["seats"][2]["token"])
    page.goto(server.url + game["seats"][0]["link"])
    page.wait_for_selector("#players .player")
    name = page.locator("#player-name-1")
    assert name.get_attribute("title") == LONG
    assert page.locator("#chart text.legend title").all_text_contents()[1] == LONG
    assert wait_until(lambda: page.locator(".player[data-seat='1'] .stand-in").count() == 1)
    assert page.inner_text(".player[data-seat='1'] .stand-in") == "away · a greedy bot stands in"
    assert page.inner_text(".player[data-seat='2'] .stand-in") == "left · a greedy bot plays on"
    assert page.locator(".player[data-seat='0'] .stand-in").count() == 0
    page.locator("#players").screenshot(path=str(tmp_path / "stand-ins.png"))


def test_play_from_here_names_only_events_the_game_has(page, server):
    """At the end of an unfinished log there is no next event to name."""
    summary = api(server, "/api/replays/cut.dmlog")
    total = summary["events"]
    page.goto(f"{server.url}/replay/cut.dmlog?at={total}")
    page.wait_for_selector(f"body[data-rendered-seq='{total}']", state="attached")
    assert page.inner_text("#position").startswith(f"event {total - 1} of {total - 1}")
    page.click("#play-from")
    where = page.inner_text("#branch-where")
    assert (
        f"first {total} events (0 to {total - 1}), all it has, and plays on from where it stops"
        in where
    )
    assert f"event {total}" not in where


def test_an_upload_is_listed_for_its_client_once_its_url_is_lost(page, server, tmp_path):
    log = tmp_path / "mine.dmlog"
    record_game(log, names=("Ann", "Bo"), seed=4, commands=20)
    page.goto(server.url + "/")
    page.wait_for_selector("#replay-list a")
    page.set_input_files("#upload-file", str(log))
    page.click("#upload-form button[type=submit]")
    page.wait_for_url("**/replay/upload-*")
    name = page.url.rsplit("/", 1)[1].split("?")[0]
    page.goto(server.url + "/")  # the upload's address is gone from the address bar
    row = page.locator("#replay-list tr", has_text=name)
    row.wait_for()
    assert row.locator(".tag.upload").inner_text() == "your upload"
    assert row.locator(".tag.upload").get_attribute("title").startswith("your upload of mine.dmlog")
    assert row.locator("td").nth(1).inner_text() == "Ann, Bo"
    assert row.locator("td").nth(3).inner_text() == "unfinished"
    # another client is not shown it
    other = api(server, "/api/replays")  # the same address in this test: the API says so
    assert [u["name"] for u in other["uploads"]] == [name]
    library = server.app.extensions["dice_miner"].library
    assert library.uploads_of("10.9.9.9") == []
