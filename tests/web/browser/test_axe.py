"""axe-core (the npm package, from node_modules) on every page in Chromium: no serious or
critical violation at a desktop size and a phone size. The pages: home, rules, the replay
viewer, a live game watched, played in its hero choice, a solo game played, a finished
game's standings and rematch, and the page of an address that is not there.
See ``tests/support/web_support.py`` and ``tests/web/test_js.py`` for when these tests skip."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.web_support import LiveServer, api, make_app, record_game

AXE = Path(__file__).resolve().parents[3] / "node_modules" / "axe-core" / "axe.min.js"
SIZES = [(1280, 800), (390, 844)]
SERIOUS = """async () => {
  const found = await axe.run(document, { resultTypes: ["violations"] });
  return found.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}"""


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("axe-core must be installed in CI (npm ci)")
        pytest.skip("axe-core is not installed (npm ci)")
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("web"), SSE_MAX_SECONDS=30.0)
    record_game(app.config["REPLAYS_DIR"] / "three.dmlog", names=("Ann", "Bo", "Cy"), undo_every=9)
    with LiveServer(app) as live:
        yield live


def pages(server) -> dict[str, tuple[str, str]]:
    """Each page: its address and a selector that is there once it is drawn."""
    one = {"players": [{"name": "You", "bot": None}], "mode": "solo", "seed": 11}
    solo = api(server, "/api/games", one)
    players = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": "greedy"}]
    multi = api(server, "/api/games", {"players": players, "seed": 3, "pace": 0})
    ended = api(server, "/api/games", one)
    seat = ended["seats"][0]
    api(server, f"/api/games/{ended['id']}/commands", {"text": "stop"}, token=seat["token"])
    return {
        "home": ("/", "#seat-rows select"),
        "rules": ("/rules", "main"),
        "replay": ("/replay/three.dmlog", "body[data-rendered-seq]"),
        "watched": (f"/games/{multi['id']}", "body[data-rendered-seq]"),
        "heroes": (multi["seats"][0]["link"], "#heroes .hero-card"),
        "solo": (solo["seats"][0]["link"], "#mountain [role=button]"),
        "finished": (seat["link"], "#standings:not([hidden]) table tr"),  # standings, rematch
        "not found": ("/games/nosuchgame", "main"),
    }


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_no_page_has_a_serious_violation(browser, server, axe_source, width, height):
    found = {}
    for name, (path, drawn) in pages(server).items():
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.goto(server.url + path)
        page.wait_for_selector(drawn, state="attached")
        page.evaluate(axe_source)  # not a <script> tag: the pages' CSP allows only their own
        found[name] = page.evaluate(SERIOUS)
        context.close()
    assert found == {name: [] for name in found}


def replay_at_five(browser, server):
    """The recorded game's viewer at event 5, at a desktop size: (context, page)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(server.url + "/replay/three.dmlog?at=5")
    page.wait_for_selector("body[data-rendered-seq='5']", state="attached")
    return context, page


def test_the_event_list_is_reached_and_stepped_by_keyboard(browser, server):
    context, page = replay_at_five(browser, server)
    page.focus("#events")
    assert page.evaluate("document.activeElement.id") == "events"
    page.keyboard.press("ArrowDown")
    page.wait_for_selector("body[data-rendered-seq='6']", state="attached")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    page.wait_for_selector("body[data-rendered-seq='4']", state="attached")
    assert page.locator("#events .event.current").get_attribute("data-seq") == "3"
    context.close()


def test_in_the_viewer_space_on_a_focused_button_presses_that_button(browser, server):
    context, page = replay_at_five(browser, server)
    page.focus("[data-action='next']")
    page.keyboard.press(" ")  # the focused "Next event", not the playback
    page.wait_for_selector("body[data-rendered-seq='6']", state="attached")
    page.wait_for_timeout(600)  # a playback started would have stepped on by now
    assert page.get_attribute("body", "data-rendered-seq") == "6"
    assert page.get_attribute("[data-action='play']", "aria-label") == "Play"
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press(" ")  # with no button focused, Space still plays
    page.wait_for_selector("[data-action='play'][aria-label='Pause']", state="attached")
    context.close()


def test_the_chart_is_reached_by_keyboard_and_its_arrows_step(browser, server):
    context, page = replay_at_five(browser, server)
    page.focus("#chart")
    assert page.evaluate("document.activeElement.id") == "chart"
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("body[data-rendered-seq='6']", state="attached")
    context.close()
