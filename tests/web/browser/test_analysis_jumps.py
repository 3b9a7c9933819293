"""The analysis board as lichess's: "Next mistake" and "Previous mistake" jump between the
marked moves (to the position each was chosen from), and a candidate move pressed in the
list is drawn on the board in place of the best (a real Chromium)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.analysis import analyse_log
from tests.support.web_support import LiveServer, api, make_app

REPLAYS = Path(__file__).resolve().parents[3] / "replays"
SAMPLES = 4


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("web"), SSE_MAX_SECONDS=30.0, ANALYSIS_SAMPLES=SAMPLES)
    folder = app.config["REPLAYS_DIR"]
    (folder / "four.dmlog").write_bytes((REPLAYS / "four-players.dmlog").read_bytes())
    analyse_log(str(folder / "four.dmlog"), SAMPLES)  # kept beside it, as the CLI keeps it
    with LiveServer(app) as live:
        yield live


def shown(page) -> int:
    return int(page.get_attribute("body", "data-rendered-seq") or 0)


def test_next_and_previous_mistake_jump_between_the_marked_moves(page, server, tmp_path):
    doc = api(server, "/api/replays/four.dmlog/analysis")["analysis"]
    marked = sorted(d["seq"] for d in doc["decisions"] if d["mark"])
    assert len(marked) >= 2, "the recorded game has marked moves to jump between"
    page.goto(f"{server.url}/replay/four.dmlog?at=1&analysis=1")
    page.wait_for_selector("body[data-analysis='shown']", state="attached")
    assert page.locator("#previous-mistake").is_disabled()
    for seq in marked[:3]:
        page.click("#next-mistake")
        page.wait_for_selector(f"body[data-rendered-seq='{seq}']", state="attached")
    page.click("#previous-mistake")
    page.wait_for_selector(f"body[data-rendered-seq='{marked[1]}']", state="attached")
    page.goto(f"{server.url}/replay/four.dmlog?at={marked[-1]}&analysis=1")
    page.wait_for_selector("body[data-analysis='shown']", state="attached")
    page.wait_for_selector(f"body[data-rendered-seq='{marked[-1]}']", state="attached")
    assert page.locator("#next-mistake").is_disabled()  # none after the last
    page.locator("#analysis").screenshot(path=str(tmp_path / "jumps.png"))


def test_a_candidate_pressed_is_drawn_on_the_board(page, server, tmp_path):
    doc = api(server, "/api/replays/four.dmlog/analysis")["analysis"]
    decision = next(
        d
        for d in doc["decisions"]
        if len(d["candidates"]) >= 2
        and all(c["move"]["t"] == "take" for c in d["candidates"][:2])
        and d["candidates"][0]["move"]["die"] != d["candidates"][1]["move"]["die"]
    )
    at = decision["seq"]
    best, second = (c["move"]["die"] for c in decision["candidates"][:2])
    page.goto(f"{server.url}/replay/four.dmlog?at={at}&analysis=1")
    page.wait_for_selector("body[data-analysis='shown']", state="attached")
    page.wait_for_selector(f"body[data-rendered-seq='{at}']", state="attached")
    page.wait_for_selector(f"#mountain [data-die='{best}'].best-move", state="attached")
    buttons = page.locator(".candidates .candidate")
    assert buttons.nth(0).get_attribute("aria-pressed") == "true"
    buttons.nth(1).click()
    page.wait_for_selector(f"#mountain [data-die='{second}'].best-move", state="attached")
    assert page.locator("#mountain .best-move").count() == 1
    assert page.locator(".candidates .candidate").nth(1).get_attribute("aria-pressed") == "true"
    page.locator(".layout").screenshot(path=str(tmp_path / "candidate.png"))
    page.locator(".candidates .candidate").nth(1).click()  # pressed again: the best once more
    page.wait_for_selector(f"#mountain [data-die='{best}'].best-move", state="attached")
    page.keyboard.press("ArrowRight")  # another position draws its own best
    page.wait_for_selector(f"body[data-rendered-seq='{at + 1}']", state="attached")
    assert shown(page) == at + 1
