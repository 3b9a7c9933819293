"""Idle games cannot take a server: quiet seats go to bots, idle games close, each client
holds a bounded number, and a game whose store fails stops saying why."""

from __future__ import annotations

import time

import pytest

from core.game import Game
from core.host import Lobby, LobbyFull, TooManyGames
from core.modes.table import events as tev
from core.store import FileStore, MemoryStore
from core.store import file as file_store

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


def test_a_game_no_person_moved_in_is_closed_saying_why_and_frees_its_place():
    lobby = Lobby(MemoryStore(), limit=1, idle_close=3600, pace=0.0)
    table, _ = lobby.create(ANN_AND_BOT)
    with pytest.raises(LobbyFull):
        lobby.create(ANN_AND_BOT)
    assert lobby.sweep(now=time.time() + 3599) == []
    done = lobby.sweep(now=time.time() + 3601)
    assert done == [f"{table.id}: closed after 60 minutes with no move"]
    assert table.state.is_over and table.state.winners == ()
    [closed] = events_of(table, tev.GameClosed)
    assert "no one moved for 60 minutes" in closed.reason
    assert table.state.facts.revealed  # ended: the secret seed is out
    lobby.create(ANN_AND_BOT)  # the closed game made room
    lobby.close()


def test_a_person_moving_keeps_the_game_open():
    lobby = Lobby(MemoryStore(), idle_close=3600, pace=0.0)
    table, _ = lobby.create(ANN_AND_BOT)
    assert wait_until(lambda: table.person_to_act() == 0)
    later = time.time() + 3000
    table.issue(0, table.game.legal()[0])
    table.person_moved = later  # as if Ann had moved at that time
    assert lobby.sweep(now=later + 3599) == []
    assert not table.state.is_over
    lobby.close()


def test_a_quiet_persons_seat_is_played_by_a_bot_and_given_back_when_they_move():
    lobby = Lobby(MemoryStore(), quiet_seat=600, pace=0.0)
    table, tokens = lobby.create(ANN_AND_BO, seed=5)
    quiet = table.person_to_act()
    assert quiet is not None
    assert lobby.sweep(now=time.time() + 599) == []
    done = lobby.sweep(now=time.time() + 601)
    assert done == [f"{table.id}: seat {quiet} handed to a bot"]
    [handed] = events_of(table, tev.SeatHandedToBot)
    name = table.seats[quiet].name
    assert (handed.seat, handed.bot) == (quiet, "greedy")
    assert handed.reason == f"{name} has not moved for 10 minutes"
    assert not table.is_person(quiet) and table.is_handed(quiet)
    handed_at = table.seq
    played = lambda: any(  # noqa: E731
        getattr(b.command, "seat", None) == quiet for b in table.game.batches(handed_at)
    )
    assert wait_until(played)  # a bot played the quiet seat's turn, so the others go on
    assert table.seat_for(tokens[quiet]) == quiet  # the person still holds the link
    lobby.close()


def test_the_person_back_takes_the_seat_again_by_moving():
    lobby = Lobby(MemoryStore(), quiet_seat=600, pace=0.0, runner=None)
    lobby.runner.close()  # no bot plays, so the seat is still to move
    table, _ = lobby.create(ANN_AND_BO, seed=5)
    quiet = table.person_to_act()
    lobby.sweep(now=time.time() + 601)
    assert table.is_handed(quiet)
    commits = table.issue(quiet, table.game.legal()[0])
    assert [type(e) for e in commits[0].events] == [tev.SeatReturned]
    assert table.is_person(quiet) and not table.is_handed(quiet)
    lobby.close()


def test_a_lone_person_is_not_replaced_by_a_bot():
    """With nobody else to play with, a quiet seat is left for the idle close."""
    lobby = Lobby(MemoryStore(), quiet_seat=600, pace=0.0)
    table, _ = lobby.create(ANN_AND_BOT)
    assert wait_until(lambda: table.person_to_act() == 0)
    assert lobby.sweep(now=time.time() + 10_000) == []
    lobby.close()


def test_one_client_holds_a_bounded_number_of_unfinished_games():
    lobby = Lobby(MemoryStore(), per_client=2)
    lobby.create(ANN_AND_BO, client="10.0.0.1")
    lobby.create(ANN_AND_BO, client="10.0.0.1")
    with pytest.raises(TooManyGames, match="at most 2"):
        lobby.create(ANN_AND_BO, client="10.0.0.1")
    lobby.create(ANN_AND_BO, client="10.0.0.2")  # another client is not held back
    lobby.close()


def test_a_store_that_fails_an_append_stops_the_table_saying_why(tmp_path, monkeypatch):
    lobby = Lobby(FileStore(tmp_path, prefix="web-"), pace=0.0)
    table, _ = lobby.create(ANN_AND_BO, seed=3)
    seat = table.person_to_act()

    def full(fd, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("core.log.file._write_all", full)
    from core.errors import StoreUnavailable

    with pytest.raises(StoreUnavailable, match="No space left"):
        table.issue(seat, table.game.legal()[0])
    assert table.stopped and "No space left" in table.stopped
    assert table.bot_to_act() is None
    with pytest.raises(StoreUnavailable, match="stopped"):
        table.issue(seat, table.game.legal()[0])
    monkeypatch.undo()
    lobby.close()
    again = Game.load(tmp_path / f"web-{table.id}.dmlog", drop_torn=True)
    assert again.seq >= 1  # nothing acknowledged was lost
    assert file_store  # the module the fault was injected under
