"""A refusal is said of a position: once the game moves on, a stale one leaves the screen
(a real Chromium; the other person moves through the API)."""

from __future__ import annotations

import pytest

from tests.support.web_support import LiveServer, api, make_app, my_turn

TWO_PEOPLE = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("web"), SSE_MAX_SECONDS=30.0)
    with LiveServer(app) as live:
        yield live


def test_a_refusal_leaves_the_screen_when_the_game_moves_on(page, server, tmp_path):
    game = api(server, "/api/games", {"players": TWO_PEOPLE})
    first = api(server, f"/api/games/{game['id']}/choices")["seat"]
    other = 1 - first
    page.goto(server.url + game["seats"][other]["link"])  # the seat that waits
    page.wait_for_selector("#typed:not([hidden])")
    page.fill("#typed-input", "end")
    page.press("#typed-input", "Enter")
    refusal = page.locator("#refusal")
    refusal.wait_for(state="visible")
    said = refusal.inner_text()
    assert said  # the engine's words (not this seat's turn)
    page.screenshot(path=str(tmp_path / "refused.png"))
    command = my_turn(server, game["id"], first)["heroes"][0]["command"]
    api(
        server,
        f"/api/games/{game['id']}/commands",
        {"command": command},
        token=game["seats"][first]["token"],
    )
    refusal.wait_for(state="hidden")  # the game moved on: the refusal was of before
