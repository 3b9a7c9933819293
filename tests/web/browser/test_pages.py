"""The pages in a real Chromium: a replay steps and seeks, a game is played, a watcher follows.

Chromium is Debian's (``/usr/bin/chromium``) driven by Playwright; see
``tests/support/web_support.py`` for when these tests skip and when they fail.
"""

from __future__ import annotations

import json
import urllib.request

import pytest

from core.store import load_batches
from tests.support.web_support import LiveServer, api, make_app, record_game

RENDERED = "body[data-rendered-seq='{}']"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("web")
    app = make_app(root, SSE_MAX_SECONDS=30.0)
    record_game(app.config["REPLAYS_DIR"] / "four.dmlog")
    with LiveServer(app) as live:
        yield live


def post_command(server, game_id, token, command):
    request = urllib.request.Request(
        f"{server.url}/api/games/{game_id}/commands",
        data=json.dumps({"command": command}).encode(),
        headers={"Content-Type": "application/json", "X-Seat-Token": token},
    )
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def rendered(page, seq: int) -> None:
    page.wait_for_selector(RENDERED.format(seq), state="attached")


def shown(page) -> int:
    """The position the page shows now."""
    return int(page.get_attribute("body", "data-rendered-seq") or 0)


def shown_at_least(page, seq: int, timeout: float = 10.0) -> int:
    """Wait until the page shows ``seq`` or later (the page's CSP forbids eval'd predicates)."""
    for _ in range(int(timeout / 0.05)):
        if shown(page) >= seq:
            return shown(page)
        page.wait_for_timeout(50)
    raise AssertionError(f"the page still shows {shown(page)}, not {seq} or later")


# -- the replay viewer -------------------------------------------------------------------------


def test_a_replay_loads_steps_and_seeks(page, server):
    _, batches = load_batches(server.app.config["REPLAYS_DIR"] / "four.dmlog")
    total = batches[-1].end
    page.goto(f"{server.url}/replay/four.dmlog?at=10")
    rendered(page, 10)
    state = api(server, "/api/replays/four.dmlog/state?at=10")
    assert page.locator("#mountain .die").count() == len(state["mountain"])
    assert page.locator(".player").count() == 4
    assert page.locator("#events li").count() == total
    assert page.locator("#events li.current").get_attribute("data-seq") == "9"
    assert page.locator("#chart path.series").count() == 4
    page.keyboard.press("ArrowRight")
    rendered(page, 11)
    page.wait_for_url("**/four.dmlog?at=11")  # the position to share
    page.keyboard.press("ArrowLeft")
    rendered(page, 10)
    page.keyboard.press("End")
    rendered(page, total)
    assert "Game over" in page.locator("#status").inner_text()
    page.keyboard.press("Home")
    rendered(page, 1)
    page.click("[data-action=next]")
    rendered(page, 2)
    page.click("#events li[data-seq='60']")
    rendered(page, 61)
    page.locator("#timeline").fill(str(total // 2))
    rendered(page, total // 2)
    page.click("[data-action=last]")
    rendered(page, total)
    texts = [t.strip() for t in page.locator(".player .total").all_inner_texts()]
    assert texts == [str(t) for t in api(server, "/api/replays/four.dmlog")["totals"]]


def test_a_shared_position_opens_there_and_playback_runs_and_pauses(page, server):
    page.goto(f"{server.url}/replay/four.dmlog?at=100")
    rendered(page, 100)
    page.select_option("#speed", "16")
    page.click("[data-action=play]")
    shown_at_least(page, 104)
    page.keyboard.press(" ")
    page.wait_for_timeout(150)  # a step already asked for may still land
    stopped = shown(page)
    page.wait_for_timeout(400)
    assert shown(page) == stopped


def test_a_log_is_uploaded_from_the_home_page(page, server, tmp_path):
    page.goto(server.url + "/")
    page.wait_for_selector("#replay-list a")
    log = tmp_path / "mine.dmlog"
    record_game(log, names=("Ann", "Bo"), seed=4, commands=20)
    page.set_input_files("#upload-file", str(log))
    page.click("#upload-form button[type=submit]")
    page.wait_for_url("**/replay/upload-*")
    page.wait_for_selector("body[data-rendered-seq]", state="attached")
    assert "Ann" in page.locator("#players").inner_text()
    damaged = bytearray(log.read_bytes())
    damaged[-30] ^= 0x42
    log.write_bytes(bytes(damaged))
    page.goto(server.url + "/")
    page.set_input_files("#upload-file", str(log))
    page.click("#upload-form button[type=submit]")
    page.wait_for_selector("#upload-error:has-text('damaged at byte')")


# -- playing and watching -----------------------------------------------------------------


def test_a_person_plays_a_few_moves_against_bots(page, server):
    from playwright.sync_api import expect

    game = api(
        server,
        "/api/games",
        {
            "players": [{"name": "Ann", "bot": None}, {"name": None, "bot": "greedy"}],
            "seed": 21,
            "pace": 0,
        },
    )
    page.goto(server.url + game["seats"][0]["link"])
    page.wait_for_selector(".hero-card")
    # the page numbers no seat: the example beer goes to a player by name
    assert "beer 12 to Brok" in page.get_attribute("#typed-input", "placeholder")
    page.click(".hero-card >> nth=0")
    trove = page.locator(".player[data-seat='0'] .trove .die")
    for taken in range(1, 4):
        page.locator("#mountain .die.selectable").first.click()
        expect(trove).to_have_count(taken)
        page.wait_for_selector("#mountain .die.selectable")
    page.locator("#mountain .die.covered").first.click()  # not offered: the engine says why
    page.wait_for_selector("#refusal:not([hidden])")
    refusal = page.locator("#refusal")
    assert "covered" in refusal.inner_text()
    # the engine's stable code is for scripts, not shown after the sentence
    assert refusal.get_attribute("data-code") == "die_covered"
    assert "die_covered" not in refusal.inner_text()
    page.click("text=Undo my last move")
    expect(trove).to_have_count(2)
    assert page.locator("#events li.undone").count() >= 1


def test_a_watcher_sees_a_live_game_update(page, server):
    people = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]
    game = api(server, "/api/games", {"players": people, "seed": 8})
    page.goto(server.url + game["watch"])
    rendered(page, game["seq"])
    assert page.locator("#action").is_hidden()  # a watcher has nothing to click
    page.wait_for_selector("#live-dot.on")
    seat = api(server, f"/api/games/{game['id']}")["to_act"]
    token = next(s["token"] for s in game["seats"] if s["seat"] == seat)
    post_command(server, game["id"], token, {"t": "hero", "hero": "Engineer"})
    rendered(page, game["seq"] + 1)
    assert "chose the Engineer" in page.locator("#events").inner_text()


def test_names_are_text_and_the_pages_fit_a_phone(browser, server):
    name = "<img src=x onerror=z=1>"  # markup would run it (24 characters: the limit)
    people = [{"name": name, "bot": None}, {"name": "Bo", "bot": None}]
    game = api(server, "/api/games", {"players": people})
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(server.url + game["seats"][0]["link"])
        page.wait_for_selector("body[data-rendered-seq]", state="attached")
        assert page.evaluate("window.z") is None
        assert name in page.locator("#players").inner_text()
        for path in ("/", "/replay/four.dmlog?at=70", game["watch"]):
            page.goto(server.url + path)
            if path == "/":
                page.wait_for_selector("#replay-list table")
            else:
                page.wait_for_selector("body[data-rendered-seq]", state="attached")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"{path} is {width}px wide on a 390px phone"
    finally:
        context.close()
