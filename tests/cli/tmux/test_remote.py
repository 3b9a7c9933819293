"""One game, a person in Chromium and a person in the terminal (``./play join``), with a
spectator in a second terminal (``./play watch``): each sees the other's moves at once.

The server is the real web app on a real HTTP server; the browser is Debian's
Chromium through the Playwright fixtures of ``tests/support/web_support.py``; the
terminals are real tmux panes running ``./play`` (``tests.cli.tmux.test_play.Terminal``).
"""

from __future__ import annotations

import os
import shlex
import statistics
import time

import pytest

from tests.support.remote_support import free_port
from tests.support.serve_support import Server, call
from tests.support.tmux import TMUX, Terminal
from tests.support.web_support import LiveServer, api, make_app, wait_until

#: Seconds the other side may take to show a move (the stream, a fetch, a redraw): the
#: median measured is about 0.1 s; the margin is for a loaded machine.
AT_ONCE = 5.0


@pytest.fixture(autouse=True)
def _real_terminal() -> None:
    if TMUX is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("terminal tests must run in CI: tmux is not installed")
        pytest.skip("tmux is not installed, so the game cannot be run in a real terminal")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("web"), SSE_MAX_SECONDS=30.0)
    with LiveServer(app) as live:
        yield live


def play(*words: str) -> Terminal:
    """``./play WORDS`` in a fresh tmux pane (the wrapper a player runs)."""
    return Terminal(shlex.join(["./play", *words]), {}, width=100, height=32)


def seq_of(server, game_id: str) -> int:
    return api(server, f"/api/games/{game_id}")["seq"]


def wait_for_seq(server, game_id: str, above: int, timeout: float = 10.0) -> int:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        seq = seq_of(server, game_id)
        if seq > above:
            return seq
        time.sleep(0.02)
    raise AssertionError(f"the game never moved past event {above}")


def shown_in_browser(page, seq: int, timeout: float) -> float:
    """Seconds until the page shows position ``seq`` (or later)."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if int(page.get_attribute("body", "data-rendered-seq") or 0) >= seq:
            return time.monotonic() - start
        page.wait_for_timeout(10)
    raise AssertionError(f"the page never showed event {seq}")


def shown_in_terminal(term: Terminal, text: str, timeout: float) -> float:
    """Seconds until ``text`` is on the terminal's screen."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if text in term.screen():
            return time.monotonic() - start
        time.sleep(0.02)
    raise AssertionError(f"{text!r} never appeared on the screen:\n{term.screen()}")


def gone(term: Terminal, text: str, timeout: float = AT_ONCE) -> None:
    end = time.monotonic() + timeout
    while text in term.screen():
        assert time.monotonic() < end, f"{text!r} stayed on the screen:\n{term.screen()}"
        time.sleep(0.02)


def browser_move(page, choices: dict) -> None:
    """The browser's person moves as a person would: a click on what the page offers."""
    phase = choices["phase"]
    if phase == "setup":
        page.locator(".hero-card").first.click()
    elif phase == "excavation":
        page.locator("#mountain .die.selectable").first.click()
    elif phase == "magic":
        page.get_by_role("button", name="End my magic turn").click()
    elif phase == "replenish":
        page.get_by_role("button", name="Keep nothing").click()
    else:
        raise AssertionError(f"no browser move for {phase}")


#: The terminal person's key for each phase: Enter on the lit die or hero, e to end magic,
#: Enter to keep nothing in the cache.
TERMINAL_KEYS = {"setup": "Enter", "excavation": "Enter", "magic": "e", "replenish": "Enter"}


def last_event_words(server, game_id: str, since: int) -> str:
    """The words of the last event since ``since`` that a screen shows (its start)."""
    events = api(server, f"/api/games/{game_id}/events?from={since}")["events"]
    return events[-1]["text"][:40]


