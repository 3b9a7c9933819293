"""The web API under hostile input: every endpoint answers a JSON 4xx (or a 2xx) and stays up.

One app for the module, with a replay library, a log kept outside it (that no
request may reach), and games of two people. Hypothesis throws bodies (random
bytes, truncated and deeply nested JSON, every JSON type in every field, NUL
and lone surrogates), content types, tokens, resume ids and query arguments at
every route the app has (the inventory is checked against ``app.url_map``);
tables add path traversal, markup in names, huge bodies and seat tokens. After
each barrage an ordinary request must still work, a refused command must leave
the game's state and the bytes of its log as they were, and no file may have
been read outside the replays folder or written outside the data folder.
"""

from __future__ import annotations

import http.client
import io
import json
import urllib.request
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markupsafe import escape

import frontends.web.replays as replays_module
from core.events.codec import command_to_dict
from core.rules.legal import legal_commands
from tests.support.web_hostile_support import (
    ENDPOINTS,
    FUZZ,
    LIMIT,
    PEOPLE,
    SECRET_NAMES,
    World,
    as_json,
    bodies,
    check,
    command_bodies,
    content_types,
    header,
    hostile_text,
    in_url,
    json_values,
    queries,
    query_values,
    still_serves,
    tokens,
)
from tests.support.web_support import LiveServer, live_game, make_app, record_game


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    logs = tmp_path_factory.mktemp("logs")
    record_game(logs / "game.dmlog", names=("Ann", "Bo"), commands=30)
    record_game(logs / "secret.dmlog", names=SECRET_NAMES, commands=10)
    record_game(
        logs / "marked.dmlog", names=("<script>alert(1)</script>", '"><img src=x onerror=y>')
    )
    world = World(tmp_path_factory.mktemp("hostile"), logs)
    read = replays_module.load_batches
    patch = pytest.MonkeyPatch()

    def spy(path, **kwargs):
        world.opened.append(Path(path))
        return read(path, **kwargs)

    patch.setattr(replays_module, "load_batches", spy)
    files = world.files()
    yield world
    patch.undo()
    world.app.extensions["dice_miner"].games.close()
    assert world.files() == files  # nothing written beside the games' logs
    replays = world.replays.resolve()
    assert world.opened  # the spy saw the library read its logs
    assert all(p.resolve().parent == replays for p in world.opened)  # nothing read outside


# -- every endpoint ------------------------------------------------------------------------


def test_the_inventory_names_every_endpoint_the_app_has(world):
    """A new route must be added here, so the barrage below reaches it."""
    assert set(world.app.view_functions) == set(ENDPOINTS)


#: The endpoints whose success changes the game: a command, and a seat's leaving.
MOVING = ("api.game_command", "table_api.leave_game")


def test_any_request_to_any_endpoint_is_a_json_4xx_or_a_success(world):
    """Any method, body, content type, token, resume id and query, on any route."""
    other_names = st.one_of(hostile_text, st.sampled_from(["..", "%2e%2e", "secret.dmlog"]))

    @FUZZ
    @example(  # a seat leaving with its own token: a success that moves the game
        endpoint="table_api.leave_game",
        method="POST",
        real_names=True,
        name="..",
        body=b"",
        content_type="application/json",
        token=0,
        resume=None,
        query={},
        accept="*/*",
    )
    @given(
        endpoint=st.sampled_from(sorted(ENDPOINTS)),
        method=st.one_of(st.none(), st.sampled_from(["GET", "POST", "PUT", "DELETE", "HEAD"])),
        real_names=st.booleans(),
        name=other_names,
        body=bodies(),
        content_type=content_types,
        token=st.one_of(st.none(), hostile_text, st.sampled_from([0, 1])),  # int: that seat's
        resume=st.one_of(st.none(), query_values),
        query=queries,
        accept=st.sampled_from(["*/*", "application/json", "text/html", ";;q=x"]),
    )
    def barrage(
        endpoint, method, real_names, name, body, content_type, token, resume, query, accept
    ):
        game = world.game()
        own, address = ENDPOINTS[endpoint]
        method = method or own
        address = address.format(
            game=game["id"] if real_names else in_url(name),
            replay="game.dmlog" if real_names else in_url(name),
        )
        if isinstance(token, int):
            token = tokens(game)[token]
        headers = {"Accept": accept}
        if token is not None:
            headers["X-Seat-Token"] = header(token)
        if resume is not None:
            headers["Last-Event-ID"] = header(resume)
        before = world.snapshot(game)
        answer = world.client.open(
            address,
            method=method,
            data=body,
            content_type=content_type,
            headers=headers,
            query_string="&".join(f"{k}={in_url(v)}" for k, v in query.items()),
            buffered=False,
        )
        # a seat's own command and its leaving (a resignation) are the requests that may move
        # its game; every other answer leaves the game as it was
        moved = endpoint in MOVING and answer.status_code == 200
        world.close_new_games(answer)
        check(answer, 200, 201, 202, 400, 403, 404, 405, 413, 422)
        if not moved:
            assert world.snapshot(game) == before
        else:
            world.games.pop("setup")  # the next examples get a fresh game

    barrage()
    still_serves(world)


