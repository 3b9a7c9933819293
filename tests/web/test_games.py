"""Live games through Flask's test client: starting, seat tokens, commands, undo, bots, errors."""

from __future__ import annotations

import json

import pytest

from core.bots import BOTS
from core.commands import ChooseHero, EndMagicTurn, SpendMagic, TakeDie
from core.events.codec import command_to_dict
from core.game import Game
from core.mountain import covering
from core.projections.state import EXCAVATION, MAGIC, REPLENISH
from core.rules.legal import legal_commands
from tests.support.web_support import live_game, make_app, wait_until

TWO_PEOPLE = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]


def start(client, players=TWO_PEOPLE, **extra) -> dict:
    answer = client.post("/api/games", json={"players": players, "seed": 5, **extra})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def tokens(game: dict) -> dict[int, str]:
    return {s["seat"]: s["token"] for s in game["seats"] if "token" in s}


def move(client, game_id, key, command, **body):
    headers = {"X-Seat-Token": key} if key is not None else {}
    payload = {"command": command, **body} if command is not None else body
    return client.post(f"/api/games/{game_id}/commands", json=payload, headers=headers)


def error_of(response, status: int) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    return response.get_json()["error"]


def play_as_people(client, app, game: dict, until) -> None:
    """Issue the first legal command of whoever is to act (through the API) until ``until``."""
    live = live_game(app, game["id"])
    keys = tokens(game)
    for _ in range(400):
        if until(live.state):
            return
        command = next(legal_commands(live.state))
        answer = move(client, game["id"], keys[live.state.to_act()], command_to_dict(command))
        assert answer.status_code == 200, answer.get_json()
    raise AssertionError("the game never got there")


# -- starting ------------------------------------------------------------------------------


def test_a_new_game_gives_each_person_a_secret_link_and_bots_none(client):
    game = start(client, [{"name": "Ann", "bot": None}, {"name": "Brok", "bot": "greedy"}])
    people = [s for s in game["seats"] if s["bot"] is None]
    assert len(people) == 1 and len(people[0]["token"]) >= 20
    assert people[0]["link"] == f"/games/{game['id']}#seat=0&token={people[0]['token']}"
    assert game["seats"][1]["name"] == "Brok (greedy)" and "token" not in game["seats"][1]
    for path in ("/api/games", f"/api/games/{game['id']}", f"/api/games/{game['id']}/state"):
        assert people[0]["token"] not in client.get(path).get_data(as_text=True)


def test_a_bot_may_be_asked_for_by_its_level(client):
    """The form and the terminal name bots by strength: the API takes those names too."""
    body = {"players": [{"name": "Ada"}, {"name": "Brok", "bot": "medium"}], "seed": 3}
    game = client.post("/api/games", json=body).get_json()
    assert [(s["name"], s["bot"]) for s in game["seats"]] == [
        ("Ada", None),
        ("Brok (greedy)", "greedy"),
    ]


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"players": "Ann"}, "list of 1 to 4"),
        ({"players": [{"name": f"P{i}", "bot": None} for i in range(5)]}, "list of 1 to 4"),
        ({"players": [{"name": "A", "bot": None}, {"name": "B", "bot": "genius"}]}, "unknown bot"),
        ({"players": [{"name": "A\x07", "bot": None}, {"name": "B", "bot": None}]}, "one line"),
        ({"players": [{"name": "A" * 40, "bot": None}, {"name": "B", "bot": None}]}, "printable"),
        ({"players": [{"name": "A", "bot": None}, {"name": "A", "bot": None}]}, "of its own"),
        ({"players": [{"name": "A", "bot": None}]}, "2 to 4"),
        ({"players": TWO_PEOPLE, "mode": "solo"}, "one seat"),
        ({"players": TWO_PEOPLE, "mode": "chess"}, "mode"),
        ({"players": TWO_PEOPLE, "seed": -1}, "seed"),
        ({"players": TWO_PEOPLE, "seed": "x"}, "seed"),
        ({"players": TWO_PEOPLE, "pace": 99}, "pace"),
        ({"players": ["Ann", "Bo"]}, "object"),
    ],
)
def test_bad_setups_are_400s_with_a_reason(client, body, fragment):
    error = error_of(client.post("/api/games", json=body), 400)
    finer = {"of its own": "name_taken", "one line": "bad_name"}  # names have codes of their own
    assert error["code"] == finer.get(fragment, "bad_setup") and fragment in error["message"]