def test_a_browser_seat_and_a_terminal_seat_play_one_game_with_a_terminal_watching(page, server):
    players = [{"name": "Wren", "bot": None}, {"name": "Tarn", "bot": None}]
    game = api(server, "/api/games", {"players": players, "seed": 31})
    gid = game["id"]
    links = {s["seat"]: server.url + s["link"] for s in game["seats"]}
    page.goto(links[0])
    page.wait_for_selector("body[data-rendered-seq]", state="attached")
    seat_term = play("join", links[1])
    watch_term = play("watch", server.url + game["watch"])
    try:
        seat_term.wait_for("Connected to", timeout=90)
        watch_term.wait_for("watching.", timeout=90)
        to_browser: list[float] = []
        to_terminal: list[float] = []
        moves = 0
        while True:
            choices = api(server, f"/api/games/{gid}/choices")
            if not choices.get("turn"):
                break  # the game is over
            before = choices["seq"]
            if choices["seat"] == 0:
                shown_in_browser(page, before, AT_ONCE)  # the page is at the position
                browser_move(page, choices)
                after = wait_for_seq(server, gid, before)
                words = last_event_words(server, gid, before)
                to_terminal.append(shown_in_terminal(seat_term, words, AT_ONCE))
            else:
                # the screen at this position (the last event shown, the header saying so)
                shown_in_terminal(seat_term, last_event_words(server, gid, before - 1), AT_ONCE)
                shown_in_terminal(seat_term, "· Your", AT_ONCE)
                if "Enter to continue." in seat_term.screen():  # a round's scores, read
                    seat_term.keys("Enter")
                    gone(seat_term, "Enter to continue.")
                seat_term.keys(TERMINAL_KEYS[choices["phase"]])
                try:
                    after = wait_for_seq(server, gid, before)
                except AssertionError as failed:
                    raise AssertionError(f"{failed}: {choices}\n{seat_term.screen()}") from None
                to_browser.append(shown_in_browser(page, after, AT_ONCE))
            moves += 1
            if moves % 10 == 0:  # the spectator is as far as the players
                shown_in_terminal(watch_term, last_event_words(server, gid, before), AT_ONCE)
        summary = api(server, f"/api/games/{gid}")
        assert summary["over"] and moves > 40
        winner = summary["winners"][0]
        for term in (seat_term, watch_term):
            screen = term.wait_for("Game over", timeout=AT_ONCE)
            assert winner in screen
        page.wait_for_selector(f"body[data-rendered-seq='{summary['seq']}']", state="attached")
        print(
            f"\n{moves} moves; shown to the other side in (median, max): terminal "
            f"{statistics.median(to_terminal) * 1000:.0f} ms, {max(to_terminal) * 1000:.0f} ms; "
            f"browser {statistics.median(to_browser) * 1000:.0f} ms, "
            f"{max(to_browser) * 1000:.0f} ms"
        )
        seat_term.keys("q")
        words = seat_term.wait_for(f"{winner} wins", timeout=10)
        assert "Traceback" not in words
    finally:
        seat_term.close()
        watch_term.close()


def test_a_terminal_seat_says_it_is_disconnected_and_plays_on_after_a_restart(tmp_path):
    """``dice-miner serve`` killed mid-game: the screen says so in a line and the move tried
    meanwhile is not made; once the server is back (its games kept in its file store) the
    line goes, the same move is made once, and no event is shown twice."""
    port = free_port()
    options = ("--port", str(port), "--data", str(tmp_path / "data"), "--bot-pace", "0")
    options += ("--access-log", "off")
    server = Server(*options)
    players = [{"name": "Tarn", "bot": None}, {"name": None, "bot": "greedy"}]
    status, game, _ = call(server, "POST", "/api/games", {"players": players, "seed": 32})
    assert status == 201
    gid = game["id"]
    term = play("join", server.url + game["seats"][0]["link"])

    def seq() -> int:
        return call(server, "GET", f"/api/games/{gid}")[1]["seq"]

    def my_turn() -> dict:
        """The seat's choices once it is its turn, the screen showing that position."""
        assert wait_until(lambda: call(server, "GET", f"/api/games/{gid}/choices")[1]["turn"])
        choices = call(server, "GET", f"/api/games/{gid}/choices")[1]
        _, events, _ = call(server, "GET", f"/api/games/{gid}/events?from={choices['seq'] - 1}")
        shown_in_terminal(term, events["events"][-1]["text"][:40], AT_ONCE)
        shown_in_terminal(term, "· Your", AT_ONCE)
        if "Enter to continue." in term.screen():  # a round's scores, read
            term.keys("Enter")
            gone(term, "Enter to continue.")
        return choices

    try:
        term.wait_for("Connected to", timeout=90)
        for _ in range(3):
            choices = my_turn()
            term.keys(TERMINAL_KEYS[choices["phase"]])
            assert wait_until(lambda c=choices: seq() > c["seq"])
        choices = my_turn()
        server.kill()
        screen = term.wait_for("Disconnected:", timeout=15)
        assert "cannot be reached" in screen and "Reconnecting" in screen
        term.keys(TERMINAL_KEYS[choices["phase"]])  # a move while the server is away
        screen = term.wait_for("made yet", timeout=15)
        assert "(Disconnected: reconnecting...)" in screen
        server = Server(*options)
        gone(term, "Disconnected", timeout=30)
        assert seq() == choices["seq"]  # nothing was made while it was away
        term.keys(TERMINAL_KEYS[choices["phase"]])  # the same move again: made once
        assert wait_until(lambda: seq() > choices["seq"])
        _, events, _ = call(server, "GET", f"/api/games/{gid}/events?from={choices['seq']}")
        words = events["events"][0]["text"][:40]
        shown_in_terminal(term, words, AT_ONCE)
        time.sleep(1)  # time for an event told twice to show twice
        assert term.screen().count(words) == 1
        assert wait_until(lambda: call(server, "GET", f"/api/games/{gid}/choices")[1]["turn"])
        term.keys("q")
        assert "The game goes on at the server" in term.wait_for("goes on", timeout=10)
    finally:
        term.close()
        server.stop()
