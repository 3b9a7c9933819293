"""Leaving, the standings and the rematch over the HTTP API: a seat's link leaves (a bot
plays on or the game closes, the client's place is freed), a finished game's standings
hold each category, and a rematch keeps every seat's link."""

from __future__ import annotations

from tests.support.web_support import make_app

TWO_PEOPLE = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]
ANN_AND_BOT = [{"name": "Ann", "bot": None}, {"name": None, "bot": "greedy"}]


def _token(game, seat):
    return {"X-Seat-Token": game["seats"][seat]["token"]}


def test_leaving_frees_the_place_that_a_429_refused(tmp_path):
    app = make_app(tmp_path, GAMES_PER_CLIENT=1)
    client = app.test_client()
    game = client.post("/api/games", json={"players": TWO_PEOPLE}).get_json()
    refused = client.post("/api/games", json={"players": TWO_PEOPLE})
    assert refused.status_code == 429 and "leave one" in refused.get_json()["error"]["message"]
    left = client.post(f"/api/games/{game['id']}/leave", headers=_token(game, 0))
    assert left.status_code == 200
    summary = left.get_json()
    assert summary["left"] == [0] and not summary["over"]
    assert summary["seats"][0]["stand_in"] == "greedy"
    events = client.get(f"/api/games/{game['id']}").get_json()["events"]
    assert events[-1]["type"] == "SeatLeft"
    assert "Ann left the game" in events[-1]["text"]
    assert client.post("/api/games", json={"players": TWO_PEOPLE}).status_code == 201
    again = client.post(f"/api/games/{game['id']}/leave", headers=_token(game, 0))
    assert again.status_code == 422 and again.get_json()["error"]["code"] == "already_left"
    move = client.post(
        f"/api/games/{game['id']}/commands", headers=_token(game, 0), json={"text": "end"}
    )
    assert move.status_code == 422 and move.get_json()["error"]["code"] == "seat_left"
    app.extensions["dice_miner"].games.close()


