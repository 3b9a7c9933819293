"""The HTML pages: the home page, the replay viewer and the game page.

Each page is a small template (autoescaped, so a player named ``<script>`` is
text) that loads one ES module from ``static/js``; the module fetches the API
and draws everything else. An unknown replay or game is a 404 page.
"""

from __future__ import annotations

from flask import Blueprint, render_template

from frontends.web.api import live_game, replay_named

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    """Replays to open or upload, a form to start a game, the games being played."""
    return render_template("index.html")


@bp.get("/replay/<name>")
def replay_page(name: str):
    """The replay viewer for one log of the library."""
    replay = replay_named(name)
    return render_template("replay.html", name=replay.name, players=replay.names)


@bp.get("/games/<game_id>")
def game_page(game_id: str):
    """A live game: watched by anyone, played by whoever has a seat's secret link."""
    live = live_game(game_id)
    return render_template("game.html", game_id=live.id, players=list(live.state.names))
