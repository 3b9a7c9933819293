"""The analysis view of the replay viewer in Chromium: asked for, its progress shown, then
each seat's win chance under the board, every marked move on that chart and in the event
list, and at a position the best moves with their values, the best drawn on the board; a
finished live game's page offers it.

See ``tests/support/web_support.py`` for when these tests skip.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.analysis import analyse_log
from tests.support.web_support import LiveServer, api, live_game, make_app, record_game, wait_until

REPLAYS = Path(__file__).resolve().parents[3] / "replays"
SAMPLES = 4  # quick analyses: what is drawn is tested here, not how good the values are


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("web"), SSE_MAX_SECONDS=30.0, ANALYSIS_SAMPLES=SAMPLES)
    folder = app.config["REPLAYS_DIR"]
    record_game(folder / "short.dmlog", names=("Ann", "Bo"), commands=14)
    (folder / "four.dmlog").write_bytes((REPLAYS / "four-players.dmlog").read_bytes())
    analyse_log(str(folder / "four.dmlog"), SAMPLES)  # kept beside it, as the CLI keeps it
    with LiveServer(app) as live:
        yield live


def analysis_of(server, name: str) -> dict:
    answer = api(server, f"/api/replays/{name}/analysis")
    assert answer["state"] == "done"
    return answer["analysis"]


def classes(page, selector: str) -> set[str]:
    return set((page.locator(selector).first.get_attribute("class") or "").split())


def test_an_analysis_is_asked_for_shown_as_it_runs_then_drawn(page, server):
    page.goto(f"{server.url}/replay/short.dmlog?at=5")
    page.wait_for_selector("body[data-boards='all']", state="attached")
    page.click("#analysis-toggle")
    page.click("#analyse")  # not analysed yet: asked for here
    page.wait_for_selector("body[data-analysis='shown']", state="attached", timeout=60_000)
    doc = analysis_of(server, "short.dmlog")
    seats = len(doc["log"]["players"])
    assert page.locator("#winchart path.series").count() == seats
    marked = [d for d in doc["decisions"] if d["mark"]]
    assert page.locator("#winchart .mark").count() == len(marked)
    assert page.locator("#events .event[data-mark]").count() == len(marked)
    assert page.locator(".analysis-summary tbody tr").count() == seats
    page.wait_for_url(lambda url: "analysis=1" in url)  # the view is in the address, to share


def test_a_position_shows_the_best_moves_and_draws_the_best_on_the_board(page, server):
    doc = analysis_of(server, "four.dmlog")
    decision = next(
        d
        for d in doc["decisions"]
        if d["best"]["move"]["t"] == "take" and d["played"]["rank"] > 1 and not d["forced"]
    )
    at = decision["seq"]  # the position it was decided from: the state after seq events
    page.goto(f"{server.url}/replay/four.dmlog?at={at}&analysis=1")
    page.wait_for_selector("body[data-analysis='shown']", state="attached")
    page.wait_for_selector(f"body[data-rendered-seq='{at}']", state="attached")
    best_die = decision["best"]["move"]["die"]
    assert "best-move" in classes(page, f"#mountain [data-die='{best_die}']")
    assert page.locator("#mountain .best-move").count() == 1
    rows = page.locator(".candidates li")
    assert rows.count() == min(5, len(decision["candidates"]))
    for i, candidate in enumerate(decision["candidates"][: rows.count()]):
        text = rows.nth(i).inner_text()
        assert f"{candidate['value']}%" in text and candidate["words"] in text
    assert "best" in classes(page, ".candidates li")

    # the move just played, one step on: its mark, or that it was the best
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"body[data-rendered-seq='{at + 1}']", state="attached")
    just = page.locator(".analysis-now .just").inner_text()
    assert f"Event {decision['seq']}:" in just and decision["played"]["words"] in just
    # the move quoted after a colon ("Ann played: end the magic turn"), never run into the verb
    assert f" played: {decision['played']['words']} (" in just
    if decision["mark"]:
        assert f"a {decision['mark']}" in just

    # a click on the win chart seeks; closing the view takes its marks off the board
    chart = page.locator("#winchart")
    box = chart.bounding_box()
    chart.click(position={"x": box["width"] * 0.9, "y": box["height"] / 2})
    assert wait_until(lambda: int(page.get_attribute("body", "data-rendered-seq")) > 100)
    page.click("#analysis-toggle")
    assert page.locator("#analysis").is_hidden()
    assert page.locator(".best-move").count() == 0
    assert page.locator("#events .event[data-mark]").count() == 0
    page.wait_for_url(lambda url: "analysis=1" not in url)  # the address says so once settled


def test_a_finished_live_game_offers_its_analysis(page, server):
    bots = [{"name": None, "bot": "random"}, {"name": None, "bot": "random"}]
    # a chosen seed: a secret one's log ends with the table revealing it, which this
    # branch's core.analysis took for a decision (main's history.py leaves it out)
    game = api(server, "/api/games", {"players": bots, "pace": 0, "seed": 7})
    live = live_game(server.app, game["id"])
    assert wait_until(lambda: live.state.is_over, timeout=30)
    page.goto(server.url + game["watch"])
    page.click("#analyse-game")
    page.wait_for_url(f"**/replay/web-{game['id']}.dmlog?*analysis=1*")
    page.wait_for_selector("body[data-analysis='shown']", state="attached", timeout=60_000)
    assert page.locator("#winchart path.series").count() == 2
