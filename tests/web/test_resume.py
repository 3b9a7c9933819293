"""Web games outlive the server: seats kept beside each log, games taken up again on start."""

from __future__ import annotations

import json
import os
import stat

import pytest

from core.events.codec import command_to_dict
from core.game import Game
from core.host import Lobby
from core.store import FileStore, Seating, token_hash
from core.store import file as file_store
from core.store.seatfile import SeatsFileError, read_seating, write_seating
from tests.support.web_support import live_game, make_app, wait_until

ANN_AND_BOT = [{"name": "Ann", "bot": None}, {"name": "Brok", "bot": "greedy"}]
TWO_PEOPLE = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]


@pytest.fixture
def apps(tmp_path):
    """Make apps over one data folder (``apps()``, with config overrides); all closed after."""
    made = []

    def make(**overrides):
        app = make_app(tmp_path, **overrides)
        made.append(app)
        return app

    yield make
    for app in made:
        app.extensions["dice_miner"].games.close()


def start(client, players=TWO_PEOPLE, seed=5, **extra) -> dict:
    answer = client.post("/api/games", json={"players": players, "seed": seed, **extra})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def tokens(game: dict) -> dict[int, str]:
    return {s["seat"]: s["token"] for s in game["seats"] if "token" in s}


def move(client, game_id, token, command):
    return client.post(
        f"/api/games/{game_id}/commands", json={"command": command}, headers={"X-Seat-Token": token}
    )


def play_first_legal(client, app, game: dict, times: int = 1) -> None:
    """The person to act plays their first legal command, ``times`` times (bots answering)."""
    live = live_game(app, game["id"])
    keys = tokens(game)
    for _ in range(times):
        assert wait_until(lambda: live.state.to_act() in keys or live.state.is_over)
        if live.state.is_over:
            return
        seat = live.state.to_act()
        answer = move(client, game["id"], keys[seat], command_to_dict(live.table.game.legal()[0]))
        assert answer.status_code == 200, answer.get_json()


def stop(app) -> None:
    """The server goes away (its games closed, the logs and seats files left on disk)."""
    app.extensions["dice_miner"].games.close()


def files_of(tmp_path, game_id: str) -> tuple:
    data = tmp_path / "data"
    return data / f"web-{game_id}.dmlog", data / f"web-{game_id}.seats.json"


# -- the seats file ----------------------------------------------------------------------------


def test_the_seats_file_is_private_holds_token_hashes_and_the_log_holds_none(apps, tmp_path):
    app = apps()
    game = start(app.test_client(), ANN_AND_BOT, pace=0)
    log, seats = files_of(tmp_path, game["id"])
    assert stat.S_IMODE(seats.stat().st_mode) == 0o600
    kept = json.loads(seats.read_text())
    token = tokens(game)[0]
    assert kept["seats"] == [
        {"name": "Ann", "bot": None, "token_hash": token_hash(token)},
        {"name": "Brok (greedy)", "bot": "greedy", "token_hash": None},
    ]
    assert (kept["format"], kept["game"], kept["pace"]) == (2, game["id"], 0.0)
    assert token not in seats.read_text()  # only its hash: a stolen file moves no seat
    assert token.encode() not in log.read_bytes()
    assert sorted(p.name for p in log.parent.iterdir() if "seats" in p.name) == [seats.name]


def test_a_seats_file_of_the_first_format_is_still_read_its_tokens_hashed(tmp_path):
    path = tmp_path / "web-0123456789ab.seats.json"
    token = "t" * 24
    old = {
        "format": 1,
        "game": "0123456789ab",
        "mode": "multi",
        "pace": None,
        "seats": [
            {"name": "Ann", "bot": None, "token": token},
            {"name": "Brok (greedy)", "bot": "greedy", "token": None},
        ],
    }
    path.write_text(json.dumps(old))
    seating = read_seating(path, "0123456789ab")
    assert [s.token_hash for s in seating.seats] == [token_hash(token), None]


