"""The replay viewer in Chromium, as the reviews at 1280 x 800 and 390 x 844 used it: the
controls stay still, the last move and the board's coordinates are drawn, the chart moves
with every event, and stepping or seeking draws from the boards the page holds.

See ``tests/support/web_support.py`` for when these tests skip.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.web_support import api, watched_page

REPLAYS = Path(__file__).resolve().parents[3] / "replays"
DESKTOP, PHONE = (1280, 800), (390, 844)


@pytest.fixture(scope="module")
def replays():
    return ("four-players.dmlog", "solo.dmlog")


def rendered(page, seq: int) -> None:
    page.wait_for_selector(f"body[data-rendered-seq='{seq}']", state="attached")


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_controls_stay_still_when_the_mountain_empties(browser, server, size):
    # at 20 the mountain is being dug; at 40 it is empty (the magic phase): it once shrank,
    # and the controls under it jumped 208 px
    with watched_page(browser, server, *size) as page:
        page.goto(f"{server.url}/replay/four-players.dmlog?at=20")
        rendered(page, 20)
        before = page.locator("#controls").bounding_box()
        assert page.locator("#mountain .die").count() > 0
        page.keyboard.press("PageDown")
        page.keyboard.press("PageDown")
        rendered(page, 40)
        assert page.locator("#mountain .die").count() == 0
        assert page.locator("#controls").bounding_box() == before
        page.keyboard.press("End")  # the game over: the longest status line
        rendered(page, 139)
        assert page.locator("#controls").bounding_box() == before


def test_a_long_status_line_shows_no_cut_line_under_its_clamp(browser, server):
    # on a phone the status holds two lines; a third ("Round 3 · Excavation · random-3 to act
    # (1 pick left after a beer)" beside "Play from here") once showed its top half in the
    # box's bottom padding, over the border
    with watched_page(browser, server, *PHONE) as page:

        def bottom_padding() -> bytes:
            box = page.locator("#status").bounding_box()
            x, y, width = box["x"] + 12, box["y"] + box["height"] - 7, box["width"] - 24
            return page.screenshot(clip={"x": x, "y": y, "width": width, "height": 6})

        page.goto(f"{server.url}/replay/four-players.dmlog?at=1")
        rendered(page, 1)
        assert page.locator("#status").inner_text() == "Choosing heroes"
        empty = bottom_padding()
        page.goto(f"{server.url}/replay/four-players.dmlog?at=100")
        rendered(page, 100)
        box = page.locator("#status").bounding_box()
        lines = page.evaluate(
            "() => { const r = document.createRange();"
            " r.selectNodeContents(document.getElementById('status'));"
            " return new Set([...r.getClientRects()].map((q) => Math.round(q.top))).size; }"
        )
        assert lines >= 3, "the status line this test needs is no longer long enough to be cut"
        assert page.locator("#status").bounding_box() == box
        assert bottom_padding() == empty


# -- the last move and the coordinates ---------------------------------------------------------


def records(server, name: str = "four-players.dmlog") -> list[dict]:
    return api(server, f"/api/replays/{name}/events")["events"]


def classes(page, selector: str) -> set[str]:
    return set((page.locator(selector).get_attribute("class") or "").split())


def test_the_board_names_its_rows_and_columns(page, server):
    page.goto(f"{server.url}/replay/four-players.dmlog?at=20")
    rendered(page, 20)
    rows = page.locator("#mountain .coord-row").all_text_contents()
    cols = page.locator("#mountain .coord-col").all_text_contents()
    assert rows == [f"row {r}" for r in range(5)] and cols == [f"col {c}" for c in range(6)]
    # each label is beside its row and under its column, as the events count them
    for row in range(5):
        label = page.locator(f"#mountain .coord-row >> nth={row}").bounding_box()
        slot = page.locator(f"#mountain [data-slot='{row},0']").bounding_box()
        assert abs((label["y"] + label["height"] / 2) - (slot["y"] + slot["height"] / 2)) < 4
        assert label["x"] + label["width"] <= slot["x"] + 1
    for col in range(6):
        label = page.locator(f"#mountain .coord-col >> nth={col}").bounding_box()
        slot = page.locator(f"#mountain [data-slot='0,{col}']").bounding_box()
        assert abs((label["x"] + label["width"] / 2) - (slot["x"] + slot["width"] / 2)) < 4
        assert label["y"] >= slot["y"] + slot["height"] - 1


def test_the_last_move_is_marked_where_the_die_left_and_where_it_went(page, server):
    events = records(server)
    take = next(e for e in events if e["type"] == "DieTaken" and not e["slides"])
    beer = next(e for e in events if e["type"] == "BeerShared")
    hero_spend = next(e for e in events if e["type"] == "MagicSpent" and e["die"] is None)
    # a take whose command goes on with events no player made (the excavation ends)
    last_take = next(
        e for e in events if e["type"] == "DieTaken" and events[e["seq"] + 1]["player"] is None
    )
    page.goto(f"{server.url}/replay/four-players.dmlog?at={take['seq'] + 1}")
    rendered(page, take["seq"] + 1)
    slot = f"#mountain [data-slot='{take['row']},{take['col']}']"
    assert "left" in classes(page, slot) and "slot-empty" in classes(page, slot)
    mover = f".player[data-seat='{take['seat']}']"
    assert "last-move" in classes(page, f"{mover} .trove [data-die='{take['die']}']")
    assert page.locator(".last-move").count() == 1  # nothing else is marked
    page.keyboard.press("ArrowRight")  # the next move moves the marks
    rendered(page, take["seq"] + 2)
    assert "left" not in classes(page, slot)

    page.goto(f"{server.url}/replay/four-players.dmlog?at={beer['seq'] + 1}")
    rendered(page, beer["seq"] + 1)
    given = f".player[data-seat='{beer['to_seat']}'] .trove [data-die='{beer['die']}']"
    assert "last-move" in classes(page, given)

    page.goto(f"{server.url}/replay/four-players.dmlog?at={hero_spend['seq'] + 1}")
    rendered(page, hero_spend["seq"] + 1)
    face = f"[data-hero-face='{hero_spend['seat']}:{hero_spend['hero_face']}']"
    assert "last-move" in classes(page, face)
    for die, _ in hero_spend["rolls"]:
        assert "last-move" in classes(page, f"#players [data-die='{die}']")

    after = last_take["seq"] + 2  # the state after the follow-on event: still that take's marks
    page.goto(f"{server.url}/replay/four-players.dmlog?at={after}")
    rendered(page, after)
    slot = f"#mountain [data-slot='{last_take['row']},{last_take['col']}']"
    assert "left" in classes(page, slot)


# -- the whole game in the page -----------------------------------------------------------------


def test_once_the_boards_are_held_a_step_or_a_seek_asks_the_server_nothing(page, server):
    total = api(server, "/api/replays/four-players.dmlog")["events"]
    page.goto(f"{server.url}/replay/four-players.dmlog?at=1")
    page.wait_for_selector("body[data-boards='all']", state="attached")
    asked = []
    page.on("request", lambda r: "/api/" in r.url and asked.append(r.url))
    for key, seq in (("End", total), ("Home", 1), ("PageDown", 11), ("ArrowRight", 12)):
        page.keyboard.press(key)
        rendered(page, seq)  # drawn at once: the attribute is set in the same task as the key
    page.locator("#timeline").fill("97")
    rendered(page, 97)
    board = api(server, "/api/replays/four-players.dmlog/state?at=97")
    assert page.locator("#mountain .die").count() == len(board["mountain"])
    for player in board["players"]:
        card = page.locator(f".player[data-seat='{player['seat']}']")
        assert card.locator(".trove .die").count() == len(player["trove"])
        assert card.locator(".total").inner_text() == str(player["total"])
    assert asked == []


# -- the chart moves with the game ----------------------------------------------------------------


def score_so_far(board: dict) -> list[int]:
    """The total, with the round in play (not yet scored) as if it were scored now."""
    now = board["table"]["round_now"] or [None] * len(board["players"])
    return [
        p["total"] + (sum(parts) if parts and len(p["round_scores"]) < board["round"] else 0)
        for p, parts in zip(board["players"], now, strict=True)
    ]


def test_the_chart_shows_the_score_so_far_after_every_event(page, server):
    series = api(server, "/api/replays/four-players.dmlog")["scores"]["points"]
    assert len(series) > 20  # it moves with the dice, not only at the three round ends
    page.goto(f"{server.url}/replay/four-players.dmlog?at=1")
    page.wait_for_selector("body[data-boards='all']", state="attached")
    for at in (15, 30, 41, 139):  # digging, digging, magic, the end
        page.locator("#timeline").fill(str(at))
        rendered(page, at)
        board = api(server, f"/api/replays/four-players.dmlog/state?at={at}")
        legend = page.locator("#chart .legend").all_text_contents()
        assert [int(text.rsplit(" ", 1)[1]) for text in legend] == score_so_far(board), at
    assert score_so_far(api(server, "/api/replays/four-players.dmlog/state?at=30")) != [0] * 4
    # where a round has just been scored the line is the totals: no spike counting it twice
    summary = api(server, "/api/replays/four-players.dmlog")["scores"]
    for at in summary["rounds"]:
        board = api(server, f"/api/replays/four-players.dmlog/state?at={at}")
        shown = [scores for p, scores in summary["points"] if p <= at][-1]
        assert shown == [p["total"] for p in board["players"]], at


def test_a_link_past_the_end_opens_the_last_event_asking_nothing_out_of_range(browser, server):
    with watched_page(browser, server) as page:
        refused = []
        page.on("response", lambda r: r.status >= 400 and refused.append(f"{r.status} {r.url}"))
        page.goto(f"{server.url}/replay/four-players.dmlog?at=9999")
        rendered(page, 139)
        assert page.locator("#position").inner_text() == "event 138 of 138"  # the last
        assert refused == []  # no position past the end asked for (a 400 in the console)
