"""The JSON API behind the pages: replays, live games, their events and states, and commands.

    GET  /api/replays                      the replays directory's logs, the store's finished games
    POST /api/replays                      upload a log (multipart field ``log``, or the raw bytes)
    GET  /api/replays/<name>               players, length, the totals through the game
    GET  /api/replays/<name>/events        event records from ``?from=SEQ`` (``&limit=N``)
    GET  /api/replays/<name>/state         the board after ``?at=N`` events
    GET  /api/replays/<name>/boards        every board of the game, packed (the viewer holds them)
    GET  /api/replays/<name>/analysis      how its analysis stands (with it, once done)
    POST /api/replays/<name>/analysis      start its analysis in the background
    GET  /api/bots                         the bot kinds a seat can be given
    GET  /api/games                        the live games
    POST /api/games                        start one: ``{"players": [{"name", "bot"}], "seed"}``
    GET  /api/games/<id>                   its seats, state and events so far
    GET  /api/games/<id>/events|state      as for replays
    GET  /api/games/<id>/boards            the boards from ``?from=N`` on, packed
    GET  /api/games/<id>/choices           what the player to act may do now
    GET  /api/games/<id>/log               its log, a .dmlog file
    POST /api/games/<id>/commands          a move, with the seat's token in ``X-Seat-Token``

Errors are ``{"error": {"code", "message"}}`` with a 4xx status (``errors.py``).
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Response, jsonify, request

from core import (
    BOTS,
    LEVELS,
    MEASURED,
    CommandSyntaxError,
    EventFormatError,
    LogError,
    NewGame,
    SetupError,
    Undo,
    command_from_dict,
    parse_command,
    short_name,
)
from frontends.web import openapi
from frontends.web.analysis import analyses
from frontends.web.errors import ApiError, bad_command, log_refused
from frontends.web.lookup import int_arg, json_body, live_game, replay_named
from frontends.web.readmodel import board_view, boards_of, pack_boards
from frontends.web.services import services

bp = Blueprint("api", __name__, url_prefix="/api")

#: What a client's request id may be (its own random id, reused on a retry).
REQUEST_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

#: Most event records one request returns.
MAX_EVENTS = 5000
#: A game id that can go into a file name as it is.
_SAFE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _events(records: list[dict[str, Any]], total: int, marks: list) -> dict[str, Any]:
    """The records from ``?from`` (``&limit``), and beside them what the board marks after
    each (``marks``, frontends/web/lastmove.py: the pages mark the last move with them)."""
    start = int_arg("from", 0, 0, total)
    limit = int_arg("limit", MAX_EVENTS, 1, MAX_EVENTS)
    part = slice(start, start + limit)
    return {"from": start, "total": total, "events": records[part], "marks": marks[part]}


# -- replays -----------------------------------------------------------------------


@bp.get("/openapi.json")
def openapi_document():
    """This API described in OpenAPI 3.1 (``frontends.web.openapi``, docs/openapi.json)."""
    return jsonify(openapi.document())


@bp.get("/replays")
def list_replays():
    """The logs in the replays directory, then the finished games of the server's store
    (newest first; ``stored_unlisted``: the older games of the store not looked at)."""
    replays = services().library.listing()
    stored, older = services().stored.finished()
    named = {replay["name"] for replay in replays}  # a folder's log keeps its name
    replays += [game for game in stored if game["name"] not in named]
    # this client's own uploads (kept in memory a while): found again once their URL is lost
    uploads = services().library.uploads_of(request.remote_addr)
    return jsonify({"replays": replays, "stored_unlisted": older, "uploads": uploads})


@bp.post("/replays")
def upload_replay():
    """Read an uploaded log and keep it (in memory) under a new name."""
    upload = request.files.get("log")
    if upload is not None:
        data, filename = upload.read(), upload.filename or "upload"
    elif request.files:
        raise ApiError(400, "no_file", "send the log in the form field 'log'")
    else:
        data, filename = request.get_data(), request.headers.get("X-Filename", "upload")
    if not data:
        raise ApiError(400, "no_file", "the upload is empty: choose a game log (.dmlog)")
    try:
        replay = services().library.upload(data, filename, client=request.remote_addr)
    except LogError as exc:
        raise log_refused(exc) from None
    return jsonify(replay.summary()), 201


@bp.get("/replays/<name>")
def replay_summary(name: str):
    """A replay's players, length and the totals through the game."""
    return jsonify(replay_named(name).summary())