def test_leaving_needs_a_seats_link(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    game = client.post("/api/games", json={"players": TWO_PEOPLE}).get_json()
    refused = client.post(f"/api/games/{game['id']}/leave", headers={"X-Seat-Token": "nope"})
    assert refused.status_code == 403 and refused.get_json()["error"]["code"] == "forbidden"
    assert client.post("/api/games/nosuch/leave").status_code == 404
    app.extensions["dice_miner"].games.close()


def test_the_last_person_leaving_closes_the_game_and_the_standings_say_so(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    game = client.post("/api/games", json={"players": ANN_AND_BOT}).get_json()
    summary = client.post(f"/api/games/{game['id']}/leave", headers=_token(game, 0)).get_json()
    assert summary["over"] and "Ann left and no other person plays" in summary["closed"]
    standings = client.get(f"/api/games/{game['id']}/standings").get_json()
    assert standings["over"] and standings["closed"] == summary["closed"]
    assert [c[1] for c in standings["columns"]] == ["Tunnels", "Treasure", "Hazards"]
    ann = next(row for row in standings["rows"] if row["name"] == "Ann")
    assert ann["who"] == "left: a greedy bot played on"
    app.extensions["dice_miner"].games.close()


def test_a_rematch_keeps_every_seats_link_and_the_old_game_names_it(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    game = client.post("/api/games", json={"players": TWO_PEOPLE}).get_json()
    early = client.post(f"/api/games/{game['id']}/rematch", headers=_token(game, 1))
    assert early.status_code == 422 and early.get_json()["error"]["code"] == "game_not_over"
    client.post(f"/api/games/{game['id']}/leave", headers=_token(game, 0))
    client.post(f"/api/games/{game['id']}/leave", headers=_token(game, 1))  # closed: over
    made = client.post(f"/api/games/{game['id']}/rematch", headers=_token(game, 1))
    assert made.status_code == 201
    new = made.get_json()
    assert [s["name"] for s in new["seats"]] == ["Ann", "Bo"] and not new["over"]
    assert "token" not in new["seats"][0]  # nothing new is handed out: the old links play
    old = client.get(f"/api/games/{game['id']}").get_json()
    assert old["rematch"] == new["id"] and old["events"][-1]["type"] == "RematchStarted"
    for seat in (0, 1):  # each person's old link plays their seat of the rematch
        choices = client.get(f"/api/games/{new['id']}/choices").get_json()
        if choices["seat"] == seat:
            move = client.post(
                f"/api/games/{new['id']}/commands",
                headers=_token(game, seat),
                json={"text": "nonsense"},
            )
            assert move.status_code == 400  # seen as the seat's (a stranger gets 403)
    stranger = client.post(
        f"/api/games/{new['id']}/commands", headers={"X-Seat-Token": "x"}, json={"text": "end"}
    )
    assert stranger.status_code == 403
    twice = client.post(f"/api/games/{game['id']}/rematch", headers=_token(game, 0))
    assert twice.status_code == 422 and twice.get_json()["error"]["code"] == "rematch_made"
    app.extensions["dice_miner"].games.close()


def test_the_standings_of_a_finished_game_add_up_to_its_totals(tmp_path):
    from tests.support.web_support import record_game

    replays = tmp_path / "replays"
    replays.mkdir(parents=True, exist_ok=True)
    played = record_game(replays / "done.dmlog")
    from frontends.web.standings import standings

    table = standings(played.state)
    totals = played.state.totals()
    assert sorted(row["total"] for row in table["rows"]) == sorted(totals)
    for row in table["rows"]:
        assert sum(row["categories"]) == row["total"] == sum(row["rounds"])
        assert len(row["rounds"]) == table["rounds"] == 3
    winners = [row for row in table["rows"] if row["winner"]]
    assert winners and all(row["place"] == 1 for row in winners)
    assert table["rows"][0]["winner"]


def test_the_first_event_of_a_secret_seed_game_never_names_its_seed_as_the_dices(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    secret = client.post("/api/games", json={"players": TWO_PEOPLE}).get_json()
    first, second = client.get(f"/api/games/{secret['id']}").get_json()["events"][:2]
    assert "which steers the bots only: the dice come from a secret seed" in first["text"]
    assert second["type"] == "DiceCommitted"
    chosen = client.post("/api/games", json={"players": TWO_PEOPLE, "seed": 5}).get_json()
    first = client.get(f"/api/games/{chosen['id']}").get_json()["events"][0]
    assert first["text"] == "A 2-player game began: Ann, Bo (seed 5)"  # that seed rolls them
    solo = client.post("/api/games", json={"players": [{"name": "Sol"}], "mode": "solo"})
    first = client.get(f"/api/games/{solo.get_json()['id']}").get_json()["events"][0]
    assert "which rolls none of the dice: the dice come from a secret seed" in first["text"]
    app.extensions["dice_miner"].games.close()


def test_uploads_are_listed_to_the_client_that_made_them_only(tmp_path):
    from tests.support.web_support import record_game

    app = make_app(tmp_path)
    client = app.test_client()
    log = tmp_path / "mine.dmlog"
    record_game(log, names=("Ann", "Bo"), seed=4, commands=10)
    mine = {"REMOTE_ADDR": "10.0.0.1"}
    made = client.post(
        "/api/replays",
        data=log.read_bytes(),
        headers={"X-Filename": "mine.dmlog"},
        environ_base=mine,
    )
    assert made.status_code == 201
    listed = client.get("/api/replays", environ_base=mine).get_json()["uploads"]
    assert [(u["name"], u["filename"], u["result"]) for u in listed] == [
        (made.get_json()["name"], "mine.dmlog", "unfinished")
    ]
    other = client.get("/api/replays", environ_base={"REMOTE_ADDR": "10.0.0.2"}).get_json()
    assert other["uploads"] == []
    app.extensions["dice_miner"].games.close()
