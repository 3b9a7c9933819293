"""The pages for people who use a keyboard, a screen reader or a small screen, checked in Chromium.

Names come from Playwright's ARIA snapshots, contrast from computed styles. Each
test guards one fix of the accessibility review; see ``tests/support/web_support.py`` for
when these tests skip.
"""

from __future__ import annotations

import re

import pytest

from tests.support.web_support import LiveServer, api, make_app, my_turn, record_game
from tests.support.web_support import tab_to as support_tab_to

RENDERED = "body[data-rendered-seq='{}']"

# A die's name: its id, kind and face, then where it lies in the mountain.
MOUNTAIN_DIE = re.compile(r"^die \d+: [a-z]+, [^;]+; (on top|side|covered), row [0-4], col [0-5]$")

# WCAG 2.x relative luminance and contrast, computed in the page from computed styles. A
# filter's brightness() scales a colour's channels; the die's own filter dims body and id alike.
DIE_ID_CONTRAST = """(selector) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map((v) => Number(v) / 255);
  const lin = (v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  const lum = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  const bright = (node) => {
    const m = /brightness\\(([\\d.]+)\\)/.exec(getComputedStyle(node).filter);
    return m ? Number(m[1]) : 1;
  };
  const out = [];
  for (const die of document.querySelectorAll(selector)) {
    const id = die.querySelector(".die-id");
    const body = die.querySelector(".die-body");
    if (!id) continue;
    const shade = (node) => rgb(getComputedStyle(node).fill)
      .map((v) => Math.min(1, v * bright(node) * bright(die)));
    const alpha = Number(getComputedStyle(id).opacity);
    const bg = shade(body);
    const fg = shade(id).map((v, i) => alpha * v + (1 - alpha) * bg[i]);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    out.push([die.getAttribute("class"), (hi + 0.05) / (lo + 0.05)]);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("web")
    app = make_app(root, SSE_MAX_SECONDS=30.0)
    record_game(app.config["REPLAYS_DIR"] / "undo.dmlog", names=("Ann", "Bo", "Cy"), undo_every=7)
    with LiveServer(app) as live:
        yield live


def rendered(page, seq: int) -> None:
    page.wait_for_selector(RENDERED.format(seq), state="attached")


def new_game(server, seed: int = 3, people: int = 1) -> dict:
    players = [
        {"name": "Ann", "bot": None},
        {"name": "Bo", "bot": None if people > 1 else "greedy"},
    ]
    return api(server, "/api/games", {"players": players, "seed": seed, "pace": 0})


def play_until(server, game, wanted) -> dict:
    """Play seat 0 through the API (first hero, first take, end magic) until ``wanted(choices)``."""
    token = game["seats"][0]["token"]
    for _ in range(200):
        choices = my_turn(server, game["id"])
        if wanted(choices):
            return choices
        if choices.get("heroes"):
            command = choices["heroes"][0]["command"]
        elif choices.get("take"):
            command = next(iter(choices["take"].values()))[0]["command"]
        elif choices.get("end"):
            command = choices["end"]["command"]
        else:
            command = {"t": "cache", "dice": []}
        api(server, f"/api/games/{game['id']}/commands", {"command": command}, token)
    raise AssertionError("never reached the wanted choices")


def focused(page) -> dict:
    return page.evaluate(
        """() => { const n = document.activeElement;
        const ring = n.querySelector && n.querySelector('.die-ring');
        return {tag: n.tagName, cls: n.getAttribute('class'), role: n.getAttribute('role'),
                die: n.dataset ? n.dataset.die || null : null,
                pressed: n.getAttribute('aria-pressed'), outline: getComputedStyle(n).outlineStyle,
                ring: ring ? getComputedStyle(ring).strokeDasharray : null,
                inMountain: !!n.closest('#mountain'), inPlayers: !!n.closest('#players')}; }"""
    )


def tab_to(page, wanted, presses: int = 80) -> dict:
    """Press Tab until ``wanted(focused(page))`` holds."""
    return support_tab_to(page, wanted, focused, presses)


# -- names for screen readers -----------------------------------------------------------------


def test_the_mountain_is_a_group_of_named_dice_with_a_summary(page, server):
    page.goto(f"{server.url}/replay/undo.dmlog?at=15")
    rendered(page, 15)
    state = api(server, "/api/replays/undo.dmlog/state?at=15")
    tops = len(state["table"]["top"])
    snapshot = page.locator("#mountain").aria_snapshot()
    dice, bag = len(state["mountain"]), len(state["bag"])
    summary = f'group "The mountain: {dice} dice, {tops} on top; {bag} in the bag"'
    assert summary in snapshot.splitlines()[0], snapshot  # a group: an image would hide the dice
    names = re.findall(r'img "([^"]+)"', snapshot)
    assert len(names) == len(state["mountain"])
    assert all(MOUNTAIN_DIE.match(name) for name in names), names
    assert sum("; on top," in name for name in names) == tops


def test_cards_hero_faces_and_the_event_list_have_names(page, server):
    page.goto(f"{server.url}/replay/undo.dmlog?at=60")
    rendered(page, 60)
    players = page.locator("#players").aria_snapshot()
    for name in ("Ann", "Bo", "Cy"):
        assert f'article "{name}"' in players
    assert re.search(
        r'img "hero face h0: [^"]+"', players
    )  # numbered as "spend h0 on 3" numbers it
    to_act = api(server, "/api/replays/undo.dmlog/state?at=60")["table"]["to_act_seat"]
    card = page.locator(f".player[data-seat='{to_act}'] header").inner_text()
    assert "(to act)" in card  # not said by the card's colour alone
    events = page.locator("#events")
    assert events.aria_snapshot().startswith('- list "Events"')
    assert events.locator("li[aria-current=step]").get_attribute("data-seq") == "59"
    undone = events.locator("li.undone")
    assert undone.count() >= 1
    assert all(text.endswith("(undone)") for text in undone.all_inner_texts())


def test_the_pages_have_one_first_heading_and_no_empty_landmark(page, server):
    game = new_game(server)
    for path in ("/", "/rules", "/replay/undo.dmlog?at=5", game["watch"]):
        page.goto(server.url + path)
        page.wait_for_load_state()
        assert page.locator("h1").count() == 1, path
        for nav in page.locator("nav").all():
            assert nav.locator("a, button").count() >= 1, f"{path}: an empty navigation landmark"


def test_a_hero_card_is_named_by_its_hero_and_faces(page, server):
    game = new_game(server, seed=5)
    page.goto(server.url + game["seats"][0]["link"])
    page.wait_for_selector(".hero-card")
    heroes = page.locator("#heroes").aria_snapshot()
    assert 'button "Engineer, faces: tunnel 2, pickaxe"' in heroes


# -- what is announced -----------------------------------------------------------------------


def test_the_game_announces_new_events_and_the_status_only_when_it_changes(page, server):
    game = new_game(server, seed=9, people=2)
    page.goto(server.url + game["seats"][0]["link"])
    rendered(page, game["seq"])
    events = page.locator("#events")
    # the history drawn on load is not read out; what is added from then on is
    assert events.get_attribute("aria-live") == "polite"
    assert events.get_attribute("aria-relevant") == "additions"
    assert page.locator("#status").get_attribute("aria-live") == "polite"
    changes = page.evaluate(
        """() => new Promise((done) => {
          const status = document.getElementById('status');
          let n = 0;
          const watch = {childList: true, characterData: true, subtree: true};
          new MutationObserver((m) => { n += m.length; }).observe(status, watch);
          window.dmGame.render();  // the same board again: nothing new to say
          setTimeout(() => done(n), 50);
        })"""
    )
    assert changes == 0


def test_the_replay_says_the_event_once_stepping_settles_and_not_while_playing(page, server):
    from playwright.sync_api import expect

    page.goto(f"{server.url}/replay/undo.dmlog?at=20")
    rendered(page, 20)
    announce = page.locator("#announce")
    assert announce.get_attribute("aria-live") == "polite"
    assert page.locator("#status").get_attribute("aria-live") is None  # the step's own words say it
    records = api(server, "/api/replays/undo.dmlog/events?from=0")["events"]
    page.keyboard.press("ArrowRight")
    rendered(page, 21)
    expect(announce).to_have_text(
        re.compile(rf"^Event 20: {re.escape(records[20]['text'])}\. Round")
    )
    slider = page.locator("#timeline")
    assert slider.get_attribute("aria-valuetext") == page.locator("#position").inner_text()
    page.select_option("#speed", "16")
    page.click("[data-action=play]")
    for _ in range(100):  # until it has played a few steps (each shows for 1/16 s)
        if int(page.get_attribute("body", "data-rendered-seq")) >= 24:
            break
        page.wait_for_timeout(50)
    during = announce.inner_text()
    page.wait_for_timeout(400)
    assert announce.inner_text() == during  # silent while playing
    page.click("[data-action=play]")  # pause: where it stopped is said
    expect(announce).not_to_have_text(during)
    stopped = int(page.get_attribute("body", "data-rendered-seq"))
    expect(announce).to_contain_text(f"Event {stopped - 1}: ")


# -- the keyboard ------------------------------------------------------------------------------


def test_the_keyboard_is_not_dropped_when_the_control_used_goes(page, server):
    game = new_game(server, seed=3)
    page.goto(server.url + game["seats"][0]["link"])
    page.wait_for_selector(".hero-card")
    tab_to(page, lambda f: f["cls"] == "hero-card")
    page.keyboard.press("Enter")  # the hero cards go: the focus goes to a die to take
    page.wait_for_selector("#mountain .die.selectable")
    now = focused(page)
    assert now["inMountain"] and now["role"] == "button", now
    page.keyboard.press("Enter")  # the die goes: the focus stays in the game, not on the page's top
    page.wait_for_selector(".player[data-seat='0'] .trove .die")
    page.wait_for_timeout(200)
    assert focused(page)["tag"] != "BODY"


def test_a_picked_die_shows_by_shape_and_state_and_keeps_a_visible_focus(page, server):
    game = new_game(server, seed=3)
    choices = play_until(server, game, lambda c: bool(c.get("cache") and c["cache"]["dice"]))
    page.goto(server.url + game["seats"][0]["link"])
    rendered(page, api(server, f"/api/games/{game['id']}")["seq"])
    page.wait_for_selector("#players .die.selectable")
    die = tab_to(page, lambda f: f["inPlayers"] and f["role"] == "button")["die"]
    assert int(die) in choices["cache"]["dice"]
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#players .die.picked[data-die='{die}']")
    now = focused(page)
    assert now["die"] == die and now["pressed"] == "true"
    assert now["outline"] == "solid"  # the focus is an outline: the ring still says picked
    assert now["ring"] == "none"  # picked: a solid ring
    if len(choices["cache"]["dice"]) > 1:
        other = page.locator("#players .die.selectable:not(.picked) .die-ring").first
        assert (
            other.evaluate("n => getComputedStyle(n).strokeDasharray") != "none"
        )  # usable: dashed


def test_the_how_to_play_dialog_gives_the_focus_back(page, server):
    page.goto(f"{server.url}/replay/undo.dmlog?at=5")
    rendered(page, 5)
    page.focus("[data-action=next]")
    page.keyboard.press("?")
    assert page.locator("#howto").aria_snapshot().startswith('- dialog "How to play"')
    assert page.evaluate("document.activeElement.closest('#howto') !== null")
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.dataset.action") == "next"


def test_the_links_of_a_new_game_take_the_focus(page, server):
    page.goto(server.url + "/")
    page.wait_for_selector("#seat-rows select")
    page.fill("input[name=name0]", "Ann")
    page.select_option("select[name=type1]", "person")
    page.click("#start-game")
    page.wait_for_selector("#game-links:not([hidden])")
    assert page.evaluate("document.activeElement.textContent") == "Your game is ready"


# -- colour, motion, small screens -------------------------------------------------------------


def test_die_ids_have_a_contrast_of_4_5_to_1_on_every_die(page, server):
    page.goto(f"{server.url}/replay/undo.dmlog?at=15")  # top, side and covered dice of each kind
    rendered(page, 15)
    mountain = page.evaluate(DIE_ID_CONTRAST, "#mountain .die")
    places = [
        next(c for c in cls.split() if c in ("top", "side", "covered")) for cls, _ in mountain
    ]
    assert set(places) == {"top", "side", "covered"}
    measured = mountain + page.evaluate(DIE_ID_CONTRAST, "#players .die:not(.spent)")
    low = [(cls, round(ratio, 2)) for cls, ratio in measured if ratio < 4.5]
    assert low == []


def test_the_glow_rests_when_less_motion_is_asked_for(browser, server):
    game = new_game(server, seed=3)
    play_until(server, game, lambda c: bool(c.get("take")))
    for motion, expected in (("no-preference", "pulse"), ("reduce", "none")):
        context = browser.new_context(reduced_motion=motion)
        page = context.new_page()
        try:
            page.goto(server.url + game["seats"][0]["link"])
            ring = page.locator("#mountain .die.selectable .die-ring").first
            ring.wait_for(state="attached")
            assert ring.evaluate("n => getComputedStyle(n).animationName") == expected
        finally:
            context.close()


@pytest.mark.parametrize("width", [320, 640])  # a phone, and 1280 px zoomed to 200%
def test_the_pages_reflow_without_scrolling_sideways(browser, server, width):
    game = new_game(server, seed=4)
    context = browser.new_context(viewport={"width": width, "height": 700})
    page = context.new_page()
    try:
        for path in (
            "/",
            "/rules",
            "/replay/undo.dmlog?at=30",
            game["seats"][0]["link"],
            game["watch"],
        ):
            page.goto(server.url + path)
            if path != "/rules" and path != "/":
                page.wait_for_selector("body[data-rendered-seq]", state="attached")
            page.wait_for_timeout(100)
            scroll = page.evaluate("document.documentElement.scrollWidth")
            assert scroll <= width, f"{path} is {scroll}px wide at {width}px"
            crumb = page.locator(".crumb")
            cut = crumb.evaluate("n => n.scrollWidth > n.clientWidth + 1")
            assert not cut, f"{path}: the top bar's words are cut at {width}px"
    finally:
        context.close()
