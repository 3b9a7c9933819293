"""What the game page and the viewer are sent, so that they work nothing out of the events:
beside each record, the last-move ``marks`` of the board after it; the chart's series and the
dice's origin with a command's answer (which brings the choices after it too; the stream's
bursts are tests/web/test_stream.py's); the round's score so far added up on the board."""

from __future__ import annotations

import json

import pytest

from core.events.codec import command_to_dict
from frontends.web.lastmove import FOLLOW_ON, LastMove, move_marks
from frontends.web.readmodel import unpack_boards
from tests.support.web_support import live_game, wait_until

BOTS = [{"name": None, "bot": "random"}, {"name": None, "bot": "random"}]


@pytest.fixture
def replays():
    return ("four-players.dmlog", "four-players-undo.dmlog", "solo.dmlog")


def records_of(client, path: str) -> list[dict]:
    """The records of ``path``'s events, page by page, each with its ``marks`` put on it."""
    records: list[dict] = []
    while True:
        page = client.get(f"{path}/events?from={len(records)}&limit=50").get_json()
        assert len(page["marks"]) == len(page["events"])
        records += [{**r, "marks": m} for r, m in zip(page["events"], page["marks"], strict=True)]
        if not page["events"] or len(records) >= page["total"]:
            return records


def as_json(value):
    return json.loads(json.dumps(value))


def rec(seq, kind, player="Ann", **fields):
    return {"seq": seq, "type": kind, "player": player, **fields}


# -- the last move's marks ----------------------------------------------------------------------


def test_a_move_marks_the_dice_it_touched_the_slots_they_left_and_a_hero_face():
    assert move_marks(rec(3, "DieTaken", die=17, row=2, col=1)) == {
        "dice": [17],
        "left": [[2, 1]],
        "hero_faces": [],
    }
    spent = rec(4, "MagicSpent", seat=1, die=None, hero_face=0, rolls=[[3, "1"], [7, "gem2"]])
    assert move_marks(spent) == {"dice": [3, 7], "left": [], "hero_faces": [[1, 0]]}
    rerolled_itself = rec(5, "MagicSpent", seat=0, die=52, hero_face=None, rolls=[[52, "2"]])
    assert move_marks(rerolled_itself)["dice"] == [52]  # once, as a set has it
    recycled = rec(6, "SoloMagicSpent", die=9, recycled=[[4, 3, 0], [8, 2, 1]])
    assert move_marks(recycled) == {"dice": [], "left": [[3, 0], [2, 1]], "hero_faces": []}
    assert move_marks(rec(7, "DiceCached", seat=0, dice=[4, 9]))["dice"] == [4, 9]
    assert move_marks(rec(8, "HeroChosen", hero="Alchemist")) is None


def test_the_marks_stay_through_a_moves_follow_on_events_and_go_with_an_undo():
    marks = LastMove()
    taken = marks.after(rec(0, "DieTaken", die=17, row=2, col=1))
    assert taken == {"dice": [17], "left": [[2, 1]], "hero_faces": []}
    follow_on = [marks.after(rec(n, "RoundScored", player=None)) for n in range(1, FOLLOW_ON + 2)]
    assert follow_on[: FOLLOW_ON - 1] == [taken] * (FOLLOW_ON - 1)  # the move and 7 after it
    assert follow_on[FOLLOW_ON - 1 :] == [None, None]  # then too far from it
    assert marks.after(rec(20, "DieTaken", die=5, row=0, col=0)) is not None
    assert marks.after(rec(21, "CommandUndone", player=None)) is None
    assert marks.after(rec(22, "RoundBegan", player=None)) is None  # no move since the undo
    assert marks.after(rec(23, "HeroChosen")) is None  # a move with nothing to mark


def test_every_event_of_a_replay_comes_with_the_marks_of_the_board_after_it(client):
    records = records_of(client, "/api/replays/four-players-undo.dmlog")
    for record in records:
        if record["type"] == "DieTaken":
            assert record["marks"]["dice"] == [record["die"]]
            assert record["marks"]["left"] == [[record["row"], record["col"]]]
        if record["type"] == "CommandUndone":
            assert record["marks"] is None
    assert any(r["type"] == "CommandUndone" for r in records)
    hero = [r for r in records if r["type"] == "MagicSpent" and r["hero_face"] is not None]
    for record in hero:
        assert record["marks"]["hero_faces"] == [[record["seat"], record["hero_face"]]]


def test_a_live_game_sends_the_same_marks_as_its_stored_log_everywhere(client, app):
    game = client.post("/api/games", json={"players": BOTS, "seed": 4}).get_json()
    live = live_game(app, game["id"])
    assert wait_until(lambda: live.state.is_over, timeout=30)
    marks = [r["marks"] for r in records_of(client, f"/api/games/{game['id']}")]
    stored = [r["marks"] for r in records_of(client, f"/api/replays/web-{game['id']}.dmlog")]
    assert marks == stored
    assert sum(m is not None for m in marks) > len(marks) // 2
    assert client.get(f"/api/games/{game['id']}").get_json()["marks"] == marks  # the summary
    # the stream sends them too (tests/web/test_stream.py)


# -- a command's answer (the stream's: tests/web/test_stream.py) --------------------------------


def test_a_commands_answer_carries_the_series_the_dice_and_the_choices(client, app):
    people = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]
    game = client.post("/api/games", json={"players": people, "seed": 9}).get_json()
    live = live_game(app, game["id"])
    seat = live.state.to_act()
    token = next(s["token"] for s in game["seats"] if s["seat"] == seat)
    command = command_to_dict(live.table.game.legal()[0])
    answer = client.post(
        f"/api/games/{game['id']}/commands",
        json={"command": command},
        headers={"X-Seat-Token": token},
    ).get_json()
    assert answer["seq"] == answer["state"]["seq"] == live.seq
    first = answer["events"][0]["seq"]
    assert answer["scores"] == as_json(live.scores.data(after=first))  # its events' points
    assert answer["scores"]["after"] == first
    assert (
        answer["dice"]
        == game["dice"]
        == {"kind": "chosen", "seed": 9, "chosen_by": "the game's creator"}
    )
    assert len(answer["marks"]) == len(answer["events"])
    # and what may be done now, as the choices request answers it: the page asks nothing more
    assert answer["choices"] == client.get(f"/api/games/{game['id']}/choices").get_json()
    assert answer["choices"]["seq"] == answer["seq"]
    assert answer["marks"][0] is None  # a hero chosen: nothing on the board to mark


def test_the_rounds_score_so_far_is_added_up_on_the_board(client):
    boards = client.get("/api/replays/four-players.dmlog/boards").get_json()
    seen = 0
    for board in unpack_boards(boards):
        now, total = board["table"].get("round_now"), board["table"].get("round_now_total")
        assert (now is None) == (total is None)
        if now is None:
            continue
        assert total == [None if parts is None else sum(parts) for parts in now]
        seen += 1
    assert seen > 20