@pytest.mark.parametrize("data", [b"{players:", b"[1, 2]", b"", b"\xff\xfe"])
def test_malformed_json_is_a_400(client, data):
    answer = client.post("/api/games", data=data, content_type="application/json")
    assert error_of(answer, 400)["code"] == "bad_json"


def test_unknown_games_are_404s_everywhere(client):
    for path in ("", "/events", "/state", "/choices", "/stream"):
        assert error_of(client.get(f"/api/games/nope{path}"), 404)["code"] == "unknown_game"
    assert error_of(move(client, "nope", "t", {"t": "end"}), 404)["code"] == "unknown_game"
    assert client.get("/games/nope").status_code == 404


# -- who may move ----------------------------------------------------------------------------


def test_a_move_without_the_seats_token_is_forbidden(client, app):
    game = start(client)
    seat = live_game(app, game["id"]).state.to_act()
    command = {"t": "hero", "hero": "Engineer"}
    assert error_of(move(client, game["id"], None, command), 403)["code"] == "forbidden"
    assert error_of(move(client, game["id"], "guess", command), 403)["code"] == "forbidden"
    other = tokens(game)[1 - seat]
    error = error_of(move(client, game["id"], other, {**command, "seat": seat}), 403)
    assert error["code"] == "not_your_seat"
    error = error_of(move(client, game["id"], other, command), 422)  # its own seat, not its turn
    assert error["code"] == "not_your_turn"
    assert live_game(app, game["id"]).seq == game["seq"]  # nothing happened
    good = move(client, game["id"], tokens(game)[seat], command)
    assert good.status_code == 200
    assert good.get_json()["events"][0]["type"] == "HeroChosen"


def test_the_token_can_come_in_the_body(client, app):
    game = start(client)
    seat = live_game(app, game["id"]).state.to_act()
    answer = move(
        client, game["id"], None, {"t": "hero", "hero": "Alchemist"}, token=tokens(game)[seat]
    )
    assert answer.status_code == 200


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"command": {"t": "teleport"}}, "bad_command"),
        ({"command": {"t": "take", "die": "seventeen"}}, "bad_command"),
        ({"command": "take 3"}, "bad_command"),
        ({"command": {"t": "new", "players": ["x"], "seed": 1}}, "bad_command"),
        ({"text": "dance"}, "bad_command"),
        ({"text": "take"}, "bad_command"),
        ({}, "bad_command"),
    ],
)
def test_commands_that_are_not_commands_are_400s(client, app, body, code):
    game = start(client)
    seat = live_game(app, game["id"]).state.to_act()
    answer = client.post(
        f"/api/games/{game['id']}/commands", json=body, headers={"X-Seat-Token": tokens(game)[seat]}
    )
    assert error_of(answer, 400)["code"] == code


def test_a_typed_beer_names_its_player_as_the_page_does(client, app):
    # the page numbers no seat: "beer 3 to Brok" once failed as "the seat must be a number"
    game = start(client, [{"name": "Ann", "bot": None}, {"name": "Brok", "bot": None}])
    play_as_people(client, app, game, lambda s: s.phase == EXCAVATION)
    live = live_game(app, game["id"])
    seat = live.state.to_act()
    other = live.state.names[1 - seat]
    key = tokens(game)[seat]
    answer = move(client, game["id"], key, None, text=f"beer 3 to {other.lower()}")
    # parsed: the rules, not the parser, answer
    assert error_of(answer, 422)["code"] in ("not_your_die", "not_a_beer")
    answer = move(client, game["id"], key, None, text="beer 3 to Nobody")
    assert "no player is called 'Nobody'; name one of Ann, Brok" in error_of(answer, 400)["message"]
    answer = move(client, game["id"], key, None, text="dig 3")  # no command: this game's verbs
    message = error_of(answer, 400)["message"]
    assert message.endswith("try one of: beer, cache, end, hero, spend, take, undo"), message