def test_the_seats_file_is_private_whatever_the_umask(tmp_path):
    old = os.umask(0)
    try:
        path = tmp_path / "web-000000000000.seats.json"
        write_seating(path, "000000000000", Seating(()))
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_no_link_is_handed_out_when_the_seats_cannot_be_kept(apps, monkeypatch, tmp_path):
    app = apps()

    def full_disk(path, game_id, seating, new=False):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(file_store, "write_seating", full_disk)
    answer = app.test_client().post("/api/games", json={"players": TWO_PEOPLE})
    assert answer.status_code == 503 and "token" not in answer.get_data(as_text=True)
    assert "No space left on device" in answer.get_json()["error"]["message"]
    assert int(answer.headers["Retry-After"]) > 0
    assert app.extensions["dice_miner"].games.all() == []
    # nor is its log left behind, for every later start to name as a game without seats
    left = [p.name for p in (tmp_path / "data").iterdir()]
    assert not [name for name in left if name.endswith((".dmlog", ".json"))], left


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"{not json", "not valid JSON"),
        (b"[]", "not a JSON object"),
        (b"\xff\xfe", "not valid JSON"),
        ({"format": 3}, "format"),
        ({"game": "000000000000"}, "for game"),
        ({"pace": True}, "pace"),
        ({"pace": 11}, "pace"),
        ({"seats": []}, "1 to 4"),
        ({"seats": [7]}, "not an object"),
        ({"seats": [{"name": "Ann", "bot": None, "token_hash": None}]}, "no valid token"),
        ({"seats": [{"name": "Ann", "bot": None, "token_hash": "\ud800" * 64}]}, "no valid token"),
        ({"seats": [{"name": "Ann", "bot": "Genius!", "token_hash": None}]}, "not a bot"),
        ({"seats": [{"name": "Ann", "bot": "greedy", "token_hash": "a" * 64}]}, "has a token"),
        ({"seats": [{"name": "", "bot": "greedy", "token_hash": None}]}, "no name"),
    ],
)
def test_a_malformed_seats_file_says_what_is_wrong(tmp_path, content, fragment):
    path = tmp_path / "web-0123456789ab.seats.json"
    if isinstance(content, dict):
        body = {
            "format": 2,
            "game": "0123456789ab",
            "pace": None,
            "seats": [{"name": "A", "bot": None, "token_hash": "0" * 64}],
        }
        content = json.dumps({**body, **content}).encode()
    path.write_bytes(content)
    with pytest.raises(SeatsFileError, match=fragment):
        read_seating(path, "0123456789ab")


# -- a restart -----------------------------------------------------------------------------------


def test_a_game_is_served_again_after_a_restart_at_the_same_state(apps, tmp_path):
    first = apps()
    client = first.test_client()
    game = start(client, ANN_AND_BOT, pace=0)
    play_first_legal(client, first, game, times=3)
    live = live_game(first, game["id"])
    assert wait_until(lambda: live.state.to_act() == 0)
    state, seq, records = live.state, live.seq, live.events_from(0)
    stop(first)

    again = apps()
    client = again.test_client()
    resumed = live_game(again, game["id"])
    assert resumed is not None and resumed.table.playable
    assert (resumed.state, resumed.seq, resumed.events_from(0)) == (state, seq, records)
    answer = client.get(f"/api/games/{game['id']}")
    summary = answer.get_json()
    assert summary["seq"] == seq and summary["state"] == live.board()
    assert summary["seats"] == [
        {"seat": 0, "name": "Ann", "bot": None, "stand_in": None, "can_undo": True},
        {"seat": 1, "name": "Brok (greedy)", "bot": "greedy", "stand_in": None, "can_undo": False},
    ]
    assert tokens(game)[0] not in answer.get_data(as_text=True)
    assert client.get(f"/games/{game['id']}").status_code == 200
    assert again.extensions["dice_miner"].resumed.resumed == [game["id"]]

    command = command_to_dict(resumed.table.game.legal()[0])
    wrong = move(client, game["id"], "x" * 24, command)
    assert wrong.status_code == 403 and resumed.seq == seq
    answer = move(client, game["id"], tokens(game)[0], command)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["events"][0]["seq"] == seq


def test_the_old_link_can_undo_a_move_made_before_the_restart(apps):
    first = apps()
    client = first.test_client()
    game = start(client, TWO_PEOPLE)
    live = live_game(first, game["id"])
    seat = live.state.to_act()
    before = live.state
    play_first_legal(client, first, game)
    stop(first)

    again = apps()
    answer = move(again.test_client(), game["id"], tokens(game)[seat], {"t": "undo"})
    assert answer.status_code == 200, answer.get_json()
    assert live_game(again, game["id"]).state == before


