"""Three things a review found in the pages, each checked where a player sees it.

A neutralized hazard and its tool die (and a frozen treasure and its chest die)
are drawn as a pair, not struck out like a spent magic die; ``help`` typed in the
game page's command box lists the commands one may type now, without sending
anything; the die numbers on the mountain are readable on a 390 px phone. The
browser tests run in Debian's Chromium (see ``tests/support/web_support.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.read.views import walk
from core.store import load_batches
from frontends.web.readmodel import board_view
from tests.support.web_support import api, open_page

REPLAYS = Path(__file__).resolve().parents[3] / "replays"
SOLO_AT = 48  # the golden solo log: four hazards neutralized, two treasures frozen on one chest
MOUNTAIN_AT = 8  # the four-player golden log: the mountain just filled


# -- the read model --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def replays():
    return ("solo.dmlog", "four-players.dmlog")


def test_the_solo_board_says_which_tool_neutralizes_which_hazard_and_which_chest_holds_what():
    _, batches = load_batches(REPLAYS / "solo.dmlog")
    seen = set()
    for step in walk(batches):
        state = step.after
        if not state.troves:
            continue
        table = board_view(state, step.seq + 1)["table"]
        assert table["neutralized"] == [list(pair) for pair in state.solo.neutralized]
        assert table["frozen"] == [list(pair) for pair in state.solo.frozen]
        seen.update(key for key in ("neutralized", "frozen") if table[key])
    assert seen == {"neutralized", "frozen"}


# -- in the browser --------------------------------------------------------------------------


def die_info(page, die: int) -> dict:
    return page.evaluate(
        """(id) => { const n = document.querySelector(`.player .trove svg.die[data-die="${id}"]`);
        const group = n.closest('.link-group');
        const ids = (root) => [...root.querySelectorAll('svg.die')]
          .map((d) => Number(d.dataset.die));
        return {title: n.querySelector('title').textContent,
                struck: !!n.querySelector('.die-strike'),
                opacity: Number(getComputedStyle(n).opacity),
                badges: [...n.querySelectorAll('.badge')].map((b) => b.getAttribute('class')),
                group: group ? ids(group) : null, link: group ? group.dataset.link : null}; }""",
        die,
    )


def test_a_neutralized_hazard_and_its_tool_are_a_pair_not_a_spent_die(page, server):
    table = api(server, f"/api/replays/solo.dmlog/state?at={SOLO_AT}")["table"]
    assert len(table["neutralized"]) >= 2 and table["frozen"]
    page.goto(f"{server.url}/replay/solo.dmlog?at={SOLO_AT}")
    page.wait_for_selector(f"body[data-rendered-seq='{SOLO_AT}']", state="attached")
    for hazard, tool in table["neutralized"]:  # rule D9 area: one tool die for one hazard die
        h, t = die_info(page, hazard), die_info(page, tool)
        assert f"neutralized by die {tool}" in h["title"], h
        assert f"neutralizes die {hazard}" in t["title"], t
        assert not h["struck"] and h["opacity"] == 1, h  # it scores: not drawn like a spent die
        assert any("badge-check" in b for b in h["badges"]), h
        assert any("badge-link" in b for b in t["badges"]), t
        assert h["link"] == "neutralized" and h["group"] == [hazard, tool], h
    for treasure, chest in table["frozen"]:
        d, c = die_info(page, treasure), die_info(page, chest)
        assert f"frozen on the chest of die {chest}" in d["title"], d
        assert "holds frozen" in c["title"] and str(treasure) in c["title"], c
        assert d["link"] == "frozen" and treasure in d["group"] and d["group"][-1] == chest, d


def test_help_in_the_command_box_lists_the_commands_of_now_and_sends_nothing(page, server):
    people = [{"name": "Ann", "bot": None}, {"name": None, "bot": "greedy"}]
    game = api(server, "/api/games", {"players": people, "seed": 3, "pace": 0})
    page.goto(server.url + game["seats"][0]["link"])
    page.wait_for_selector(".hero-card")  # Ann's turn: the choices are on the page
    choices = api(server, f"/api/games/{game['id']}/choices")
    events = page.locator("#events li").count()

    page.fill("#typed-input", "help")
    page.press("#typed-input", "Enter")
    page.wait_for_selector("#help:not([hidden])")
    offered = page.eval_on_selector_all("#help .cmd", "ns => ns.map((n) => n.dataset.text)")
    assert set(offered) == {o["text"] for o in choices["heroes"]} | {"undo"}
    assert "beer DIE to PLAYER" in page.locator("#help .help-syntax").inner_text()
    assert page.locator("#refusal").is_hidden()  # an answer, not an error
    assert page.posts == [] and page.locator("#events li").count() == events
    assert page.input_value("#typed-input") == ""

    # a command of the list goes into the box, to be sent or not; Escape closes the help
    page.locator("#help .cmd").first.click()
    assert page.input_value("#typed-input") == offered[0]
    page.keyboard.press("Escape")
    page.wait_for_selector("#help", state="hidden")
    page.fill("#typed-input", "?")
    page.press("#typed-input", "Enter")
    page.wait_for_selector("#help:not([hidden])")
    assert page.posts == []


def test_help_in_a_solo_game_lists_its_takes_spends_and_stop(page, server):
    game = api(
        server, "/api/games", {"players": [{"name": "Sol", "bot": None}], "mode": "solo", "seed": 4}
    )
    page.goto(server.url + game["seats"][0]["link"])
    page.wait_for_selector("#mountain .die.selectable, #action-buttons button:has-text('Stop')")
    choices = api(server, f"/api/games/{game['id']}/choices")
    page.fill("#typed-input", "HELP")
    page.press("#typed-input", "Enter")
    page.wait_for_selector("#help:not([hidden])")
    offered = page.eval_on_selector_all("#help .cmd", "ns => ns.map((n) => n.dataset.text)")
    wanted = [o["text"] for options in choices["take"].values() for o in options]
    wanted += [  # a spend with nothing to choose (rule D6) is offered whole
        s["forced"]["text"] if s["forced"] else f"spend {s['die']} on " for s in choices["spend"]
    ]
    wanted += [choices[k]["text"] for k in ("refill", "stop") if k in choices] + ["undo"]
    assert sorted(offered) == sorted(wanted)
    syntax = page.locator("#help .help-syntax").inner_text()
    assert "take DIE freeze" in syntax and "beer DIE to PLAYER" not in syntax
    assert any(text.startswith("take ") for text in offered)
    assert page.posts == []


def mountain_ids(page) -> list[dict]:
    """Each mountain die number: its drawn font size in CSS pixels, and if it is inside its die."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#mountain .die-id')].map((t) => {
          const b = t.getBoundingClientRect(), d = t.closest('svg.die').getBoundingClientRect();
          const px = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
          const inside = b.left >= d.left && b.right <= d.right
            && b.top >= d.top && b.bottom <= d.bottom;
          return {id: t.textContent, px, inside}; })"""
    )


@pytest.mark.parametrize("width", [390, 1366])
def test_the_mountain_die_numbers_are_readable_on_a_phone_and_on_a_desktop(browser, server, width):
    context, page = open_page(browser, server, width, 844)
    try:
        page.goto(f"{server.url}/replay/four-players.dmlog?at={MOUNTAIN_AT}")
        page.wait_for_selector(f"body[data-rendered-seq='{MOUNTAIN_AT}']", state="attached")
        ids = mountain_ids(page)
        assert len(ids) == 20
        for number in ids:
            assert number["px"] >= 11, number  # 8.5 px at 390 before
            assert number["inside"], number
        wide = page.evaluate(
            "() => document.getElementById('mountain').getBoundingClientRect().width"
        )
        assert wide <= width  # the mountain still fits the page
        assert page.errors == []
    finally:
        context.close()
