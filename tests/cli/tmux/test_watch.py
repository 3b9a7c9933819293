"""A spectator in the terminal (``./play watch URL``) is offered only what it can do:
no undo, no typed command, in the key bar, the help or the game-over box.

The server is the real web app on a real HTTP server; the watcher is ``./play watch``
in a real tmux pane.
"""

from __future__ import annotations

import shlex

from tests.support.polling import wait_until
from tests.support.tmux import Terminal, key_bar
from tests.support.web_support import api


def watch(server, game: dict) -> Terminal:
    return Terminal(shlex.join(["./play", "watch", server.url + game["watch"]]), {}, 100, 32)


def test_a_spectator_is_offered_no_undo_and_no_typed_command(server):
    players = [{"name": "Wren", "bot": None}, {"name": None, "bot": "greedy"}]
    game = api(server, "/api/games", {"players": players, "seed": 31})
    term = watch(server, game)
    try:
        term.wait_for("watching.", timeout=90)
        bar = key_bar(term.screen())
        assert "help" in bar and "leave" in bar, bar
        assert "undo" not in bar and "command" not in bar, bar
        term.keys(":")
        screen = term.wait_for("only its players type commands", timeout=10)
        assert "\n:" not in screen  # no command line opened
        term.keys("?")
        screen = term.wait_for("leave: the game goes on", timeout=10)
        assert "moves show here as they are made" in screen
        assert "undo" not in screen and "type a command" not in screen, screen
        assert "quit" not in key_bar(term.screen())
        term.keys("Enter")
        term.keys("q")
        term.wait_for("The game goes on at", timeout=10)
    finally:
        term.close()


def test_a_spectator_of_a_finished_game_is_offered_its_review_and_leaving(server):
    players = [{"name": None, "bot": "greedy"}, {"name": None, "bot": "greedy"}]
    game = api(server, "/api/games", {"players": players, "seed": 33})
    assert wait_until(lambda: api(server, f"/api/games/{game['id']}")["over"], timeout=30)
    term = watch(server, game)
    try:
        screen = term.wait_for("Game over", timeout=90)
        assert "v: review the game · q: leave" in screen
        bar = key_bar(term.screen())
        assert "review" in bar and "leave" in bar, bar
        assert "undo" not in screen and "command" not in screen, screen
    finally:
        term.close()
