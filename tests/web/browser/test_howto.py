"""The "How to play" panel in a real Chromium: opened by click and by "?", shut by Esc.

Chromium is Debian's, driven by Playwright (``tests/support/web_support.py`` says when
these tests skip). The panel must not let the page's own keys act behind it,
and must fit a phone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from frontends import rules_summary
from tests.support.web_support import api, watched_page

REPO = Path(__file__).resolve().parents[3]
RENDERED = "body[data-rendered-seq='{}']"


@pytest.fixture(scope="module")
def replays():
    return ("two-players.dmlog", "solo.dmlog")


def summary_shown(page) -> list[str]:
    """The summary's paragraphs as the panel shows them."""
    texts = page.locator("#howto .howto-summary p:not(.howto-more)").all_inner_texts()
    return [t.strip() for t in texts]


def test_the_replay_viewer_opens_the_panel_by_click_and_by_key(page, server):
    from playwright.sync_api import expect

    page.goto(f"{server.url}/replay/two-players.dmlog?at=10")
    page.wait_for_selector(RENDERED.format(10), state="attached")
    howto = page.locator("#howto")
    expect(howto).to_be_hidden()
    page.click("#howto-open")
    expect(howto).to_be_visible()
    assert summary_shown(page) == list(rules_summary.paragraphs(solo=False))
    page.keyboard.press("ArrowRight")  # the viewer's keys rest while the panel is open
    page.keyboard.press("Escape")
    expect(howto).to_be_hidden()
    assert page.get_attribute("body", "data-rendered-seq") == "10"
    page.keyboard.press("?")
    expect(howto).to_be_visible()
    page.click("#howto [data-close]")
    expect(howto).to_be_hidden()
    page.keyboard.press("ArrowRight")  # and work again once it is shut
    page.wait_for_selector(RENDERED.format(11), state="attached")


def test_a_solo_replay_shows_the_solo_summary(page, server):
    page.goto(f"{server.url}/replay/solo.dmlog")
    page.wait_for_selector("body[data-rendered-seq]", state="attached")
    page.keyboard.press("?")
    page.wait_for_selector("#howto[open]")
    assert summary_shown(page) == list(rules_summary.paragraphs(solo=True))
    assert page.locator("#howto h3").first.text_content() == "The solo game"


def test_the_game_page_opens_the_panel_by_key_and_click_and_esc_shuts_it(page, server):
    from playwright.sync_api import expect

    sol = [{"name": "Sol", "bot": None}]
    game = api(server, "/api/games", {"players": sol, "mode": "solo", "seed": 4})
    page.goto(server.url + game["seats"][0]["link"])
    page.wait_for_selector("#typed:not([hidden])")
    howto = page.locator("#howto")
    page.locator("#typed-input").press("?")  # a "?" typed in the command box is the box's own
    expect(howto).to_be_hidden()
    assert page.locator("#typed-input").input_value() == "?"
    page.locator("#typed-input").fill("")
    page.locator("#status").click()  # the focus leaves the box
    page.keyboard.press("?")
    expect(howto).to_be_visible()
    assert summary_shown(page) == list(rules_summary.paragraphs(solo=True))
    assert "take 30 freeze" in howto.inner_text()
    page.keyboard.press("Escape")
    expect(howto).to_be_hidden()
    page.click("#howto-open")
    expect(howto).to_be_visible()
    page.mouse.click(5, 450)  # beside the panel: on the backdrop
    expect(howto).to_be_hidden()
    assert page.posts == []  # opening the rules sent nothing


def test_a_watcher_of_a_multiplayer_game_gets_the_round_summary(page, server):
    people = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]
    game = api(server, "/api/games", {"players": people, "seed": 8})
    page.goto(server.url + game["watch"])
    page.wait_for_selector("body[data-rendered-seq]", state="attached")
    page.click("#howto-open")
    page.wait_for_selector("#howto[open]")
    assert summary_shown(page) == list(rules_summary.paragraphs(solo=False))
    with page.expect_popup() as popup:
        page.click("#howto a[href='/rules']")
    rules = popup.value
    rules.wait_for_load_state()
    assert rules.locator("h2[id='4-solo-game']").inner_text() == "4. Solo game"
    rules.close()


def test_the_panel_and_the_rules_fit_a_phone(browser, server):
    with watched_page(browser, server, width=390, height=844) as page:
        page.goto(f"{server.url}/replay/two-players.dmlog?at=5")
        page.wait_for_selector(RENDERED.format(5), state="attached")
        page.click("#howto-open")
        box = page.locator("#howto").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844
        page.keyboard.press("Escape")
        page.goto(f"{server.url}/rules")
        page.wait_for_selector("article.rules h1")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
