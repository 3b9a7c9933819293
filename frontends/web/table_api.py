"""What a person does to their place at a table, beside the moves, and a game's standings.

    POST /api/games/<id>/leave       leave for good (the seat's token in ``X-Seat-Token``):
                                     a bot plays the seat, or the game closes with no
                                     person left; the place held for the client is freed
    POST /api/games/<id>/rematch     a finished game played again with the same seats and
                                     settings (a seat's token): each person's link to the
                                     old game plays their seat of the new one
    GET  /api/games/<id>/standings   each player's categories, rounds and total; the
                                     people still in the game; its rematch

The lobby decides and logs (``core.host.Lobby.leave`` and ``rematch``); this only checks
who asks.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from frontends.web.errors import ApiError
from frontends.web.games import LiveGame
from frontends.web.lookup import json_body, live_game
from frontends.web.services import services
from frontends.web.standings import standings

bp = Blueprint("table_api", __name__, url_prefix="/api")


def _seat(live: LiveGame, what: str) -> int:
    """The person's seat whose token comes with the request, or a 403 naming ``what``."""
    token = request.headers.get("X-Seat-Token")
    if token is None and request.is_json:
        given = json_body().get("token")
        token = given if isinstance(given, str) else None
    seat = live.seat_for(token)
    if seat is None:
        raise ApiError(403, "forbidden", f"{what} needs the secret link of a person's seat")
    return seat


@bp.post("/games/<game_id>/leave")
def leave_game(game_id: str):
    """The seat's person leaves for good; the answer is the game's summary after it."""
    live = live_game(game_id)
    seat = _seat(live, "leaving a game")
    services().games.lobby.leave(live.table, seat, client=request.remote_addr)
    with live.cond:
        return jsonify(live.summary())


@bp.post("/games/<game_id>/rematch")
def rematch(game_id: str):
    """A new game with the same seats and settings (201), its link for the asking seat."""
    live = live_game(game_id)
    seat = _seat(live, "a rematch")
    table = services().games.lobby.rematch(live.table, client=request.remote_addr)
    new = services().games.get(table.id)
    assert new is not None, "a game just made is held"
    answer = new.summary()
    answer["watch"] = f"/games/{new.id}"
    answer["seat"] = seat  # the asking page adds its own token: the same link plays it
    return jsonify(answer), 201


@bp.get("/games/<game_id>/standings")
def game_standings(game_id: str):
    """The standings now (final once the game is over)."""
    live = live_game(game_id)
    with live.cond:
        state = live.state
        return jsonify(
            {
                "over": state.is_over,
                "seq": live.seq,
                **standings(state, live.table.seats),
                # who may still leave (people not gone), and the game that followed this one
                "people": list(live.table.people()),
                "rematch": state.facts.rematch or None,
            }
        )


__all__ = ["bp"]
