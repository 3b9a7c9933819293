"""What a player and a replay watcher found missing or wrong in the pages, checked in Chromium.

The keyboard reaches and uses every die that can be clicked; each card shows the
round's score so far; the solo card shows the sequences, the score's parts and
the refills left; the chart's legend fits; the replay's position names the event
the list highlights. See ``tests/support/web_support.py`` for when these tests skip.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from tests.support.web_support import LiveServer, api, make_app, my_turn, record_game
from tests.support.web_support import tab_to as support_tab_to

REPLAYS = Path(__file__).resolve().parents[3] / "replays"
LONG_NAMES = ("Bartholomew", "Gwendolyn", "Maximilian", "Theodora")
MAGIC_HEROES = ("Alchemist", "Dragon Slayer", "Surveyor")  # heroes with a magic face


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("web")
    app = make_app(root, SSE_MAX_SECONDS=30.0)
    record_game(app.config["REPLAYS_DIR"] / "long.dmlog", names=LONG_NAMES)
    with LiveServer(app) as live:
        yield live


def focused(page) -> dict:
    """What has the keyboard's focus: its tag, role, die id and hero face."""
    return page.evaluate(
        """() => { const n = document.activeElement;
        return {tag: n.tagName, role: n.getAttribute('role'), die: n.dataset ? n.dataset.die : null,
                hero: n.dataset ? (n.dataset.hero || null) : null,
                face: n.dataset ? (n.dataset.heroFace || null) : null,
                inMountain: !!n.closest('#mountain'), inPlayers: !!n.closest('#players')}; }"""
    )


def tab_to(page, wanted, presses: int = 80) -> dict:
    """Press Tab until ``wanted(focused(page))`` holds."""
    return support_tab_to(page, wanted, focused, presses)


# -- playing with the keyboard -------------------------------------------------------------


def test_a_player_chooses_takes_and_spends_magic_with_the_keyboard_only(page, server):
    from playwright.sync_api import expect

    people = [{"name": "Ann", "bot": None}, {"name": None, "bot": "greedy"}]
    game = api(server, "/api/games", {"players": people, "seed": 3, "pace": 0})
    token = game["seats"][0]["token"]
    page.goto(server.url + game["seats"][0]["link"])
    page.wait_for_selector(".hero-card")
    tab_to(page, lambda f: f["hero"] in MAGIC_HEROES)
    page.keyboard.press("Enter")
    page.wait_for_selector("#mountain .die.selectable")

    # a glowing die of the mountain is reached with Tab and taken with Enter
    die = tab_to(page, lambda f: f["inMountain"] and f["role"] == "button")["die"]
    page.keyboard.press("Enter")
    expect(page.locator(f".player[data-seat='0'] .trove .die[data-die='{die}']")).to_have_count(1)

    # the rest of the excavation through the API, up to this seat's magic turn
    while (choices := my_turn(server, game["id"]))["phase"] != "magic":
        take = next(iter(choices["take"].values()))[0]["command"]
        api(server, f"/api/games/{game['id']}/commands", {"command": take}, token)
    hero = next(s for s in choices["spend"] if s["hero_face"] is not None)
    assert 0 < hero["needed"] < len(hero["eligible"])  # a choice to make: this seed gives one
    page.wait_for_selector(".player[data-seat='0'] [data-hero-face].selectable")

    # the hero's magic face, then a die to reroll, each with Tab and Enter
    face = tab_to(page, lambda f: f["face"] == f"0:{hero['hero_face']}")["face"]
    page.keyboard.press("Enter")
    index = int(face.split(":")[1])
    # numbered as the event list and the typed command number it (spend h0 on ...)
    expect(page.locator("#prompt")).to_contain_text(f"Spending hero face h{index} ")
    # the redraw keeps the keyboard in the trove: the focus is on a die to reroll
    target = focused(page)
    assert target["inPlayers"] and target["role"] == "button", target
    assert int(target["die"]) in hero["eligible"]
    page.keyboard.press("Enter")
    spent = f"Ann spent hero face h{index} (1 magic) to reroll die {target['die']} ("
    expect(page.locator("#events")).to_contain_text(spent)


# -- what the cards show -------------------------------------------------------------------


