"""The replay viewer in Chromium, as the reviews at 1280 x 800 and 390 x 844 used it: the
controls stay still, the last move and the board's coordinates are drawn, the chart moves
with every event, and stepping or seeking draws from the boards the page holds.

See ``tests/web_support.py`` for when these tests skip.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.web_support import LiveServer, make_app, watched_page

REPLAYS = Path(__file__).resolve().parents[1] / "replays"
DESKTOP, PHONE = (1280, 800), (390, 844)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("web")
    app = make_app(root, SSE_MAX_SECONDS=30.0)
    for name in ("four-players.dmlog", "solo.dmlog"):
        (app.config["REPLAYS_DIR"] / name).write_bytes((REPLAYS / name).read_bytes())
    with LiveServer(app) as live:
        yield live


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