def test_a_new_games_fields_of_any_type_are_a_400_or_a_game(world):
    seats = st.fixed_dictionaries(
        {},
        optional={
            "name": st.one_of(hostile_text, json_values),
            "bot": st.one_of(st.sampled_from([None, "random", "greedy"]), json_values),
        },
    )
    setup = st.fixed_dictionaries(
        {"players": st.one_of(st.lists(seats, min_size=1, max_size=5), json_values)},
        optional={"seed": json_values, "mode": json_values, "pace": json_values},
    )

    @FUZZ
    @given(body=setup)
    def barrage(body):
        answer = world.client.post("/api/games", data=as_json(body), content_type="text/plain")
        world.close_new_games(answer)
        if answer.status_code == 201:
            sent = [seat.get("name") for seat in body["players"]]
            made = [seat["name"] for seat in answer.get_json()["seats"]]
            for given_name, name in zip(sent, made, strict=True):
                assert not isinstance(given_name, str) or given_name.strip() in name
        check(answer, 201, 400)

    barrage()
    still_serves(world)


@pytest.mark.parametrize(
    "seat",
    [
        {"name": "A\ud800", "bot": None},  # a lone surrogate: no log can record it
        {"name": "\udfff", "bot": None},
        {"name": "A", "bot": ["random"]},  # unhashable: was a 500
        {"name": "A", "bot": {"kind": "random"}},
        {"name": "A", "bot": 1},
        {"name": "A\x00", "bot": None},
        {"name": "A" * 25, "bot": None},
        {"name": ["A"], "bot": None},
    ],
)
def test_a_seat_the_log_cannot_hold_is_a_400_bad_setup(world, seat):
    body = as_json({"players": [seat, {"name": "Bo", "bot": None}]})
    answer = world.client.post("/api/games", data=body, content_type="application/json")
    check(answer, 400)
    control = isinstance(seat["name"], str) and "\x00" in seat["name"]  # a finer code says so
    assert answer.get_json()["error"]["code"] == ("bad_name" if control else "bad_setup")


def test_commands_with_any_fields_are_refused_without_a_trace(world):
    """400, 403 or 422 leave the game's state and log as they were; a 200 is a legal move."""

    @FUZZ
    @given(phase=st.sampled_from(["setup", "excavation"]), body=command_bodies())
    def barrage(phase, body):
        game = world.game(phase)
        seat = live_game(world.app, game["id"]).state.to_act()
        before = world.snapshot(game)
        answer = world.client.post(
            f"/api/games/{game['id']}/commands",
            data=as_json(body),
            headers={"X-Seat-Token": tokens(game)[seat]},
        )
        check(answer, 200, 400, 403, 422)
        if answer.status_code == 200:
            world.games.pop(phase)
        else:
            assert world.snapshot(game) == before

    barrage()
    still_serves(world)


# -- tables ----------------------------------------------------------------------------------