def test_an_illegal_move_gets_the_rules_code_and_message_and_changes_nothing(client, app):
    game = start(client)
    play_as_people(client, app, game, lambda s: s.phase == EXCAVATION)
    live = live_game(app, game["id"])
    state, seq = live.state, live.seq
    covered = next(
        state.mountain[k]
        for k in range(len(state.mountain))
        if len(covering(state.mountain, k)) == 2
    )
    token = tokens(game)[state.to_act()]
    error = error_of(move(client, game["id"], token, {"t": "take", "die": covered}), 422)
    assert error["code"] == "die_covered" and f"die {covered}" in error["message"]
    error = error_of(move(client, game["id"], token, None, text="end"), 422)
    assert error["code"] and error["message"]
    assert live.seq == seq and live.state == state


def test_typed_commands_are_the_terminals(client, app):
    game = start(client)
    live = live_game(app, game["id"])
    seat = live.state.to_act()
    answer = move(client, game["id"], tokens(game)[seat], None, text="hero Prospector")
    assert answer.status_code == 200
    assert live.state.heroes[seat] == "Prospector"


# -- choices ----------------------------------------------------------------------------------


def test_choices_offer_exactly_the_legal_commands_of_the_phase(client, app):
    game = start(client)
    live = live_game(app, game["id"])
    choices = client.get(f"/api/games/{game['id']}/choices").get_json()
    assert choices["turn"] and choices["seat"] == live.state.to_act()
    assert {h["hero"] for h in choices["heroes"]} == {
        c.hero for c in legal_commands(live.state) if isinstance(c, ChooseHero)
    }
    play_as_people(client, app, game, lambda s: s.phase == EXCAVATION)
    choices = client.get(f"/api/games/{game['id']}/choices").get_json()
    takes = {c.die for c in legal_commands(live.state) if isinstance(c, TakeDie)}
    assert {int(d) for d in choices["take"]} == takes
    option = choices["take"][str(min(takes))][0]
    assert (
        move(client, game["id"], tokens(game)[choices["seat"]], option["command"]).status_code
        == 200
    )
    play_as_people(client, app, game, lambda s: s.phase == MAGIC)
    choices = client.get(f"/api/games/{game['id']}/choices").get_json()
    assert choices["end"]["command"] == command_to_dict(EndMagicTurn(choices["seat"]))
    spends = [c for c in legal_commands(live.state) if isinstance(c, SpendMagic)]
    assert {(s["die"], s["hero_face"]) for s in choices["spend"]} == {
        (c.die, c.hero_face) for c in spends
    }
    play_as_people(client, app, game, lambda s: s.phase == REPLENISH)
    choices = client.get(f"/api/games/{game['id']}/choices").get_json()
    assert sorted(choices["cache"]["dice"]) == sorted(live.state.troves[choices["seat"]])
    assert choices["cache"]["capacity"] >= 0


def test_a_solo_game_is_played_through_the_same_api(client, app):
    game = start(client, [{"name": "Sol", "bot": None}], mode="solo")
    live = live_game(app, game["id"])
    choices = client.get(f"/api/games/{game['id']}/choices").get_json()
    assert choices["phase"] == "solo" and "stop" in choices
    legal = list(legal_commands(live.state))
    assert {int(d) for d in choices["take"]} == {c.die for c in legal if isinstance(c, TakeDie)}
    spends = [c for c in legal if isinstance(c, SpendMagic)]
    assert {s["die"] for s in choices["spend"]} == {c.die for c in spends}
    for source in choices["spend"]:
        mine = [c for c in spends if c.die == source["die"]]
        assert set(source["eligible"]) == {d for c in mine for d in c.targets}
        assert {len(c.targets) for c in mine} == {source["needed"]}
    answer = move(client, game["id"], tokens(game)[0], choices["stop"]["command"])
    assert answer.status_code == 200
    state = answer.get_json()["state"]
    assert state["phase"] == "over" and "solo_score" in state["table"]


def test_a_person_named_you_is_spoken_to_in_the_event_list(client):
    game = start(client, [{"name": "You", "bot": None}], mode="solo")
    assert move(client, game["id"], tokens(game)[0], None, text="stop").status_code == 200
    texts = [r["text"] for r in client.get(f"/api/games/{game['id']}/events").get_json()["events"]]
    assert any(t.startswith("You start with ") for t in texts), texts
    assert not any("You starts" in t or "You takes" in t for t in texts)
    assert texts[-1].startswith("You ")  # the game's end, said to them too


