"""What-if branches in the web API: a replay's family (its branches the server sees in the
replays folder, the uploads and the store, and its parent), and "play from here": a live
game branched from a replay at a branch point, seated as a new game is.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest

from core.branch import write_branch
from core.store import FileStore, import_log, load_batches_bytes
from tests.support.web_support import make_app

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
FOUR = (REPLAYS / "four-players.dmlog").read_bytes()  # seed 4; batches end at 83, 88, 104...
FOUR_SHA = hashlib.sha256(FOUR).hexdigest()
PLAYERS = ["montecarlo-1", "greedy-2", "random-3", "greedy-4"]
ME_AND_BOTS = [{"bot": None}, {"bot": "greedy"}, {"bot": "random"}, {"bot": "greedy"}]


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    replays = app.config["REPLAYS_DIR"]
    (replays / "four-players.dmlog").write_bytes(FOUR)
    write_branch(replays / "four-players.dmlog", replays / "what-if.dmlog", 104, "same", sync=False)
    yield app
    app.extensions["dice_miner"].games.close()


def error_of(response, status: int) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    return response.get_json()["error"]


def branch(client, name="four-players.dmlog", **body):
    return client.post(f"/api/replays/{name}/branch", json=body)


# -- the family ----------------------------------------------------------------------------


def test_a_games_branches_are_found_in_the_folder_the_uploads_and_the_store(client, tmp_path):
    upload = tmp_path / "fresh.dmlog"
    write_branch(REPLAYS / "four-players.dmlog", upload, 60, "fresh", seed=3, sync=False)
    uploaded = client.post("/api/replays", data={"log": (io.BytesIO(upload.read_bytes()), "x")})
    assert uploaded.status_code == 201
    live = branch(client, at=88, luck="same", players=ME_AND_BOTS, pace=5).get_json()
    family = client.get("/api/replays/four-players.dmlog/branches").get_json()
    assert family["sha256"] == FOUR_SHA and family["parent"] is None
    assert 104 in family["points"] and 86 not in family["points"]
    found = {(b["at"], b["source"]): b for b in family["branches"]}
    assert set(found) == {(60, "upload"), (88, "store"), (104, "file")}
    assert found[(104, "file")]["name"] == "what-if.dmlog"
    assert found[(104, "file")]["link"] == "/replay/what-if.dmlog?at=104"
    assert found[(60, "upload")]["link"] == f"/replay/{uploaded.get_json()['name']}?at=60"
    assert found[(88, "store")]["name"] == f"web-{live['id']}.dmlog"
    assert found[(88, "store")]["link"] == f"/games/{live['id']}"  # being played: its page
    assert found[(88, "store")]["over"] is False
    assert [b["at"] for b in family["branches"]] == [60, 88, 104]


def test_a_branch_names_its_parent_and_where_it_parted(client):
    family = client.get("/api/replays/what-if.dmlog/branches").get_json()
    assert family["parent"] == {
        "sha256": FOUR_SHA,
        "at": 104,
        "name": "four-players.dmlog",
        "link": "/replay/four-players.dmlog?at=104",
        "source": "file",
        "players": PLAYERS,
        "over": True,
    }
    assert family["branches"] == []
    summary = client.get("/api/replays/what-if.dmlog").get_json()
    assert summary["branch"] == {"parent": FOUR_SHA, "at": 104}


def test_a_parent_only_in_the_store_is_found_there(app, client, tmp_path):
    """The stored parent is hashed only because it has the branch's game id."""
    (app.config["REPLAYS_DIR"] / "four-players.dmlog").unlink()
    store = app.extensions["dice_miner"].store
    scan, batches = load_batches_bytes(FOUR)
    import_log(store, scan, batches).close()
    other = load_batches_bytes((REPLAYS / "two-players.dmlog").read_bytes())
    import_log(store, *other).close()
    family = client.get("/api/replays/what-if.dmlog/branches").get_json()
    assert family["parent"]["name"] == "web-0000000000000004.dmlog"
    assert family["parent"]["link"] == "/replay/web-0000000000000004.dmlog?at=104"
    assert app.extensions["dice_miner"].stored.reads <= 1  # the parent; never the other game
    assert isinstance(store, FileStore)


def test_a_parent_the_server_does_not_have_is_named_by_its_hash(app, client):
    (app.config["REPLAYS_DIR"] / "four-players.dmlog").unlink()
    parent = client.get("/api/replays/what-if.dmlog/branches").get_json()["parent"]
    assert parent == {"sha256": FOUR_SHA, "at": 104, "name": None, "link": None}


# -- play from here ------------------------------------------------------------------------


def test_play_from_here_starts_a_live_branch_with_a_link_for_each_person(app, client):
    answer = branch(client, at=104, luck="same", players=ME_AND_BOTS, pace=5)
    assert answer.status_code == 201, answer.get_json()
    game = answer.get_json()
    assert [s["seat"] for s in game["seats"] if "token" in s] == [0]
    me = game["seats"][0]
    assert me["link"] == f"/games/{game['id']}#seat=0&token={me['token']}"
    assert game["watch"] == f"/games/{game['id']}" and game["players"] == PLAYERS
    dice = {"kind": "branch", "parent": FOUR_SHA, "at": 104, "luck": "same", "seed": 4}
    assert game["dice"] == dice
    link = "/replay/four-players.dmlog?at=104"
    assert game["parent"] == {"name": "four-players.dmlog", "at": 104, "link": link}
    assert game["seq"] == 105  # the parent's 104 events and the branch's fact
    stored = FileStore(app.config["DATA_DIR"], prefix="web-")
    log = stored.read(game["id"])
    assert log.header["game_id"] == "0000000000000004" and log.header["branch"]["at"] == 104
    assert me["token"] not in stored.seating_path(game["id"]).read_text()
    parent = client.get(f"/api/games/{game['id']}/parent").get_json()
    assert parent["name"] == "four-players.dmlog" and parent["link"].endswith("?at=104")
    plain = client.post("/api/games", json={"players": [{"name": "Ann"}, {"name": "Bo"}]})
    error = error_of(client.get(f"/api/games/{plain.get_json()['id']}/parent"), 404)
    assert error["code"] == "not_a_branch"


