"""Finding what a request names, and reading its arguments: each a JSON 4xx when wrong.

Shared by the API, the live stream and the pages, so each route says in one
call "the replay named X", "the live game X" or "the whole number ``at``".
"""

from __future__ import annotations

import json
from typing import Any, overload

from flask import request

from core import GameDamaged, GameNotFound, LogError
from frontends.web.errors import ApiError, log_refused
from frontends.web.games import LiveGame
from frontends.web.replays import GAME_NAME, Replay, ReplayNotFound
from frontends.web.services import services

#: More digits than any number the API takes (a seed has at most 20).
MAX_DIGITS = 40


@overload
def int_arg(name: str, default: int, low: int, high: int) -> int: ...
@overload
def int_arg(name: str, default: None, low: int, high: int) -> int | None: ...
def int_arg(name: str, default: int | None, low: int, high: int) -> int | None:
    """A whole-number query argument within ``low..high``, or a 400."""
    text = request.args.get(name)
    if text is None or text == "":
        return default
    try:
        value = int(text)
    except ValueError:
        message = f"{name} must be a whole number, not {text!r}"
        raise ApiError(400, "bad_argument", message) from None
    if not low <= value <= high:
        raise ApiError(400, "bad_argument", f"{name} must be {low} to {high}, not {value}")
    return value


def json_body() -> dict[str, Any]:
    """The request's JSON object, or a 400 saying what is wrong with it."""
    data = request.get_data(cache=True)
    try:
        body = json.loads(data or b"null", parse_int=_whole_number)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiError(400, "bad_json", f"the body is not valid JSON: {exc}") from None
    except RecursionError:  # json.loads recurses once per level: [[[[...]]]] would be a 500
        raise ApiError(400, "bad_json", "the body's JSON is nested too deeply") from None
    if not isinstance(body, dict):
        raise ApiError(400, "bad_json", "the body must be a JSON object")
    return body


def _whole_number(text: str) -> int:
    """A JSON integer, refused in words when it is longer than any the API takes (Python
    would refuse 4,300 digits with a message about its own settings)."""
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        message = f"a number in the body has {digits:,} digits: no field takes more than 20"
        raise ApiError(400, "bad_json", message)
    return int(text)


def replay_named(name: str) -> Replay:
    """A replay of the library, or a finished live game by its log's name (``web-ID.dmlog``),
    or a 404 (names are looked up, never joined to a path)."""
    try:
        try:
            return services().library.get(name)
        except ReplayNotFound:
            finished = _finished_game(name)
            if finished is None:
                raise
            return finished
    except ReplayNotFound:
        raise ApiError(404, "unknown_replay", f"there is no replay named {name!r}") from None
    except (LogError, ValueError) as exc:
        raise log_refused(exc if isinstance(exc, LogError) else LogError(str(exc))) from None


def _finished_game(name: str) -> Replay | None:
    """The replay of a game of this server's store named ``web-ID.dmlog`` once it is over
    (read from the lobby's table if it holds one, else from the store: none is taken up)."""
    match = GAME_NAME.fullmatch(name)
    if match is None:
        return None
    game_id = match["id"]
    try:
        found = services().stored.log(game_id)
    except GameNotFound:
        return None
    except GameDamaged as exc:
        raise ApiError(422, "damaged", str(exc)) from None
    if not found.ending.over:
        message = f"game {game_id} is still being played: watch it at /games/{game_id}"
        raise ApiError(404, "game_in_play", message)
    return services().library.game(name, found.data)


def live_game(game_id: str) -> LiveGame:
    """A live game, or a 404."""
    live = services().games.get(game_id)
    if live is None:
        raise ApiError(404, "unknown_game", f"there is no game {game_id!r} on this server")
    return live


__all__ = ["int_arg", "json_body", "live_game", "replay_named"]
