"""The HTML pages: the home page, the replay viewer, the game page and the rules.

Each page is a small template (autoescaped, so a player named ``<script>`` is
text) that loads one ES module from ``static/js``; the module fetches the API
and draws everything else. An unknown replay or game is a 404 page. The viewer
and the game page carry a "How to play" panel (``_howto.html``) whose summary
of the game is the terminal help's own words (``frontends/rules_summary.py``);
``/rules`` is the full reference, ``docs/RULES.md``, as plain HTML.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, current_app, render_template

from core import all_face_words
from frontends import rules_summary
from frontends.web import rulesdoc
from frontends.web.errors import ApiError
from frontends.web.lookup import live_game, replay_named

bp = Blueprint("pages", __name__)


@bp.app_context_processor
def face_words() -> dict[str, object]:
    """Every face in words, for each page's dice (``base.html`` writes it as JSON; dice.js
    reads it): the browser says a face as the server does."""
    return {"face_words": {**all_face_words(), "": "in the bag"}}


@bp.get("/")
def index():
    """Replays to open or upload, a form to start a game, the games being played."""
    return render_template("index.html")


@bp.get("/replay/<name>")
def replay_page(name: str):
    """The replay viewer for one log of the library."""
    replay = replay_named(name)
    solo = replay.final.mode == "solo"
    return render_template(
        "replay.html",
        name=replay.name,
        events=replay.total,
        players=replay.names,
        solo=solo,
        howto=_howto(solo),
    )


@bp.get("/games/<game_id>")
def game_page(game_id: str):
    """A live game: watched by anyone, played by whoever has a seat's secret link."""
    live = live_game(game_id)
    solo = live.state.mode == "solo"
    return render_template(
        "game.html", game_id=live.id, players=list(live.state.names), solo=solo, howto=_howto(solo)
    )


@bp.get("/rules")
def rules():
    """The full rules reference, readable offline: docs/RULES.md rendered as simple HTML."""
    path = Path(current_app.config["RULES_FILE"])
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise ApiError(404, "not_found", "the rules reference is not installed here") from None
    text = rulesdoc.for_players(text)  # players first: the notes for developers close it
    return render_template(
        "rules.html", body=rulesdoc.render(text), contents=rulesdoc.headings(text)
    )


def _howto(solo: bool) -> tuple[str, ...]:
    """The game in a few paragraphs, as the terminal's help tells it (rules_summary)."""
    return rules_summary.paragraphs(solo)