def test_the_bots_carry_on_after_a_restart(apps, tmp_path):
    first = apps()
    client = first.test_client()
    game = start(client, ANN_AND_BOT, pace=0)
    live = live_game(first, game["id"])
    assert wait_until(lambda: live.state.to_act() == 0)
    stop(first)
    log, _ = files_of(tmp_path, game["id"])
    with Game.open(log) as crashed:  # Ann's moves were logged; the server died before the bot's
        while crashed.to_act() == 0:
            crashed.issue(crashed.legal()[0])
        assert crashed.to_act() == 1
        seq = crashed.seq

    again = apps()
    resumed = live_game(again, game["id"])
    assert wait_until(lambda: resumed.seq > seq and resumed.state.to_act() != 1)
    assert resumed.records[seq]["seat"] == 1


def test_a_finished_game_is_listed_for_watching_but_not_played(apps, tmp_path):
    first = apps()
    client = first.test_client()
    game = start(client, TWO_PEOPLE)
    play_first_legal(client, first, game, times=400)
    live = live_game(first, game["id"])
    assert live.state.is_over
    final, seq = live.state, live.seq
    stop(first)
    log, _ = files_of(tmp_path, game["id"])
    logged = log.read_bytes()

    again = apps()
    client = again.test_client()
    listed = client.get("/api/games").get_json()["games"]
    assert [(g["id"], g["over"]) for g in listed] == [(game["id"], True)]
    assert client.get(f"/games/{game['id']}").status_code == 200
    shown = live_game(again, game["id"])
    assert (shown.state, shown.seq, shown.table.playable) == (final, seq, False)
    assert shown.table.bot_to_act() is None
    for token in tokens(game).values():
        answer = move(client, game["id"], token, {"t": "undo"})
        assert answer.status_code == 422 and answer.get_json()["error"]["code"] == "game_closed"
    assert log.read_bytes() == logged
    with Game.open(log):  # no writer's lock is held on it
        pass
    assert again.extensions["dice_miner"].resumed.finished == [game["id"]]


# -- what cannot be taken up ---------------------------------------------------------------------


def test_bad_files_are_skipped_with_one_line_each_and_a_good_game_still_resumes(
    apps, tmp_path, capsys
):
    first = apps()
    client = first.test_client()
    made = {}
    for case in ("good", "damaged", "locked", "no seats", "bad seats", "wrong names"):
        made[case] = start(client, TWO_PEOPLE)
        play_first_legal(client, first, made[case], times=2)
    stop(first)
    path = {case: files_of(tmp_path, game["id"]) for case, game in made.items()}
    log = path["damaged"][0]
    data = bytearray(log.read_bytes())
    data[len(data) // 2] ^= 0x01
    log.write_bytes(bytes(data))
    path["no seats"][1].unlink()
    path["bad seats"][1].write_bytes(b'{"format": 1, "seats": ')
    kept = json.loads(path["wrong names"][1].read_text())
    kept["seats"][1]["name"] = "Eve"
    path["wrong names"][1].write_text(json.dumps(kept))
    orphan = tmp_path / "data" / "web-ffffffffffff.seats.json"
    orphan.write_text("{}")
    capsys.readouterr()

    data_dir = tmp_path / "data"
    before = {p.name: p.read_bytes() for p in data_dir.iterdir()}
    with Game.open(path["locked"][0]):  # another writer holds it
        again = apps()
    err = capsys.readouterr().err.splitlines()
    after = {p.name: p.read_bytes() for p in data_dir.iterdir()}
    assert after == before  # nothing skipped was touched

    assert [g["id"] for g in again.test_client().get("/api/games").get_json()["games"]] == [
        made["good"]["id"]
    ]
    expected = {
        "damaged": (path["damaged"][0], "damaged at byte"),
        "locked": (path["locked"][0], "the log is being written by another"),
        "no seats": (path["no seats"][0], "it has no seating (who plays each seat) beside it"),
        "bad seats": (path["bad seats"][0], "its seating is malformed: it is not valid JSON"),
        "wrong names": (path["wrong names"][0], "are not the log's players"),
    }
    assert len(err) == len(expected), err
    for case, (file, fragment) in expected.items():
        lines = [line for line in err if line.startswith(f"{file}: not resumed: ")]
        assert len(lines) == 1 and fragment in lines[0], (case, err)
    assert orphan.read_text() == "{}"  # a seats file with no log (a crash mid-create) is left
    report = again.extensions["dice_miner"].resumed
    assert report.resumed == [made["good"]["id"]] and len(report.skipped) == len(expected)
    good = live_game(again, made["good"]["id"])
    seat = good.state.to_act()
    command = command_to_dict(good.table.game.legal()[0])
    answer = move(again.test_client(), good.id, tokens(made["good"])[seat], command)
    assert answer.status_code == 200


def test_the_games_played_last_win_when_they_do_not_all_fit(apps, tmp_path, capsys):
    first = apps()
    client = first.test_client()
    made = [start(client, TWO_PEOPLE, seed=n) for n in range(3)]
    finished = start(client, TWO_PEOPLE)
    play_first_legal(client, first, finished, times=400)
    stop(first)
    for age, game in zip((300, 100, 200, 50), [*made, finished], strict=True):
        os.utime(files_of(tmp_path, game["id"])[0], ns=(age * 10**9, age * 10**9))
    capsys.readouterr()

    again = apps(MAX_GAMES=2)
    listed = [g["id"] for g in again.test_client().get("/api/games").get_json()["games"]]
    assert listed == [made[2]["id"], made[0]["id"]]  # least recently played first
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"{files_of(tmp_path, made[1]['id'])[0]}: not resumed: "
        "the server's limit of 2 games is reached",
        f"file:{tmp_path / 'data'}: not resumed: 1 finished game(s) not listed "
        "(the limit of 2 games is reached); they stay in the store",
    ]