def test_the_same_luck_brings_the_parents_dice_for_the_parents_move(client):
    """At event 95 greedy-2 shared a beer, and die 14 rolled a tunnel 1: in a same-luck branch
    from there the same beer rolls the same face; with fresh luck the dice are the seed's."""
    original = client.get("/api/replays/four-players.dmlog/events?from=95").get_json()["events"]
    assert original[0]["command"] == "beer 14 to 2" and "rolled tunnel 1" in original[0]["text"]
    faces = {}
    for luck, seed in (("same", None), ("fresh", 1), ("fresh", 2), ("fresh", 3)):
        body = {"at": 95, "luck": luck, "players": [{"bot": None}] * 4}
        game = branch(client, **body, **({} if seed is None else {"seed": seed})).get_json()
        token = next(s["token"] for s in game["seats"] if s["seat"] == 1)  # greedy-2's seat
        move = client.post(
            f"/api/games/{game['id']}/commands",
            json={"text": "beer 14 to 2"},
            headers={"X-Seat-Token": token},
        )
        assert move.status_code == 200, move.get_json()
        faces[(luck, seed)] = move.get_json()["events"][0]["text"]
    assert faces[("same", None)] == original[0]["text"]
    assert len(set(faces.values())) > 1  # fresh seeds roll other faces (here, at least one)


def test_fresh_luck_is_a_recorded_seed(client):
    game = branch(client, at=104, luck="fresh", seed=77, players=[{"bot": None}] * 4).get_json()
    assert game["dice"]["luck"] == "fresh" and game["dice"]["seed"] == 77
    drawn = branch(client, at=104, luck="fresh", players=[{"bot": None}] * 4).get_json()
    assert isinstance(drawn["dice"]["seed"], int)


@pytest.mark.parametrize(
    ("body", "status", "code", "words"),
    [
        ({"at": 86, "luck": "same"}, 422, "bad_branch", "nearest branch points are 83 and 88"),
        ({"at": 139, "luck": "same"}, 422, "game_over", "the game is over there"),
        ({"at": 9999, "luck": "same"}, 422, "bad_branch", "beyond its end"),
        ({"at": "104", "luck": "same"}, 400, "bad_argument", "at is the number"),
        ({"at": True, "luck": "same"}, 400, "bad_argument", "at is the number"),
        ({"at": 104, "luck": "lucky"}, 400, "bad_argument", "luck is 'same'"),
        ({"at": 104, "luck": "same", "seed": 3}, 400, "bad_setup", "a seed goes with fresh"),
        ({"at": 104, "luck": "fresh", "seed": -1}, 400, "bad_argument", "seed is"),
        ({"at": 104, "luck": "same", "players": [{"bot": None}]}, 400, "bad_setup", "4 seats"),
        (
            {"at": 104, "luck": "same", "players": [{"name": "Ann", "bot": None}] * 4},
            400,
            "bad_setup",
            "a branch keeps its players' names",
        ),
    ],
)
def test_a_branch_refused_says_why_and_starts_nothing(app, client, body, status, code, words):
    body.setdefault("players", ME_AND_BOTS)
    error = error_of(branch(client, **body), status)
    assert error["code"] == code and words in error["message"]
    assert "four-players.dmlog:" not in error["message"]
    assert client.get("/api/games").get_json()["games"] == []


def test_the_same_luck_of_a_secret_not_revealed_is_refused_in_words(client):
    """A log downloaded while its game is played holds only the commitment to its seed."""
    live = client.post("/api/games", json={"players": [{"name": "Ann"}, {"bot": "greedy"}]})
    game = live.get_json()
    log = client.get(f"/api/games/{game['id']}/log").get_data()
    name = client.post("/api/replays", data={"log": (io.BytesIO(log), "mid.dmlog")}).get_json()
    points = client.get(f"/api/replays/{name['name']}/branches").get_json()["points"]
    people = [{"bot": None}, {"bot": None}]
    error = error_of(branch(client, name["name"], at=points[-1], luck="same", players=people), 422)
    assert error["code"] == "seed_secret"
    assert "secret seed not revealed yet" in error["message"]
    fresh = branch(client, name["name"], at=points[-1], luck="fresh", players=people)
    assert fresh.status_code == 201


def test_a_branch_keeps_the_servers_bound_on_games_per_client(tmp_path):
    app = make_app(tmp_path, GAMES_PER_CLIENT=1)
    (app.config["REPLAYS_DIR"] / "four-players.dmlog").write_bytes(FOUR)
    client = app.test_client()
    try:
        assert branch(client, at=104, luck="same", players=ME_AND_BOTS, pace=5).status_code == 201
        error = error_of(branch(client, at=104, luck="same", players=ME_AND_BOTS), 429)
        assert error["code"] == "too_many_games"
    finally:
        app.extensions["dice_miner"].games.close()