def test_moves_without_the_seats_own_token_are_403s_that_change_nothing(world):
    game = world.game()
    live = live_game(world.app, game["id"])
    seat = live.state.to_act()
    mine, other = tokens(game)[seat], tokens(game)[1 - seat]
    move = {"command": command_to_dict(next(legal_commands(live.state)))}
    elsewhere = world.client.post("/api/games", json={"players": PEOPLE}).get_json()
    before = world.snapshot(game)
    refusals = [
        (None, move),
        ("", move),
        ("guess", move),
        (mine.upper() if mine.upper() != mine else mine.lower(), move),
        (mine[:-1], move),
        (mine + " ", move),
        (mine + "\u00e9".encode().decode("latin-1"), move),
        (tokens(elsewhere)[0], move),
        (None, {**move, "token": 12345}),
        (None, {**move, "token": ["x"]}),
        (None, {**move, "token": "\ud800"}),
        (other, {"command": {**move["command"], "seat": seat}}),
    ]
    for token, body in refusals:
        headers = {"X-Seat-Token": token} if token is not None else {}
        answer = world.client.post(
            f"/api/games/{game['id']}/commands", data=as_json(body), headers=headers
        )
        check(answer, 403)
        assert world.snapshot(game) == before
    unseated = {"command": {k: v for k, v in move["command"].items() if k != "seat"}}
    answer = world.command(game["id"], unseated, other)  # for its own seat: not its turn
    check(answer, 422)
    assert world.snapshot(game) == before
    live_game(world.app, elsewhere["id"]).close()


def test_unknown_games_are_404s_everywhere_and_make_no_file(world):
    game = world.game()
    legal = command_to_dict(next(legal_commands(live_game(world.app, game["id"]).state)))
    files = set(world.data.iterdir())
    for game_id in ["nope", "..", "%2e%2e%2f", "%00", "a" * 5000, game["id"] + "x", "\u00e9"]:
        for suffix in ("", "/events", "/state", "/choices", "/stream"):
            check(world.client.get(f"/api/games/{game_id}{suffix}"), 404)
        body = {"command": legal}
        for token in tokens(game).values():
            check(world.command(game_id, body, token), 404)
        check(world.client.get(f"/games/{game_id}"), 404)
    assert set(world.data.iterdir()) == files


#: Names a replay cannot have: traversal, absolute paths, NUL, backslashes, encodings, length.
TRAVERSALS = [
    "../secret.dmlog",
    "..%2Fsecret.dmlog",
    "..%252Fsecret.dmlog",
    "%2e%2e%2fsecret.dmlog",
    "%2E%2E/%2E%2E/secret.dmlog",
    "..%5Csecret.dmlog",
    "..\\secret.dmlog",
    "/etc/passwd",
    "%2Fetc%2Fpasswd",
    "C:%5Csecret.dmlog",
    "....//secret.dmlog",
    "%c0%ae%c0%ae%c0%afsecret.dmlog",
    "game.dmlog%00",
    "game.dmlog%00.txt",
    "%00",
    "..",
    ".",
    "~",
    "game.dmlog/../../secret.dmlog",
    "upload-..%2F..%2Fsecret.dmlog",
    "..%2Fdata%2F",
    "a" * 5000,
]


@pytest.mark.parametrize("name", TRAVERSALS)
def test_traversal_in_replay_names_never_reaches_a_file_outside_the_folder(world, name):
    for suffix in ("", "/events", "/state"):
        check(world.client.get(f"/api/replays/{name}{suffix}"), 400, 404)
    check(world.client.get(f"/replay/{name}"), 400, 404)
    check(world.client.get(f"/static/{name}"), 400, 404)
    check(world.client.get(f"/static/..%2F..%2F{name}"), 400, 404)


def test_replay_names_of_any_text_are_404s_unless_listed(world):
    listed = {r["name"] for r in world.client.get("/api/replays").get_json()["replays"]}

    @FUZZ
    @given(name=st.one_of(hostile_text, st.sampled_from(TRAVERSALS)))
    def barrage(name):
        for suffix in ("", "/events", "/state"):
            answer = world.client.get(f"/api/replays/{in_url(name)}{suffix}")
            if name in listed:
                check(answer, 200)
            else:
                check(answer, 404)

    barrage()
    still_serves(world)


