"""The game page draws the served choices, rule D6's forced spends included, in Chromium.

A spend that leaves nothing to choose comes from the server whole: a click on
its magic die sends it at once (the page works out nothing), and "help" lists
it as the complete command. See ``tests/support/web_support.py`` for when these skip.
"""

from __future__ import annotations

from tests.support.solo_lines import FORCED_SOLO
from tests.support.web_support import api


def typed(page, line: str) -> None:
    seq = page.get_attribute("body", "data-rendered-seq")
    page.fill("#typed-input", line)
    page.press("#typed-input", "Enter")
    page.wait_for_selector(f"body:not([data-rendered-seq='{seq}'])", state="attached")


def test_a_click_on_a_magic_die_with_no_choice_left_spends_it_as_served(page, server):
    body = {"players": [{"name": "You", "bot": None}], "mode": "solo", "seed": 26}
    game = api(server, "/api/games", body)
    page.goto(server.url + game["seats"][0]["link"])
    page.wait_for_selector("body[data-rendered-seq]", state="attached")
    for line in FORCED_SOLO:
        typed(page, line)
    (spend,) = api(server, f"/api/games/{game['id']}/choices")["spend"]
    assert spend["forced"]["text"] == "spend 52 on 32"

    page.fill("#typed-input", "help")  # the forced spend is listed whole, ready to send
    page.press("#typed-input", "Enter")
    page.wait_for_selector("#help:not([hidden])")
    offered = page.eval_on_selector_all("#help .cmd", "ns => ns.map((n) => n.dataset.text)")
    assert "spend 52 on 32" in offered and "spend 52 on " not in offered
    page.keyboard.press("Escape")

    seq, posts = page.get_attribute("body", "data-rendered-seq"), len(page.posts)
    page.locator(".player [data-die='52']").click()  # no die to pick: it is spent at once
    page.wait_for_selector(f"body:not([data-rendered-seq='{seq}'])", state="attached")
    assert page.locator("#refusal").is_hidden()
    assert "spent die 52 (1 magic), which leaves the game, to recycle die 32" in (
        page.locator("#events").inner_text()
    )
    assert len(page.posts) == posts + 1  # one command sent: the one served