@bp.get("/replays/<name>/events")
def replay_events(name: str):
    """The replay's event records from ``from`` on."""
    replay = replay_named(name)
    return jsonify(_events(replay.records, replay.total, replay.marks))


@bp.get("/replays/<name>/state")
def replay_state(name: str):
    """The board after the first ``at`` events (all of them by default)."""
    replay = replay_named(name)
    at = int_arg("at", replay.total, 1, replay.total)
    return jsonify(board_view(replay.state_at(at), at))


@bp.get("/replays/<name>/boards")
def replay_boards(name: str):
    """Every board of the replay, packed: the viewer then steps and seeks without asking."""
    return jsonify(replay_named(name).boards())


@bp.get("/replays/<name>/analysis")
def replay_analysis(name: str):
    """The replay's analysis: ``none``, ``running`` (``done`` of ``total``), ``done`` (with
    ``analysis``, the ``dice-miner analyse --json`` document) or ``failed``."""
    return jsonify(analyses().status(replay_named(name)))


@bp.post("/replays/<name>/analysis")
def start_replay_analysis(name: str):
    """Start the replay's analysis in the background (202), or say it is done (200)."""
    status = analyses().start(replay_named(name), client=request.remote_addr)
    return jsonify(status), 200 if status["state"] == "done" else 202


# -- live games --------------------------------------------------------------------


@bp.get("/bots")
def list_bots():
    """The bot kinds a seat can be given, and the levels of strength that name them
    (weakest first, each with its kind and what it was measured to do)."""
    levels = [
        {"level": level, "kind": kind, "measured": MEASURED[kind]} for level, kind in LEVELS.items()
    ]
    return jsonify({"bots": sorted(BOTS), "levels": levels})


@bp.get("/games")
def list_games():
    """Every live game on this server."""
    return jsonify({"games": [g.summary() for g in services().games.all()]})


@bp.post("/games")
def create_game():
    """Start a game; the answer holds each human seat's secret token (only here, only once)."""
    body = json_body()
    try:
        live, tokens = services().games.create(
            body.get("players"),
            seed=body.get("seed"),
            mode=body.get("mode", "multi"),
            pace=body.get("pace"),
            chosen_by=body.get("seed_chosen_by"),
            client=request.remote_addr,
            practice=body.get("practice", False),
        )
    except SetupError as exc:
        raise ApiError(400, exc.code, str(exc)) from None
    return jsonify(live.summary_with_links(tokens)), 201


@bp.get("/games/<game_id>")
def game_summary(game_id: str):
    """The game's seats, its current board and every event so far."""
    live = live_game(game_id)
    with live.cond:
        answer = live.summary()
        answer["state"] = live.board()
        answer["events"] = live.events_from(0)
        answer["marks"] = live.marks_from(0)  # what the board marks after each event
    return jsonify(answer)


@bp.get("/games/<game_id>/events")
def game_events(game_id: str):
    """The game's event records from ``from`` on."""
    live = live_game(game_id)
    with live.cond:
        return jsonify(_events(live.events_from(0), live.seq, live.marks_from(0)))


@bp.get("/games/<game_id>/state")
def game_state(game_id: str):
    """The board after the first ``at`` events (now, by default)."""
    live = live_game(game_id)
    at = int_arg("at", None, 1, live.seq)
    return jsonify(live.board(at))


