"""The home page's form in Chromium: a person's name is asked, never assumed; a name or a
seed that will not do is refused in words (not cut, not rounded, not turned into a random
game); a chosen seed says it makes the dice foreseeable and names who chose it.

See ``tests/support/web_support.py`` for when these tests skip.
"""

from __future__ import annotations

from tests.support.web_support import api

MAX_SEED = 2**64 - 1


def home(page, server) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#seat-rows select")


def refused(page, words: str) -> None:
    from playwright.sync_api import expect

    expect(page.locator("#game-error")).to_contain_text(words)
    assert not any(url.endswith("/api/games") for url in page.posts)  # nothing was sent


def started(page, server) -> dict:
    """The game the form started (its first person's page is opened)."""
    page.wait_for_url("**/games/*")
    game_id = page.url.split("/games/")[1].split("#")[0]
    return api(server, f"/api/games/{game_id}")


def test_a_person_is_asked_for_a_name_and_you_is_no_default(page, server):
    home(page, server)
    name = page.locator("input[name=name0]")
    assert name.input_value() == "" and name.get_attribute("placeholder") == "Your name"
    page.click("#start-game")
    refused(page, "Seat 1: the name of the person playing it")
    assert page.evaluate("document.activeElement.name") == "name0"
    assert name.get_attribute("aria-invalid") == "true"
    page.click("#start-solo")  # the solo game asks too
    refused(page, "Seat 1: the name of the person playing it")
    name.fill("Ann")
    page.click("#start-game")
    game = started(page, server)
    assert game["players"][0] == "Ann" and "You" not in game["players"]


def test_a_name_too_long_is_refused_in_words_not_cut(page, server):
    home(page, server)
    assert page.locator("input[name=name0]").get_attribute("maxlength") is None
    long = "Bartholomew the Magnificent"  # 27 characters, pasted whole
    page.fill("input[name=name0]", long)
    assert page.locator("input[name=name0]").input_value() == long
    page.click("#start-game")
    refused(page, "Seat 1: a name has at most 24 characters; this one has 27.")
    # and the server refuses it too, whoever sends it
    try:
        api(server, "/api/games", {"players": [{"name": long, "bot": None}], "mode": "solo"})
    except Exception as exc:  # urllib's HTTPError
        assert exc.code == 400
        assert "a name is 1 to 24 printable characters" in exc.read().decode()
    else:
        raise AssertionError("a 27-character name was taken")


def test_a_seed_is_sent_with_all_its_digits_or_refused(page, server):
    home(page, server)
    page.fill("input[name=name0]", "Ann")
    page.fill("input[name=seed]", "9" * 5_000)  # was sent as null: a random game, said nowhere
    page.click("#start-game")
    refused(page, "A seed is a whole number from 0 to 18446744073709551615")
    page.fill("input[name=seed]", str(MAX_SEED))  # 20 digits: a JavaScript number rounds it
    page.click("#start-game")
    dice = started(page, server)["dice"]
    assert dice == {"kind": "chosen", "seed": MAX_SEED, "chosen_by": "Ann"}


def test_the_seed_field_says_a_chosen_seed_makes_the_dice_foreseeable(page, server):
    home(page, server)
    hint = page.locator("#" + page.get_attribute("input[name=seed]", "aria-describedby"))
    assert "makes the dice foreseeable" in hint.inner_text()
    page.fill("input[name=name0]", "Ann")
    page.click("#start-solo")
    assert started(page, server)["dice"]["kind"] == "secret"  # no seed: a secret one