def test_source_files_are_never_served(world):
    for path in ("/static/../app.py", "/static/..%2fapp.py", "/static/%2e%2e/%2e%2e/core/rng.py"):
        answer = world.client.get(path)
        check(answer, 404)
        assert "import" not in answer.get_data(as_text=True)


MARKUP = ["<script>alert(1)</script>", '"><img src=x onerror=y>']


def test_markup_in_a_replay_is_served_escaped_in_pages_and_intact_in_json(world):
    summary = world.client.get("/api/replays/marked.dmlog")
    check(summary, 200)
    assert summary.mimetype == "application/json"
    assert summary.get_json()["players"] == MARKUP
    page = world.client.get("/replay/marked.dmlog").get_data(as_text=True)
    for name in MARKUP:
        assert name not in page and str(escape(name)) in page
    events = world.client.get("/api/replays/marked.dmlog/events").get_json()["events"]
    assert any(MARKUP[0] in e["text"] for e in events)


def test_markup_in_player_names_is_served_escaped(world):
    """The game page escapes names; the API and the stream return them as they were given."""

    @settings(FUZZ, max_examples=40)
    @given(
        tag=st.sampled_from(["<script>alert(1)", "</title><b>x", '"><svg onload=x>', "'&amp;"]),
        rest=st.text(alphabet="<>&\"' =/ab", max_size=6),
    )
    def barrage(tag, rest):
        name = tag + rest
        players = [{"name": name, "bot": None}, {"name": "Bo", "bot": None}]
        answer = world.client.post("/api/games", json={"players": players})
        check(answer, 201)
        game = answer.get_json()
        assert game["seats"][0]["name"] == name.strip() and game["players"][0] == name.strip()
        page = world.client.get(f"/games/{game['id']}").get_data(as_text=True)
        assert tag not in page and str(escape(name.strip())) in page
        summary = world.client.get(f"/api/games/{game['id']}")
        assert summary.mimetype == "application/json"
        assert summary.headers["X-Content-Type-Options"] == "nosniff"
        started = summary.get_json()["events"][0]
        assert name.strip() in started["text"]
        live_game(world.app, game["id"]).close()
        # the stream's first message, read as it comes (the stream itself stays open for
        # SSE_MAX_SECONDS: waiting for its end would spend half a second an example)
        with world.client.get(f"/api/games/{game['id']}/stream", buffered=False) as stream:
            first = next(
                line[6:]
                for chunk in stream.iter_encoded()
                for line in chunk.decode().split("\n")
                if line[:6] == "data: "
            )
        assert json.loads(first)["event"]["text"] == started["text"]

    barrage()
    for name in ("<script>alert(1)</script>", "<img src=x onerror=alert(1)>"):
        page = world.client.get(f"/replay/{in_url(name)}")
        check(page, 404)
        text = page.get_data(as_text=True)
        assert name not in text
        assert "/" in name or str(escape(name)) in text  # the 404 page names it, escaped


@pytest.mark.parametrize(
    "query",
    [
        "at=-1",
        "at=1e99",
        "at=abc",
        "at=%00",
        "from=abc",
        "from=-1",
        "from=1e99",
        f"limit={10**12}",
        "limit=0",
        "limit=-5",
        "at=" + "9" * 5000,
        "from=0x1",
        "at=1&at=2",
        "limit=",
        "at=%ff",
    ],
)
def test_odd_query_arguments_are_400s(world, query):
    game = world.game()
    for address in ("/api/replays/game.dmlog", f"/api/games/{game['id']}"):
        for suffix in ("/events", "/state", "/stream"):
            if address.startswith("/api/replays") and suffix == "/stream":
                continue
            check(world.client.get(f"{address}{suffix}?{query}", buffered=False), 200, 400)
    answer = world.client.get("/api/replays/game.dmlog/state?" + query)
    if query.startswith("at=") and query != "at=1&at=2":
        check(answer, 400)