def test_each_card_shows_the_round_so_far_from_the_server(page, server):
    page.goto(f"{server.url}/replay/long.dmlog?at=40")
    page.wait_for_selector("body[data-rendered-seq='40']", state="attached")
    state = api(server, "/api/replays/long.dmlog/state?at=40")
    assert state["phase"] in ("excavation", "magic")
    for seat, (tunnels, treasure, hazards) in enumerate(state["table"]["round_now"]):
        text = page.locator(f".player[data-seat='{seat}'] .now").inner_text()
        total = tunnels + treasure + hazards
        assert text.startswith(f"this round so far: {total}".replace("-", "\u2212")), text
        assert f"tunnels {tunnels} · treasure {treasure}" in text
    page.keyboard.press("End")
    page.wait_for_selector("#status:has-text('Game over')")
    assert page.locator(".player .now").count() == 0  # nothing is in play once the game is over


def test_the_solo_card_shows_sequences_score_parts_and_refills(page, server):
    game = api(server, "/api/games", {"players": [{"name": "Sol", "bot": None}], "mode": "solo"})
    page.goto(server.url + game["seats"][0]["link"])
    page.wait_for_selector("body[data-rendered-seq]", state="attached")
    line = page.locator(".player .now.solo")
    assert "2 refills left" in line.inner_text()
    assert "tunnels 0 · treasure 0 · frozen 0 · hazards 0" in line.inner_text()
    hint = page.get_attribute("#typed-input", "placeholder")
    assert "refill" in hint and "beer" not in hint and "cache" not in hint


def test_the_solo_trove_is_drawn_sequence_by_sequence(page, server):
    from core.read.views import walk
    from core.store import load_batches

    server.app.config["REPLAYS_DIR"].joinpath("solo.dmlog").write_bytes(
        (REPLAYS / "solo.dmlog").read_bytes()
    )
    _, batches = load_batches(REPLAYS / "solo.dmlog")
    at, sequences = next(
        (s.seq + 1, s.after.solo.sequences)
        for s in walk(batches)
        if len(s.after.solo.sequences) >= 3
    )
    page.goto(f"{server.url}/replay/solo.dmlog?at={at}")
    page.wait_for_selector(f"body[data-rendered-seq='{at}']", state="attached")
    groups = page.evaluate(
        """() => { const out = [[]];
        for (const n of document.querySelectorAll('.player .trove > *')) {
          if (n.classList.contains('gap')) out.push([]);
          else out.at(-1).push(Number(n.dataset.die));
        } return out; }"""
    )
    assert groups[: len(sequences)] == [list(seq) for seq in sequences]


# -- the replay viewer ---------------------------------------------------------------------


def test_the_chart_legend_fits_four_long_names(page, server):
    page.goto(f"{server.url}/replay/long.dmlog")
    page.wait_for_selector("body[data-rendered-seq='1']", state="attached")
    page.keyboard.press("End")
    page.wait_for_selector("#status:has-text('Game over')")
    boxes = page.evaluate(
        """() => { const root = document.getElementById('chart');
        const width = root.viewBox.baseVal.width, height = root.viewBox.baseVal.height;
        return [...root.querySelectorAll('text.legend')].map((t) => { const b = t.getBBox();
          return {text: t.textContent, x: b.x, y: b.y, right: b.x + b.width, bottom: b.y + b.height,
                  width, height}; }); }"""
    )
    assert len(boxes) == 4
    for box in boxes:
        assert box["x"] >= 0 and box["right"] <= box["width"], box
        assert box["bottom"] <= box["height"], box
    for a, b in itertools.pairwise(boxes):
        same_row = abs(a["y"] - b["y"]) < 1
        assert not same_row or a["right"] <= b["x"], (a, b)
    for name in LONG_NAMES:
        assert any(box["text"].startswith(name) for box in boxes), name


def test_the_position_names_the_event_the_list_highlights(page, server):
    page.goto(f"{server.url}/replay/long.dmlog?at=10")
    page.wait_for_selector("body[data-rendered-seq='10']", state="attached")
    current = page.locator("#events li.current").get_attribute("data-seq")
    total = api(server, "/api/replays/long.dmlog")["events"]
    assert current == "9"
    # counted one way, by seq from 0 as the list numbers the events (not "event 9 · 10 of N")
    assert page.locator("#position").inner_text() == f"event 9 of {total - 1}"
    page.keyboard.press("End")
    page.wait_for_selector(f"body[data-rendered-seq='{total}']", state="attached")
    last = page.locator("#events li.current").get_attribute("data-seq")
    assert page.locator("#position").inner_text() == f"event {last} of {last}"
