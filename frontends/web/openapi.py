"""The HTTP API described in OpenAPI 3.1: served at ``/api/openapi.json``, kept in
``docs/openapi.json`` (``python -m frontends.web.openapi`` writes it; a test checks it is
current), and fuzzed by schemathesis against a running server in the tests.

The description is what a client may rely on: every path and method, its parameters,
its answers' statuses and shapes, and the one error shape every refusal has
(``{"error": {"code", "message", ...}}``, codes stable). Success bodies name the fields
a client needs and allow more (a new field is no break).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

PAGE = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"

JSON = "application/json"

ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {"type": "string", "description": "stable: tests and clients match it"},
                "message": {"type": "string", "description": "in words, for a person"},
                "offset": {"type": "integer", "description": "a damaged log's byte offset"},
                "record": {"type": "integer", "description": "a damaged log's record"},
                "reason": {"type": "string"},
                "seq": {"type": "integer", "description": "a stale move: the game's position"},
            },
        }
    },
}


def _object(*required: str, **properties: Any) -> dict[str, Any]:
    return {"type": "object", "required": list(required), "properties": properties}


INT = {"type": "integer"}
STR = {"type": "string"}
ARRAY = {"type": "array"}
OBJECT = {"type": "object"}

SCHEMAS: dict[str, Any] = {
    "Error": ERROR,
    "ReplayList": _object(
        "replays", replays={"type": "array", "items": _object("name")}, stored_unlisted=INT
    ),
    "Replay": _object("name", name=STR, players=ARRAY, events=INT),
    "Events": _object("events", "marks", events=ARRAY, marks=ARRAY),
    "Board": _object("seq", seq=INT),
    "Boards": OBJECT,
    "Analysis": _object("state", state={"enum": ["none", "running", "done", "failed"]}),
    "Bots": OBJECT,
    "GameList": _object("games", games={"type": "array", "items": _object("id", id=STR)}),
    "Game": _object("id", id=STR),
    "Choices": OBJECT,
    "Moved": _object(
        "seq",
        "events",
        "state",
        "scores",
        "dice",
        "marks",
        "choices",
        seq=INT,
        events=ARRAY,
        state=OBJECT,
        scores=OBJECT,
        dice=OBJECT,
        marks=ARRAY,
        choices={"type": ["object", "null"]},
    ),
    "Branches": OBJECT,
    "Parent": OBJECT,
    "Standings": _object("over", "rows", over={"type": "boolean"}, rows=ARRAY, columns=ARRAY),
}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _answers(
    ok: int, schema: str, *errors: int, media: str = JSON, also: tuple[int, ...] = ()
) -> dict[str, Any]:
    """The answers of an operation: ``ok`` (and ``also``) with ``schema``, each of
    ``errors`` (and any other status) with the error shape."""
    body = {"schema": _ref(schema)} if media == JSON else {"schema": {"type": "string"}}
    answers: dict[str, Any] = {
        str(status): {"description": "done", "content": {media: body}} for status in (ok, *also)
    }
    for status in errors:
        answers[str(status)] = {
            "description": "refused (see the error's code)",
            "content": {JSON: {"schema": _ref("Error")}},
        }
    answers["default"] = {
        "description": "refused (see the error's code)",
        "content": {JSON: {"schema": _ref("Error")}},
    }
    return answers


def _path(name: str, what: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": STR, "description": what}


def _query(name: str, what: str) -> dict[str, Any]:
    schema = {"type": "integer", "minimum": 1}
    return {"name": name, "in": "query", "schema": schema, "description": what}


REPLAY = _path("name", "a replay's name: a log of the replays folder, an upload's, a game's")
GAME = _path("game_id", "a live game's id")
AT = _query("at", "after the first N events (all of them by default)")
FROM = _query("from", "from the N-th event on (1 by default)")


def _op(summary: str, answers: dict[str, Any], *parameters: dict, **more: Any) -> dict:
    return {"summary": summary, "parameters": list(parameters), "responses": answers, **more}


def _json_body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {JSON: {"schema": schema}}}


NEW_GAME = _object(
    "players",
    players={
        "type": "array",
        "minItems": 1,
        "maxItems": 4,
        "items": {
            "type": "object",
            "description": "a seat: its person's name (a default if none) or a bot's kind",
            "properties": {
                "name": {"type": ["string", "null"]},
                "bot": {"type": ["string", "null"]},
            },
        },
    },
    seed={"type": ["integer", "null"], "minimum": 0, "maximum": (1 << 64) - 1},
    mode={"enum": ["multi", "solo"]},
    pace={"type": ["number", "null"]},
    seed_chosen_by={"type": ["string", "null"]},
)
MOVE = _object(
    command={"type": "object", "description": 'a command map: {"t": "take", "die": 17}'},
    text={"type": "string", "description": 'or its text: "take 17"'},
    seq={"type": "integer", "description": "the position the move was decided at"},
    id={"type": "string", "maxLength": 64, "description": "the request id: once only"},
    token={"type": "string", "description": "the seat's token (or X-Seat-Token)"},
)
BRANCH = _object(
    "at",
    "luck",
    at={"type": "integer", "minimum": 0},
    luck={"enum": ["same", "fresh"]},
    seed={"type": ["integer", "null"]},
    players={"type": "array"},
)
TOKEN = {"name": "X-Seat-Token", "in": "header", "schema": STR, "description": "a seat's token"}
LOG_UPLOAD = {
    "required": True,
    "content": {
        "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
        "multipart/form-data": {
            "schema": _object("log", log={"type": "string", "format": "binary"})
        },
    },
}

PATHS: dict[str, Any] = {
    "/api/replays": {
        "get": _op("the replays: the folder's logs, then the store's finished games",
                   _answers(200, "ReplayList")),
        "post": _op("upload a log (at most 2 MB), kept in memory under a new name",
                    _answers(201, "Replay", 400, 413, 422), requestBody=LOG_UPLOAD),
    },
    "/api/replays/{name}": {"get": _op("a replay's players, length and totals",
                                       _answers(200, "Replay", 404, 422), REPLAY)},
    "/api/replays/{name}/events": {"get": _op("a replay's events in words and fields",
                                              _answers(200, "Events", 400, 404, 422),
                                              REPLAY, FROM)},
    "/api/replays/{name}/state": {"get": _op("the board after the first N events",
                                             _answers(200, "Board", 400, 404, 422), REPLAY, AT)},
    "/api/replays/{name}/boards": {"get": _op("every board of the replay, packed",
                                              _answers(200, "Boards", 404, 422), REPLAY)},
    "/api/replays/{name}/analysis": {
        "get": _op("the replay's analysis, or how far it is",
                   _answers(200, "Analysis", 404, 422), REPLAY),
        "post": _op("start the replay's analysis (202), or say it is done (200)",
                    _answers(202, "Analysis", 404, 422, 429, 503, also=(200,)), REPLAY),
    },
    "/api/replays/{name}/branches": {"get": _op("where the replay may be branched",
                                                _answers(200, "Branches", 404, 422), REPLAY)},
    "/api/replays/{name}/branch": {"post": _op("a what-if: a new live game from event N",
                                               _answers(201, "Game", 400, 404, 409, 422, 429, 503),
                                               REPLAY, requestBody=_json_body(BRANCH))},
    "/api/bots": {"get": _op("the bot kinds a seat can be given", _answers(200, "Bots"))},
    "/api/games": {
        "get": _op("every live game on this server", _answers(200, "GameList")),
        "post": _op("start a game: the answer holds each person's secret link, once",
                    _answers(201, "Game", 400, 429, 503), requestBody=_json_body(NEW_GAME)),
    },
    "/api/games/{game_id}": {"get": _op("a game's seats, board and events",
                                        _answers(200, "Game", 404), GAME)},
    "/api/games/{game_id}/events": {"get": _op("a game's events",
                                               _answers(200, "Events", 400, 404), GAME, FROM)},
    "/api/games/{game_id}/state": {"get": _op("the board after the first N events (now)",
                                              _answers(200, "Board", 400, 404), GAME, AT)},
    "/api/games/{game_id}/boards": {"get": _op("the boards from event N to now, packed",
                                               _answers(200, "Boards", 400, 404), GAME, FROM)},
    "/api/games/{game_id}/log": {"get": _op("the game's log as a .dmlog file",
                                            _answers(200, "Error", 404,
                                                     media="application/octet-stream"), GAME)},
    "/api/games/{game_id}/choices": {"get": _op("what the player to act may do now",
                                                _answers(200, "Choices", 404), GAME)},
    "/api/games/{game_id}/commands": {"post": _op(
        "a move for the seat whose token comes with it (once per request id)",
        _answers(200, "Moved", 400, 403, 404, 409, 422, 503), GAME, TOKEN,
        requestBody=_json_body(MOVE))},
    "/api/games/{game_id}/leave": {"post": _op(
        "the seat's person leaves for good: a bot plays on, or the game closes",
        _answers(200, "Game", 403, 404, 409, 422, 503), GAME, TOKEN)},
    "/api/games/{game_id}/rematch": {"post": _op(
        "a finished game again, same seats and settings: each seat's link plays it",
        _answers(201, "Game", 403, 404, 409, 422, 429, 503), GAME, TOKEN)},
    "/api/games/{game_id}/standings": {"get": _op(
        "each player's categories, rounds and total (final once over)",
        _answers(200, "Standings", 404), GAME)},
    "/api/games/{game_id}/parent": {"get": _op("the game a branch was made from",
                                               _answers(200, "Parent", 404), GAME)},
    "/api/games/{game_id}/stream": {"get": _op(
        "the game's events as server-sent events, as they happen",
        _answers(200, "Error", 404, 503, media="text/event-stream"), GAME)},
}  # fmt: skip


def document() -> dict[str, Any]:
    """The whole OpenAPI 3.1 document."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Dice Miner",
            "version": "1",
            "description": "Live games, replays and what-ifs. Every refusal is "
            '{"error": {"code", "message"}} with a stable code (docs/reference/http-api.md).',
        },
        "paths": PATHS,
        "components": {"schemas": SCHEMAS},
    }


def render() -> str:
    """The document as ``docs/openapi.json`` holds it."""
    return json.dumps(document(), indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write ``docs/openapi.json`` (``--check``: compare only, exit 1 if stale)."""
    if "--check" in (argv if argv is not None else sys.argv[1:]):
        current = PAGE.exists() and PAGE.read_text() == render()
        print(f"{PAGE}: {'up to date' if current else 'STALE'}", file=sys.stderr)
        return 0 if current else 1
    PAGE.write_text(render())
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["document", "render"]