@pytest.mark.parametrize("resume", ["x", "-5", "1e3", "9" * 5000, "\u00ff", " 1"])
def test_odd_resume_ids_are_400s_or_a_resumed_stream(world, resume):
    game = world.game()
    answer = world.client.get(
        f"/api/games/{game['id']}/stream", headers={"Last-Event-ID": resume}, buffered=False
    )
    check(answer, 200, 400)


def test_bodies_over_the_limit_are_413s_and_the_server_goes_on(world):
    game = world.game()
    huge = b"x" * (LIMIT + 1)
    before = world.snapshot(game)
    for address, kwargs in [
        ("/api/games", {"data": huge, "content_type": "application/json"}),
        (f"/api/games/{game['id']}/commands", {"data": huge}),
        ("/api/replays", {"data": huge, "content_type": "application/octet-stream"}),
        ("/api/replays", {"data": {"log": (io.BytesIO(huge), "big.dmlog")}}),
    ]:
        answer = world.client.post(address, headers={"X-Seat-Token": "t"}, **kwargs)
        check(answer, 413)
        assert answer.get_json()["error"]["code"] == "too_large"
    assert world.snapshot(game) == before
    still_serves(world)


@pytest.mark.parametrize("opener", [b"[", b'{"a":', b'{"players":['])
def test_deeply_nested_json_is_a_400(world, opener):
    game = world.game()
    for address in ("/api/games", f"/api/games/{game['id']}/commands"):
        answer = world.client.post(address, data=opener * 100_000, content_type="application/json")
        check(answer, 400)
        assert answer.get_json()["error"]["code"] == "bad_json"


@pytest.mark.parametrize("filename", ["../../evil.dmlog", "/etc/passwd", "..\\x.dmlog", "\x00"])
def test_uploads_are_kept_in_memory_whatever_their_file_name(world, filename):
    log = (world.replays / "game.dmlog").read_bytes()
    answer = world.client.post("/api/replays", data={"log": (io.BytesIO(log), filename)})
    check(answer, 201)
    name = answer.get_json()["name"]
    assert name.startswith("upload-") and "/" not in name and ".." not in name
    raw = world.client.post("/api/replays", data=log, headers={"X-Filename": filename})
    check(raw, 201)
    check(world.client.get(f"/api/replays/{name}/state"), 200)


def test_a_real_server_refuses_chunked_and_lying_bodies_over_the_limit(tmp_path):
    """Werkzeug cuts a chunked body at the limit silently; the app must still answer 413."""
    log = tmp_path / "game.dmlog"
    record_game(log, names=("Ann", "Bo"), commands=10)

    def chunks(data: bytes):
        for start in range(0, len(data), 1 << 16):
            yield data[start : start + (1 << 16)]

    with LiveServer(make_app(tmp_path)) as server:
        connection = http.client.HTTPConnection("127.0.0.1", server.server.port, timeout=10)

        def post(address, body, **headers):
            chunked = not isinstance(body, bytes)
            connection.request("POST", address, body, headers, encode_chunked=chunked)
            answer = connection.getresponse()
            return answer.status, json.loads(answer.read())

        big = log.read_bytes() + b"\0" * LIMIT
        status, body = post("/api/replays", chunks(big))
        assert (status, body["error"]["code"]) == (413, "too_large")
        assert post("/api/games", chunks(b" " * LIMIT + b"{}"))[0] == 413
        assert post("/api/games", chunks(b" " * (LIMIT - 2) + b"{}"))[1]["error"]["code"] == (
            "bad_setup"  # exactly at the limit: read whole
        )
        assert post("/api/replays", chunks(log.read_bytes()))[0] == 201
        connection.close()
        connection = http.client.HTTPConnection("127.0.0.1", server.server.port, timeout=10)
        connection.putrequest("POST", "/api/games")
        connection.putheader("Content-Length", str(10**12))
        connection.endheaders(b"{}")
        assert connection.getresponse().status == 413
        connection.close()
        with urllib.request.urlopen(server.url + "/api/replays") as answer:
            assert answer.status == 200
