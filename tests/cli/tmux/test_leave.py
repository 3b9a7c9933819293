"""A seat played in the terminal (``./play join LINK``) leaves the game for good, after a
confirmation, as the web's "Leave the game" does; the screen then follows the game as a
spectator's.

The server is the real web app on a real HTTP server; the seat is ``./play join`` in a
real tmux pane.
"""

from __future__ import annotations

import shlex

from tests.support.polling import wait_until
from tests.support.tmux import Terminal, key_bar
from tests.support.web_support import api


def test_a_terminal_seat_leaves_the_game_after_saying_yes_and_watches_it(server):
    players = [{"name": "Wren", "bot": None}, {"name": "Tarn", "bot": None}]
    game = api(server, "/api/games", {"players": players, "seed": 31})
    gid = game["id"]
    link = server.url + game["seats"][1]["link"]
    term = Terminal(shlex.join(["./play", "join", link]), {}, 100, 32)
    try:
        term.wait_for("Connected to", timeout=90)
        assert "leave the game" in key_bar(term.screen())
        term.keys("L")
        screen = term.wait_for("Leave this game for good?", timeout=10)
        assert "y  leave for good" in screen
        term.keys("n")  # not yet: nothing happens
        term.wait_for("leave the game", timeout=10)
        assert "Leave this game for good?" not in term.screen()
        assert api(server, f"/api/games/{gid}")["left"] == []
        term.keys("L")
        term.wait_for("Leave this game for good?", timeout=10)
        term.keys("y")
        screen = term.wait_for("You left the game", timeout=10)
        summary = api(server, f"/api/games/{gid}")
        assert summary["left"] == [1] and not summary["closed"]
        bar = key_bar(term.screen())
        assert "leave" in bar and "undo" not in bar and "command" not in bar, bar
        term.keys("L")  # nothing left to leave
        term.wait_for("You are watching this game: q leaves it.", timeout=10)
        # the game goes on without Tarn: Wren chooses a hero, a bot chooses Tarn's, and the
        # screen follows both
        choices = api(server, f"/api/games/{gid}/choices")
        assert choices["seat"] == 0 and choices["phase"] == "setup"
        body = {"command": choices["heroes"][0]["command"], "seq": choices["seq"], "id": "w1"}
        api(server, f"/api/games/{gid}/commands", body, token=game["seats"][0]["token"])
        seq = choices["seq"]
        events = lambda: api(server, f"/api/games/{gid}/events?from={seq}")["events"]  # noqa: E731
        assert wait_until(lambda: any(e.get("player") == "Tarn" for e in events()), 30)
        tarn = next(e["text"] for e in events() if e.get("player") == "Tarn")
        term.wait_for(tarn[:40], timeout=10)
        term.keys("q")
        words = term.wait_for("You left the game; it goes on at", timeout=10)
        assert "Traceback" not in words
    finally:
        term.close()
