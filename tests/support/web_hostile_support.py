"""What the hostile-input tests share: the app's endpoints, a world to attack, strategies.

``World`` is one app with a replay library, a log outside it that no request may
reach, and games of two people made anew once a move changed them. ``check``
is the one rule every answer keeps: never a 5xx, and an API error always in
the JSON shape ``{"error": {"code", "message"}}``. The strategies make request
bodies, names, query arguments and commands as a hostile client would.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from core.commands import COMMAND_TYPES
from core.dice import ALL_FACES, HERO_NAMES
from core.events.codec import command_to_dict
from core.projections.state import EXCAVATION
from core.rules.legal import legal_commands
from tests.support.web_support import live_game, make_app

PEOPLE = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]
SECRET_NAMES = ("Secretus", "Hiddenia")  # the players of the log outside the replays folder
LIMIT = 2 * 1024 * 1024  # the app's MAX_CONTENT_LENGTH
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Every view of the app, with the method and an address for it ({game}, {replay}: real ones).
ENDPOINTS = {
    "pages.index": ("GET", "/"),
    "pages.replay_page": ("GET", "/replay/{replay}"),
    "pages.game_page": ("GET", "/games/{game}"),
    "pages.rules": ("GET", "/rules"),
    "api.list_replays": ("GET", "/api/replays"),
    "api.upload_replay": ("POST", "/api/replays"),
    "api.replay_summary": ("GET", "/api/replays/{replay}"),
    "api.replay_events": ("GET", "/api/replays/{replay}/events"),
    "api.replay_state": ("GET", "/api/replays/{replay}/state"),
    "api.replay_boards": ("GET", "/api/replays/{replay}/boards"),
    "api.replay_analysis": ("GET", "/api/replays/{replay}/analysis"),
    "api.start_replay_analysis": ("POST", "/api/replays/{replay}/analysis"),
    "branches.replay_branches": ("GET", "/api/replays/{replay}/branches"),
    "branches.branch_replay": ("POST", "/api/replays/{replay}/branch"),
    "branches.game_parent": ("GET", "/api/games/{game}/parent"),
    "api.openapi_document": ("GET", "/api/openapi.json"),
    "api.list_bots": ("GET", "/api/bots"),
    "api.list_games": ("GET", "/api/games"),
    "api.create_game": ("POST", "/api/games"),
    "api.game_summary": ("GET", "/api/games/{game}"),
    "api.game_events": ("GET", "/api/games/{game}/events"),
    "api.game_state": ("GET", "/api/games/{game}/state"),
    "api.game_boards": ("GET", "/api/games/{game}/boards"),
    "api.game_choices": ("GET", "/api/games/{game}/choices"),
    "api.game_log": ("GET", "/api/games/{game}/log"),
    "api.game_command": ("POST", "/api/games/{game}/commands"),
    "live.stream": ("GET", "/api/games/{game}/stream"),
    "table_api.leave_game": ("POST", "/api/games/{game}/leave"),
    "table_api.rematch": ("POST", "/api/games/{game}/rematch"),
    "table_api.game_standings": ("GET", "/api/games/{game}/standings"),
    "health.healthz": ("GET", "/healthz"),
    "health.readyz": ("GET", "/readyz"),
    "metrics.scrape": ("GET", "/metrics"),
    "static": ("GET", "/static/css/app.css"),
}


class World:
    """The module's app, its folders, and a game of two people at a chosen phase."""

    def __init__(self, root: Path, logs: Path) -> None:
        self.root = root
        self.app = make_app(
            root, MAX_GAMES=100_000, SSE_MAX_SECONDS=0.5, SSE_HEARTBEAT=0.1, ANALYSIS_SAMPLES=2
        )
        self.client = self.app.test_client()
        self.replays = self.app.config["REPLAYS_DIR"]
        self.data = self.app.config["DATA_DIR"]
        for name in ("game.dmlog", "marked.dmlog"):
            (self.replays / name).write_bytes((logs / name).read_bytes())
        (root / "secret.dmlog").write_bytes((logs / "secret.dmlog").read_bytes())
        self.opened: list[Path] = []  # every log file the replay library read
        self.games: dict[str, dict] = {}  # phase -> the API's answer for its game

    def game(self, phase: str = "setup") -> dict:
        """A game of two people at ``phase`` ("setup" or "excavation"), made anew once used."""
        if phase not in self.games:
            answer = self.client.post("/api/games", json={"players": PEOPLE, "seed": 5})
            assert answer.status_code == 201, answer.get_data(as_text=True)
            game = answer.get_json()
            live = live_game(self.app, game["id"])
            keys = tokens(game)
            while phase == "excavation" and live.state.phase != EXCAVATION:
                command = command_to_dict(next(legal_commands(live.state)))
                move = self.command(game["id"], {"command": command}, keys[live.state.to_act()])
                assert move.status_code == 200, move.get_json()
            self.games[phase] = game
        return self.games[phase]

    def command(self, game_id: str, body, token: str | None = None):
        headers = {"X-Seat-Token": token} if token is not None else {}
        return self.client.post(f"/api/games/{game_id}/commands", json=body, headers=headers)

    def snapshot(self, game: dict) -> tuple:
        """The game's seq, state and log bytes: what a refused command must not change."""
        live = live_game(self.app, game["id"])
        log = (self.data / f"web-{game['id']}.dmlog").read_bytes()
        return live.seq, live.state, log

    def files(self) -> set[Path]:
        """Every file under the root but the live games' logs (which new games add) and the
        analyses kept beside a replay's log (which a POST of its analysis adds, as the CLI)."""
        return {
            p
            for p in self.root.rglob("*")
            if p.is_file() and p.parent != self.data and ".analysis-v" not in p.name
        }

    def close_new_games(self, answer) -> None:
        """Stop the bots of a game a fuzzed body happened to start."""
        if answer.status_code == 201 and answer.is_json and "seats" in answer.get_json():
            live_game(self.app, answer.get_json()["id"]).close()