# -- undo -------------------------------------------------------------------------------------


def test_undo_never_takes_back_what_the_dice_have_shown(client, app):
    """A hero chosen, the bot's hero, then the round's mountain rolled: undoing would
    show another mountain, so it is refused, saying why (a practice game would allow it)."""
    game = start(client, [{"name": "Ann", "bot": None}, {"name": "Brok", "bot": "greedy"}])
    live = live_game(app, game["id"])
    token = tokens(game)[0]
    assert wait_until(lambda: live.state.to_act() == 0)
    hero = next(c for c in legal_commands(live.state) if isinstance(c, ChooseHero))
    assert move(client, game["id"], token, command_to_dict(hero)).status_code == 200
    assert wait_until(lambda: live.state.to_act() == 0 and live.state.phase == EXCAVATION)
    before = live.seq
    assert not client.get(f"/api/games/{game['id']}/choices").get_json()["can_undo"][0]
    error = error_of(move(client, game["id"], token, {"t": "undo"}), 422)
    assert error["code"] == "dice_shown" and "practice game" in error["message"]
    assert live.seq == before


def test_a_practice_game_between_people_is_refused(client):
    answer = client.post("/api/games", json={"players": TWO_PEOPLE, "practice": True})
    assert answer.status_code == 400 and "one person" in answer.get_json()["error"]["message"]


def test_undo_takes_back_your_move_with_the_bots_replies(client, app):
    """In a practice game (one person against bots, and its log says so) even the dice."""
    players = [{"name": "Ann", "bot": None}, {"name": "Brok", "bot": "greedy"}]
    game = start(client, players, practice=True)
    assert game["practice"] == "Ann"
    live = live_game(app, game["id"])
    token = tokens(game)[0]

    def my_turn():
        return live.state.to_act() == 0

    assert wait_until(my_turn)
    before = live.state
    hero = next(c for c in legal_commands(before) if isinstance(c, ChooseHero))
    assert move(client, game["id"], token, command_to_dict(hero)).status_code == 200
    assert wait_until(lambda: my_turn() and live.state.phase == EXCAVATION)
    answer = move(client, game["id"], token, {"t": "undo"})
    assert answer.status_code == 200
    assert live.state == before
    assert any(e["type"] == "CommandUndone" for e in answer.get_json()["events"])
    undone = [e for e in live.events_from(0) if e["undone"]]
    assert undone and undone[0]["type"] == "HeroChosen"
    # each undo's record lists the events it struck, so the page works none of it out
    undos = [e for e in answer.get_json()["events"] if e["type"] == "CommandUndone"]
    assert sorted(s for e in undos for s in e["undoes"]) == [e["seq"] for e in undone]


def test_undo_is_refused_once_another_person_has_moved(client, app):
    game = start(client)
    live = live_game(app, game["id"])
    keys = tokens(game)
    assert (
        error_of(move(client, game["id"], keys[live.state.to_act()], {"t": "undo"}), 422)["code"]
        == "nothing_to_undo"
    )
    play_as_people(client, app, game, lambda s: s.phase == EXCAVATION)
    moves = []
    for _ in range(2):  # one move each: the excavation alternates seats
        seat = live.state.to_act()
        command = command_to_dict(next(legal_commands(live.state)))
        assert move(client, game["id"], keys[seat], command).status_code == 200
        moves.append(seat)
    first, second = moves
    assert first != second
    error = error_of(move(client, game["id"], keys[first], None, text="undo"), 422)
    assert error["code"] == "undo_blocked"
    seq = live.seq
    assert move(client, game["id"], keys[second], None, text="undo").status_code == 200
    assert live.seq == seq + 1 and live.state.to_act() == second


# -- bots, the log, and reading back -----------------------------------------------------------