def test_finished_games_fill_the_room_left_and_make_room_for_new_ones(apps, tmp_path):
    first = apps()
    client = first.test_client()
    playing = start(client, TWO_PEOPLE)
    done = start(client, TWO_PEOPLE)
    play_first_legal(client, first, done, times=400)
    stop(first)

    again = apps(MAX_GAMES=2)
    client = again.test_client()
    assert {g["id"] for g in client.get("/api/games").get_json()["games"]} == {
        playing["id"],
        done["id"],
    }
    fresh = start(client, TWO_PEOPLE)  # the finished one makes room
    listed = {g["id"] for g in client.get("/api/games").get_json()["games"]}
    assert listed == {playing["id"], fresh["id"]}


def test_an_empty_or_missing_data_folder_resumes_nothing(tmp_path):
    lobby = Lobby(FileStore(tmp_path / "nowhere", prefix="web-"))
    report = lobby.take_up()
    assert (report.resumed, report.finished, report.skipped) == ([], [], [])
    assert not (tmp_path / "nowhere").exists()
    lobby.close()


def test_resuming_can_be_turned_off(apps):
    first = apps()
    start(first.test_client())
    stop(first)
    assert apps(RESUME_GAMES=False).extensions["dice_miner"].games.all() == []


def test_a_torn_last_record_is_set_aside_and_the_game_resumed_saying_so(apps, tmp_path, capsys):
    """It was skipped until someone ran ``log repair`` by hand; now take-up does what
    repair does (the torn bytes kept beside the log) and says so in one line."""
    first = apps()
    game = start(first.test_client(), TWO_PEOPLE)
    play_first_legal(first.test_client(), first, game, times=2)
    stop(first)
    log, _ = files_of(tmp_path, game["id"])
    torn = log.read_bytes()[:-3]  # a crash in the middle of the last append
    log.write_bytes(torn)
    capsys.readouterr()

    again = apps()
    assert [live.id for live in again.extensions["dice_miner"].games.all()] == [game["id"]]
    [line] = [x for x in capsys.readouterr().err.splitlines() if "torn" in x]
    assert line.startswith(f"{log}: its final record was torn") and ".torn-" in line
    side = next(log.parent.glob(f"{log.name}.torn-*"))
    assert log.read_bytes() + side.read_bytes() == torn


def test_a_game_with_an_undo_in_its_log_is_recorded_after_a_restart_as_it_was_live(apps):
    """The records after an undo are folded on the state the undo went back to: here an
    undo takes back a round's scoring, so every total after it depends on that state."""
    first = apps()
    client = first.test_client()
    game = start(client, TWO_PEOPLE)
    live = live_game(first, game["id"])
    while not live.state.round_scores[0]:  # to the end of round 1, the scoring included
        mover = live.state.to_act()
        play_first_legal(client, first, game)
    assert move(client, game["id"], tokens(game)[mover], {"t": "undo"}).status_code == 200
    assert not live.state.round_scores[0]  # the scoring was taken back
    while not live.state.round_scores[0]:  # and played again
        play_first_legal(client, first, game)
    play_first_legal(client, first, game, times=2)
    records, totals, chart = live.events_from(0), list(live.totals), live.scores.data()
    stop(first)

    resumed = live_game(apps(), game["id"])
    assert resumed.events_from(0) == records
    assert resumed.totals == totals
    assert resumed.scores.data() == chart
