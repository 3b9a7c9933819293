"""Leaving a game for good and playing it again: a person who leaves hands their seat to a
bot for good (or the game closes with no person left), frees the place they held, and a
finished game's rematch is one new game with the same seats, logged in the old one."""

from __future__ import annotations

import time

import pytest

from core.commands import ReturnSeat
from core.errors import RuleError
from core.game import Game
from core.host import Lobby, TooManyGames
from core.host.idle import STAND_IN
from core.modes.table import events as tev
from core.projections.statehash import state_hash
from core.read.text import describe
from core.store import FileStore, MemoryStore

ANN_AND_BO = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]
ANN_AND_BOT = [{"name": "Ann", "bot": None}, {"name": None, "bot": "greedy"}]


def wait_until(check, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.01)
    return check()


def events_of(table, kind):
    return [e for _, e in table.game.events() if isinstance(e, kind)]


def test_a_person_who_leaves_hands_the_seat_to_a_bot_for_good():
    lobby = Lobby(MemoryStore(), pace=0.0)
    table, _ = lobby.create(ANN_AND_BO)
    lobby.leave(table, 0)
    [left] = events_of(table, tev.SeatLeft)
    assert left == tev.SeatLeft(0, STAND_IN)
    assert (
        describe(table.state, left) == "Ann left the game: a greedy bot plays their seat to the end"
    )
    assert table.bot_kind(0) == STAND_IN and table.people() == (1,)
    assert not table.state.is_over  # Bo plays on against the bot
    with pytest.raises(RuleError) as refused:  # moving again does not take the seat back
        table.issue(0, table.game.legal()[0])
    assert refused.value.code == "seat_left"
    with pytest.raises(RuleError) as again:
        lobby.leave(table, 0)
    assert again.value.code == "already_left"
    lobby.close()


def test_the_last_person_leaving_closes_the_game():
    lobby = Lobby(MemoryStore(), pace=0.0)
    table, _ = lobby.create(ANN_AND_BOT)
    lobby.leave(table, 0)
    assert table.state.is_over and table.state.winners == ()
    [closed] = events_of(table, tev.GameClosed)
    assert closed.reason == "Ann left and no other person plays; its place is freed"
    with pytest.raises(RuleError) as refused:
        lobby.leave(table, 0)
    assert refused.value.code == "game_closed" or refused.value.code == "game_over"
    lobby.close()


def test_a_bot_seat_cannot_be_left():
    lobby = Lobby(MemoryStore(), pace=0.0)
    table, _ = lobby.create(ANN_AND_BOT)
    with pytest.raises(RuleError) as refused:
        lobby.leave(table, 1)
    assert refused.value.code == "not_a_person"
    lobby.close()


def test_leaving_frees_the_place_of_the_client_that_made_the_game():
    lobby = Lobby(MemoryStore(), pace=0.0, per_client=2, idle_close=3600)
    first, _ = lobby.create(ANN_AND_BO, client="1.2.3.4")
    lobby.create(ANN_AND_BO, client="1.2.3.4")
    with pytest.raises(TooManyGames) as refused:
        lobby.create(ANN_AND_BO, client="1.2.3.4")
    assert "leave one" in str(refused.value)
    assert "a game no one moves in closes after 60 minutes" in str(refused.value)
    lobby.leave(first, 0, client="1.2.3.4")
    assert not first.state.is_over  # Bo plays on; Ann's place is free
    lobby.create(ANN_AND_BO, client="1.2.3.4")
    lobby.close()


def test_a_quiet_seat_handed_over_is_not_a_seat_left():
    """The sweep's stand-in keeps the seat for its person; leaving does not."""
    lobby = Lobby(MemoryStore(), pace=0.0)
    table, _ = lobby.create(ANN_AND_BO)
    table.hand_to_bot(1, STAND_IN, "Bo has not moved for 5 minutes")
    assert table.people() == (0, 1)
    lobby.leave(table, 0)  # Bo may still come back: the game goes on
    assert not table.state.is_over
    lobby.close()


def test_a_game_with_no_one_leaving_keeps_its_state_hash():
    """The new facts are written into state hashes only when set (LATER_FIELDS)."""
    lobby = Lobby(MemoryStore(), pace=0.0)
    table, _ = lobby.create(ANN_AND_BO, seed=7)
    before = state_hash(table.state)
    lobby.leave(table, 0)
    assert state_hash(table.state) != before
    lobby.close()


def test_a_rematch_has_the_same_seats_and_settings_and_is_logged_in_the_old_game():
    lobby = Lobby(MemoryStore(), pace=0.0)
    old, tokens = lobby.create(ANN_AND_BOT, pace=0.2)
    with pytest.raises(RuleError) as early:
        lobby.rematch(old)
    assert early.value.code == "game_not_over"
    old.close_game("over for the test")
    new = lobby.rematch(old)
    assert [(r.name, r.bot) for r in new.seats] == [(r.name, r.bot) for r in old.seats]
    assert new.seating.pace == 0.2 and new.state.mode == old.state.mode
    assert new.state.facts.commitment and new.state.facts.commitment != old.state.facts.commitment
    assert new.seat_for(tokens[0]) == 0  # the link that played the seat plays it again
    [made] = events_of(old, tev.RematchStarted)
    assert made.game_id == new.id and old.state.facts.rematch == new.id
    assert describe(old.state, made) == f"A rematch was started with the same seats: game {new.id}"
    with pytest.raises(RuleError) as twice:
        lobby.rematch(old)
    assert twice.value.code == "rematch_made"
    lobby.close()


def test_a_rematch_of_a_finished_game_taken_up_from_its_store(tmp_path):
    store = FileStore(tmp_path)
    lobby = Lobby(store, pace=0.0)
    old, _ = lobby.create(ANN_AND_BOT)
    old.close_game("over for the test")
    lobby.close()
    again = Lobby(FileStore(tmp_path), pace=0.0)
    watched = again.get(old.id)
    assert watched is not None and not watched.playable
    new = again.rematch(watched)
    assert watched.state.facts.rematch == new.id
    with Game.resume(FileStore(tmp_path), old.id) as stored:
        assert stored.state.facts.rematch == new.id
    again.close()


def test_the_rules_give_no_seat_back_to_a_person_who_left():
    lobby = Lobby(MemoryStore(), pace=0.0)
    table, _ = lobby.create(ANN_AND_BO)
    lobby.leave(table, 0)
    with pytest.raises(RuleError) as refused:
        table.game.issue(ReturnSeat(0))
    assert refused.value.code == "seat_left"
    lobby.close()