def test_bots_play_a_whole_game_into_a_log_that_replays_to_the_same_state(client, app):
    players = [{"name": None, "bot": "greedy"}, {"name": None, "bot": "random"}]
    game = start(client, players)
    live = live_game(app, game["id"])
    assert wait_until(lambda: live.state.is_over, timeout=30)
    log = app.config["DATA_DIR"] / f"web-{game['id']}.dmlog"
    assert Game.load(log).state == live.state
    listed = client.get("/api/games").get_json()["games"]
    assert [g["id"] for g in listed] == [game["id"]] and listed[0]["over"]
    events = client.get(f"/api/games/{game['id']}/events?from=3&limit=4").get_json()
    assert [e["seq"] for e in events["events"]] == [3, 4, 5, 6]
    state = client.get(f"/api/games/{game['id']}/state?at=10").get_json()
    assert state["seq"] == 10
    assert error_of(client.get(f"/api/games/{game['id']}/state?at=0"), 400)["code"] == (
        "bad_argument"
    )
    summary = client.get(f"/api/games/{game['id']}").get_json()
    assert len(summary["events"]) == live.seq
    assert summary["scores"]["points"][-1][1] == list(live.state.totals())


def test_the_oldest_finished_game_makes_room_when_the_server_is_full(tmp_path):
    app = make_app(tmp_path, MAX_GAMES=1)
    client = app.test_client()
    bots = [{"name": None, "bot": "random"}, {"name": None, "bot": "random"}]
    first = start(client, bots)
    assert wait_until(lambda: live_game(app, first["id"]).state.is_over, timeout=30)
    second = start(client, TWO_PEOPLE)
    listed = [g["id"] for g in client.get("/api/games").get_json()["games"]]
    assert listed == [second["id"]]  # the finished game made room
    watched = client.get(f"/api/games/{first['id']}").get_json()  # and is still watched
    assert watched["over"] and not watched["playable"]
    answer = client.post("/api/games", json={"players": TWO_PEOPLE})
    assert "already runs 1 games" in error_of(answer, 503)["message"]
    assert int(answer.headers["Retry-After"]) > 0
    app.extensions["dice_miner"].games.close()
    assert json.dumps(second)  # the surviving game's answer stayed serializable


def test_the_bot_kinds_are_the_registrys(client):
    assert client.get("/api/bots").get_json()["bots"] == sorted(BOTS)


def test_a_view_made_while_another_process_has_moved_keeps_each_event_once():
    """The store may already hold a move this process has not folded yet (another server
    made it): a view's records stop where its table stands, and the table's catching up
    tells the move once. A spectator saw event 8 twice when the view read it early."""
    from core.host import Table
    from core.store import MemoryStore, Seating, SeatRecord
    from frontends.web.games import LiveGame

    store = MemoryStore()
    names = ["Ann (greedy)", "Brok (greedy)"]
    seating = Seating((SeatRecord(names[0], "greedy"), SeatRecord(names[1], "greedy")))
    here = Table(Game.new(names, 8, store=store, seating=seating), seating)
    elsewhere = Table(Game.resume(store, here.id), seating)  # the other server's table
    assert elsewhere.play_bot()  # its move is in the store; this process has not folded it
    view = LiveGame(here)
    assert [r["seq"] for r in view.records] == list(range(here.seq))
    here.refresh()
    assert [r["seq"] for r in view.records] == list(range(elsewhere.seq))


def test_fishing_for_luck_with_undo_is_refused(client, app):
    """Spend magic, read the reroll, undo to try another die: refused, nothing changes
    (one look at a position's dice would tell what any die rolls there)."""
    game = start(client)
    live = live_game(app, game["id"])
    keys = tokens(game)

    def can_spend(state) -> bool:
        return state.phase == MAGIC and any(
            isinstance(c, SpendMagic) for c in legal_commands(state)
        )

    play_as_people(client, app, game, can_spend)
    seat = live.state.to_act()
    spend = next(c for c in legal_commands(live.state) if isinstance(c, SpendMagic))
    assert move(client, game["id"], keys[seat], command_to_dict(spend)).status_code == 200
    seen = live.seq
    error = error_of(move(client, game["id"], keys[seat], {"t": "undo"}), 422)
    assert error["code"] == "dice_shown" and "never taken back" in error["message"]
    assert live.seq == seen
    assert client.get(f"/api/games/{game['id']}/choices").get_json()["can_undo"] == [False] * 2