def tokens(game: dict) -> dict[int, str]:
    return {s["seat"]: s["token"] for s in game["seats"] if "token" in s}


def check(response, *allowed: int) -> None:
    """Never a 5xx; a status in ``allowed``; every API error in the one JSON shape."""
    status = response.status_code
    streaming = response.mimetype == "text/event-stream"
    text = "" if streaming else response.get_data().decode("utf-8", "replace")  # a log is bytes
    assert status < 500, text
    assert status in allowed, (status, text)
    api = response.request.path.startswith("/api/")
    if status >= 400 and api and response.request.method != "HEAD":
        assert response.is_json, text
        error = response.get_json()["error"]
        assert isinstance(error["code"], str) and error["code"]
        assert isinstance(error["message"], str) and error["message"]
    for name in SECRET_NAMES:
        assert name not in text
    response.close()


def still_serves(world: World) -> None:
    """After a barrage: the library lists, a game starts and takes a move."""
    assert world.client.get("/api/replays").status_code == 200
    answer = world.client.post("/api/games", json={"players": PEOPLE, "seed": 3})
    assert answer.status_code == 201
    game = answer.get_json()
    seat = live_game(world.app, game["id"]).state.to_act()
    move = world.command(game["id"], {"text": "hero Engineer"}, tokens(game)[seat])
    assert move.status_code == 200, move.get_json()


# -- strategies --------------------------------------------------------------------------

ODD_TEXT = ["\x00", "\ud800", "\udfff", "\u2028", "\ufeff", "<script>", "'", '"', "\\", "..%2f"]
hostile_text = st.one_of(
    st.text(max_size=30),
    st.lists(st.one_of(st.sampled_from(ODD_TEXT), st.text(max_size=4)), max_size=6).map("".join),
)
numbers = st.one_of(
    st.integers(-3, 70),
    st.integers(),
    st.sampled_from([2**63, 2**64, -(2**63) - 1, 10**30]),
    st.floats(),
)
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), numbers, hostile_text),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(hostile_text, inner, max_size=4),
    max_leaves=10,
)


def header(text: str) -> str:
    """Text as an HTTP header carries it: UTF-8 bytes read as Latin-1, on one line."""
    raw = text.encode("utf-8", "surrogatepass").decode("latin-1")
    return raw.replace("\r", " ").replace("\n", " ")


def in_url(text: str) -> str:
    """Text percent-encoded for a path segment or a query value (lone surrogates too)."""
    return quote(text, safe="", errors="surrogatepass")


