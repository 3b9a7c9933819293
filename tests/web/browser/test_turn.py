"""A player's turn in Chromium: it never stops for one failed request, the tab says whose
turn it is, and an action that ends the game is asked twice. See ``tests/support/web_support.py``
for when these tests skip."""

from __future__ import annotations

import time

import pytest

from tests.support.web_support import LiveServer, api, make_app

GLOWING = "#mountain [role=button][data-die]"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("web"), SSE_MAX_SECONDS=30.0)
    with LiveServer(app) as live:
        yield live


def solo(server) -> dict:
    body = {"players": [{"name": "You", "bot": None}], "mode": "solo", "seed": 11}
    return api(server, "/api/games", body)


def fail_choices(page, times: int | None) -> list[str]:
    """Make the page's choices requests fail at the network (``times`` of them; None: all
    until the returned list gets an item); returns the list of the requests answered."""
    seen: list[str] = []
    failing = {"left": times}

    def route(route):
        left = failing["left"]
        if left is None or left > 0:
            if left is not None:
                failing["left"] = left - 1
            seen.append("failed")
            return route.abort("internetdisconnected")
        seen.append("passed")
        return route.continue_()

    page.route("**/choices", route)
    return seen


def test_a_failed_choices_request_is_asked_again_and_the_turn_goes_on(page, server):
    game = solo(server)
    seen = fail_choices(page, times=2)
    page.goto(server.url + game["seats"][0]["link"])
    # the failure is named for what it is (the choices), never a move that was not made
    page.wait_for_selector("#refusal[data-code='choices-retrying']")
    said = page.locator("#refusal").inner_text()
    assert "choices could not be loaded" in said and "move" not in said
    page.wait_for_selector(GLOWING)  # asked again: the dice glow, no reload
    assert seen[:3] == ["failed", "failed", "passed"]
    assert page.locator("#refusal").is_hidden()
    seq = page.get_attribute("body", "data-rendered-seq")
    page.locator(GLOWING).first.click()  # and the turn is played
    page.wait_for_selector(f"body:not([data-rendered-seq='{seq}'])", state="attached")
    assert page.locator("#refusal").is_hidden()


def test_the_browser_back_online_asks_at_once(page, server):
    game = solo(server)
    seen = fail_choices(page, times=None)
    page.goto(server.url + game["seats"][0]["link"])
    deadline = time.monotonic() + 10
    while seen.count("failed") < 4 and time.monotonic() < deadline:  # the next wait is 4 s
        page.wait_for_timeout(50)
    assert seen.count("failed") >= 4
    page.unroute("**/choices")
    context = page.context
    context.set_offline(True)
    context.set_offline(False)  # the "online" event: no waiting out the backoff
    started = time.monotonic()
    page.wait_for_selector(GLOWING, timeout=3000)
    assert time.monotonic() - started < 3


def test_the_tab_says_your_turn_with_a_marked_icon(page, server):
    game = solo(server)
    page.goto(server.url + game["seats"][0]["link"])
    page.wait_for_selector("body[data-my-turn='yes']", state="attached")
    assert page.title().startswith("Your turn · ")
    assert page.get_attribute("link[rel=icon]", "href").startswith("data:image/svg+xml")
    toggle = page.locator("#turn-alert")
    assert toggle.get_attribute("aria-pressed") == "false"  # off by default
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('dm-turn-alert')") == "on"


def test_a_watcher_gets_no_turn_signal(page, server):
    game = solo(server)
    page.goto(server.url + f"/games/{game['id']}")
    page.wait_for_selector("body[data-my-turn='no']", state="attached")
    assert not page.title().startswith("Your turn")
    assert page.locator("#turn-alert").is_hidden()


def test_stop_and_score_is_asked_twice(page, server):
    game = solo(server)
    page.goto(server.url + game["seats"][0]["link"])
    page.wait_for_selector(GLOWING)
    posts = len(page.posts)
    page.get_by_role("button", name="Stop and score…").click()
    assert len(page.posts) == posts  # nothing sent yet: the question is asked
    assert "This ends the game" in page.locator("#menu").inner_text()
    page.get_by_role("button", name="Cancel").click()
    assert page.locator("#menu").is_hidden()
    assert api(server, f"/api/games/{game['id']}/state")["phase"] != "over"

    page.get_by_role("button", name="Stop and score…").click()
    page.get_by_role("button", name="Yes, stop and score").click()
    page.wait_for_selector("#after:not([hidden])")
    assert api(server, f"/api/games/{game['id']}/state")["phase"] == "over"