@bp.get("/games/<game_id>/boards")
def game_boards(game_id: str):
    """The game's boards from ``from`` (1 by default) to now, packed: the page steps back
    through the game so far with them."""
    live = live_game(game_id)
    with live.cond:  # the log and its length as of one moment (a bot may be moving)
        batches, now = live.table.game.batches(), live.seq
    start = int_arg("from", 1, 1, max(now, 1))
    return jsonify({"from": start, **pack_boards(boards_of(batches, start, now))})


@bp.get("/games/<game_id>/log")
def game_log(game_id: str):
    """The game's log as a ``.dmlog`` file (``web-ID.dmlog``), at any moment: it holds every
    event, which the API shows anyway, and of a live game's dice only the commitment to its
    secret seed (revealed in the log once the game ends), never the seed itself."""
    live = live_game(game_id)
    with live.cond:
        data = live.table.game.export()
    name = f"web-{live.id}.dmlog" if _SAFE_ID.fullmatch(live.id) else "web-game.dmlog"
    headers = {"Content-Disposition": f'attachment; filename="{name}"'}
    return Response(data, mimetype="application/octet-stream", headers=headers)


@bp.get("/games/<game_id>/choices")
def game_choices(game_id: str):
    """What the player to act may do now (the same for everyone: nothing in the game is hidden)."""
    return jsonify(live_game(game_id).choices())


@bp.post("/games/<game_id>/commands")
def game_command(game_id: str):
    """Issue a move for the seat whose token comes with it; refused moves change nothing."""
    live = live_game(game_id)
    token = request.headers.get("X-Seat-Token")
    body = json_body()
    token = token or body.get("token")
    seat = live.seat_for(token if isinstance(token, str) else None)
    if seat is None:
        raise ApiError(403, "forbidden", "a move needs the secret link of the seat it is for")
    names = tuple(short_name(record) for record in live.table.seats)
    command = _command(body, seat, names, live.table.game.verbs)
    records, now = live.issue(
        seat, command, expected_seq=_position(body), request=_request_id(body)
    )
    return jsonify({"seq": now["state"]["seq"], "events": records, **now})


def _position(body: dict[str, Any]) -> int | None:
    """The position (``seq``) the command was decided at, if the client names it."""
    seq = body.get("seq")
    if seq is None:
        return None
    if type(seq) is not int or not 0 <= seq < 1 << 62:
        raise ApiError(400, "bad_argument", "seq is the event count the move was decided at")
    return seq


def _request_id(body: dict[str, Any]) -> str | None:
    """The client's id for this request (the same id on a retry), if it gives one."""
    given = body.get("id")
    if given is None:
        return None
    if not isinstance(given, str) or not REQUEST_ID.fullmatch(given):
        raise ApiError(400, "bad_argument", "id is 1 to 64 letters, digits, '-' or '_'")
    return given


def _command(body: dict[str, Any], seat: int, names: tuple[str, ...], verbs: tuple[str, ...]):
    """The command in the body (``command`` as a map, or ``text`` as typed), for ``seat``;
    a typed beer names its player as the page shows them (``beer 12 to Brok``), or a seat,
    and a word that is no command is answered with this game's ``verbs``."""
    try:
        if isinstance(body.get("text"), str):
            return parse_command(body["text"], seat, names, verbs)
        data = body.get("command")
        if not isinstance(data, dict) or not isinstance(data.get("t"), str):
            raise ApiError(400, "bad_command", "send a command: {'command': {'t': ...}} or 'text'")
        if data["t"] == NewGame.TAG:
            raise ApiError(400, "bad_command", "a game is started with POST /api/games")
        if data.get("seat", seat) != seat:
            raise ApiError(403, "not_your_seat", "a seat's link can only move for that seat")
        if data["t"] == Undo.TAG:
            return Undo(seat)
        return command_from_dict({**data, "seat": seat})
    except (CommandSyntaxError, EventFormatError) as exc:
        raise bad_command(exc) from None