def as_json(value) -> bytes:
    """JSON text, lone surrogates escaped; NaN and Infinity as Python writes them."""
    return json.dumps(value).encode()


@st.composite
def bodies(draw) -> bytes:
    """Request bodies: random bytes, any JSON, JSON cut short, JSON nested very deep."""
    kind = draw(st.sampled_from(["bytes", "json", "object", "cut", "deep"]))
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    if kind == "json":
        return as_json(draw(json_values))
    text = as_json(draw(st.dictionaries(hostile_text, json_values, max_size=4)))
    if kind == "object":
        return text
    if kind == "cut":
        return text[: draw(st.integers(0, max(0, len(text) - 1)))]
    depth = draw(st.integers(500, 100_000))
    return draw(st.sampled_from([b"[", b'{"a":'])) * depth


content_types = st.sampled_from(
    [
        "application/json",
        "application/json; charset=utf-16",
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data",
        "multipart/form-data; boundary=x",
        "application/octet-stream",
        "",
    ]
)
query_values = st.one_of(
    hostile_text,
    numbers.map(str),
    st.sampled_from(["-1", "1e99", "abc", str(10**12), "", " 1", "0x10", "\uff11", "9" * 5000]),
)
queries = st.dictionaries(st.sampled_from(["at", "from", "limit", "x"]), query_values, max_size=3)


dice = st.one_of(st.integers(-3, 70), st.sampled_from([2**64, -(2**63) - 1, 10**30]))
#: Each command's fields, with values of the right type (the rules judge them).
COMMAND_FIELDS = {
    "hero": {"hero": st.one_of(st.sampled_from(HERO_NAMES), hostile_text)},
    "take": {
        "die": dice,
        "as_face": st.one_of(st.none(), st.sampled_from(sorted(ALL_FACES))),
        "freeze": st.booleans(),
    },
    "beer": {"die": dice, "to_seat": dice},
    "spend": {
        "targets": st.lists(dice, max_size=6),
        "die": st.one_of(st.none(), dice),
        "hero_face": st.one_of(st.none(), dice),
    },
    "cache": {"dice": st.lists(dice, max_size=8)},
    "new": {"players": st.lists(hostile_text, max_size=5), "seed": dice},
    "end": {},
    "refill": {},
    "stop": {},
    "undo": {},
    # the table's commands: a person sending one is refused (not_a_move), whatever it says
    "reveal": {"secret": st.one_of(hostile_text, st.just("ab" * 32))},
    "close": {"reason": hostile_text},
    "takeover": {"taken": dice, "bot": hostile_text, "reason": hostile_text},
    "return": {"returned": dice},
    "leave": {"left": dice, "bot": hostile_text},
    "rematch": {"rematch_id": hostile_text},
    "branch": {
        "parent": st.one_of(hostile_text, st.just("ef" * 32)),
        "at": dice,
        "luck": st.one_of(hostile_text, st.sampled_from(["same", "fresh"])),
        "seed": st.one_of(st.none(), dice),
        "secret": hostile_text,
    },
}
assert set(COMMAND_FIELDS) == set(COMMAND_TYPES)


@st.composite
def command_bodies(draw) -> dict:
    """A command as a map (right types, or one field of any JSON), typed text, or any JSON."""
    kind = draw(st.sampled_from(["command", "garbled", "text", "json"]))
    tag = draw(st.sampled_from(sorted(COMMAND_FIELDS)))
    fields = COMMAND_FIELDS[tag]
    if kind == "json":
        return draw(st.dictionaries(hostile_text, json_values, max_size=3))
    if kind == "text":
        words = [draw(st.one_of(st.just(tag), hostile_text))]
        words += draw(
            st.lists(
                st.one_of(
                    dice.map(str),
                    st.sampled_from(["to", "on", "as", "freeze", "h1", *HERO_NAMES]),
                    hostile_text,
                ),
                max_size=5,
            )
        )
        return {"text": " ".join(words)}
    command = {"t": tag, **{name: draw(value) for name, value in fields.items()}}
    if kind == "garbled":
        name = draw(st.sampled_from(["t", "seat", "extra", *fields]))
        command[name] = draw(json_values)
    return {"command": command}