def focused_die(page) -> str | None:
    return page.evaluate("document.activeElement && document.activeElement.dataset.die || null")


def test_keyboard_play_with_the_terminal_keys(page, server):
    game = solo(server)
    page.goto(server.url + game["seats"][0]["link"])
    page.wait_for_selector(GLOWING)
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("j")  # a move key with no die focused: the first usable die
    first = focused_die(page)
    assert first is not None
    seq = page.get_attribute("body", "data-rendered-seq")
    moved = set()
    for key in ("ArrowRight", "ArrowLeft", "ArrowRight", "ArrowDown", "ArrowUp"):
        page.keyboard.press(key)  # on a die the arrows move among the dice, not the history
        moved.add(focused_die(page))
    assert None not in moved and len(moved) > 1
    assert page.get_attribute("body", "data-rendered-seq") == seq  # the history did not move
    assert page.locator("#now").is_disabled()

    die = focused_die(page)
    page.keyboard.press("Enter")  # Enter uses the focused die: taken
    page.wait_for_selector(f"body:not([data-rendered-seq='{seq}'])", state="attached")
    assert page.locator(f"#mountain [data-die='{die}']").count() == 0
    taken = page.get_attribute("body", "data-rendered-seq")
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("u")  # u: undo, as in the terminal
    page.wait_for_selector(f"body:not([data-rendered-seq='{taken}'])", state="attached")
    page.wait_for_selector(f"#mountain [data-die='{die}']")

    page.keyboard.press("s")  # s: stop, asked first
    page.wait_for_selector("#menu:not([hidden])")
    assert "This ends the game" in page.locator("#menu").inner_text()
    page.keyboard.press("Escape")
    page.wait_for_selector("#menu", state="hidden")
    page.keyboard.press(":")  # : goes to the command line, the colon not typed
    assert page.evaluate("document.activeElement.id") == "typed-input"
    assert page.input_value("#typed-input") == ""
    assert api(server, f"/api/games/{game['id']}/state")["phase"] != "over"


def test_the_action_buttons_name_their_keys(page, server):
    game = solo(server)
    page.goto(server.url + game["seats"][0]["link"])
    page.wait_for_selector(GLOWING)
    stop = page.get_by_role("button", name="Stop and score…")
    assert stop.get_attribute("aria-keyshortcuts") == "s"


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_your_trove_is_in_view_while_you_choose_a_die(browser, server, width, height, tmp_path):
    game = solo(server)
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(server.url + game["seats"][0]["link"])
    token = game["seats"][0]["token"]
    choices = api(server, f"/api/games/{game['id']}/choices")  # a die taken (the API)
    command = next(iter(choices["take"].values()))[0]["command"]
    answer = api(server, f"/api/games/{game['id']}/commands", {"command": command}, token)
    page.wait_for_selector(f"body[data-rendered-seq='{answer['state']['seq']}']", state="attached")
    page.wait_for_selector("[role=button][data-die]")  # choosing again
    trove = api(server, f"/api/games/{game['id']}/state")["players"][0]["trove"]
    peek = page.locator("#trove-peek")
    assert peek.locator("svg.die").count() == len(trove) == 4  # three magic dice and the one taken
    box = peek.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height
    mountain = page.locator("#mountain").bounding_box()
    assert mountain is not None and mountain["y"] < height  # the mountain beside it
    page.screenshot(path=str(tmp_path / f"choosing-{width}.png"))
    context.close()


def test_the_home_list_says_whose_turn_and_marks_yours(page, server):
    players = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]
    game = api(server, "/api/games", {"players": players, "seed": 5, "pace": 0})
    page.goto(server.url + game["seats"][0]["link"])  # this browser plays Ann
    page.wait_for_selector("body[data-rendered-seq]", state="attached")
    page.goto(server.url + "/")
    row = page.locator("#game-list tr", has=page.locator(f"a[href='/games/{game['id']}']"))
    row.wait_for()
    to_act = api(server, f"/api/games/{game['id']}")["to_act"]
    assert ["Ann", "Bo"][to_act] in row.inner_text()  # whose turn
    assert row.locator(".turn-words.yours").count() == (1 if to_act == 0 else 0)
    # another browser, which plays no seat of it, is told whose turn without "your"
    other = page.context.browser.new_context().new_page()
    other.goto(server.url + "/")
    row = other.locator("#game-list tr", has=other.locator(f"a[href='/games/{game['id']}']"))
    row.wait_for()
    assert ["Ann", "Bo"][to_act] in row.inner_text()
    assert row.locator(".turn-words").count() == 0
    other.context.close()
