"""The what-if routes: a replay's family, and a live game started from any of its positions.

    GET  /api/replays/<name>/branches   its branch points, the branches of it the server
                                        sees, and the log it was branched from
    POST /api/replays/<name>/branch     play from here: ``{"at": N, "luck": "same"|"fresh",
                                        "players": [{"name", "bot"}], "seed", "pace"}``
                                        -> 201 as ``POST /api/games``, each person's link
    GET  /api/games/<id>/parent         a live branch's parent: its name and link, if seen

A branch is the host's (``core.host.Lobby.branch``, over ``core.branch``): the same luck
rolls the parent's dice at every position (so anyone with the parent's log knows them),
fresh luck a new seed, recorded in the log. Refusals are the usual JSON 4xx: a bad
field 400, a branch the game refuses (a point inside a command's events, the game over
there, the same luck of a secret seed not revealed yet) 422 with its code and sentence.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from core import BranchError, LogError, SetupError, branch_points
from frontends.web.errors import ApiError, log_refused
from frontends.web.lookup import json_body, live_game, replay_named
from frontends.web.services import services
from frontends.web.stored import stored_name

bp = Blueprint("branches", __name__, url_prefix="/api")

#: The largest seed a fresh branch may be given (the engine's seeds are 64-bit).
MAX_SEED = (1 << 64) - 1
#: More events than any game holds: a branch point beyond it is a bad argument, not a search.
MAX_AT = 1 << 31


@bp.get("/replays/<name>/branches")
def replay_branches(name: str):
    """Where a branch of the replay may start (``points``: where each command's events end),
    its branches that this server sees, each with its point, and its ``parent`` if it is one."""
    replay = replay_named(name)
    family = services().family
    return jsonify(
        {
            "name": replay.name,
            "sha256": replay.sha256,
            "points": branch_points(replay.batches),
            "parent": family.parent(replay.header, replay.name),
            "branches": family.branches(replay.sha256),
        }
    )


@bp.post("/replays/<name>/branch")
def branch_replay(name: str):
    """Start a live game branched from the replay after its first ``at`` events."""
    replay = replay_named(name)
    body = json_body()
    at = _whole(body.get("at"), "at", "the number of the game's events to keep", MAX_AT)
    luck = body.get("luck")
    if luck not in ("same", "fresh"):
        raise ApiError(400, "bad_argument", "luck is 'same' (the game's dice) or 'fresh'")
    seed = body.get("seed")
    if seed is not None:
        seed = _whole(seed, "seed", "a fresh branch's seed", MAX_SEED)
    try:
        live, tokens = services().games.branch(
            replay.data,
            at,
            luck,
            body.get("players"),
            seed=seed,
            pace=body.get("pace"),
            client=request.remote_addr,
            name=replay.name,
        )
    except SetupError as exc:
        raise ApiError(400, "bad_setup", str(exc)) from None
    except BranchError as exc:
        raise ApiError(422, exc.code, _unnamed(exc.message, replay.name)) from None
    except LogError as exc:
        raise log_refused(exc) from None
    answer = live.summary_with_links(tokens)
    answer["parent"] = {"name": replay.name, "at": at, "link": f"/replay/{replay.name}?at={at}"}
    return jsonify(answer), 201


@bp.get("/games/<game_id>/parent")
def game_parent(game_id: str):
    """The log a live branch was taken from, and where: its name and link if this server has
    it, else only its SHA-256; a 404 for a game that is no branch."""
    live = live_game(game_id)
    parent = services().family.parent(live.table.game.header, stored_name(live.id))
    if parent is None:
        raise ApiError(404, "not_a_branch", f"game {live.id} is not a branch of another")
    return jsonify(parent)


def _whole(value: object, field: str, what: str, high: int) -> int:
    """A whole number in 0..high from the body, or a 400 naming the field."""
    if type(value) is not int or not 0 <= value <= high:
        raise ApiError(400, "bad_argument", f"{field} is {what}, a whole number from 0 to {high}")
    return value


def _unnamed(message: str, name: str) -> str:
    """A refusal without the log's name in front (the page says which game it is)."""
    return message.removeprefix(f"{name}: ")


__all__ = ["bp"]
