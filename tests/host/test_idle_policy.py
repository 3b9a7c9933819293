"""The idle policy on its own: which games are idle and which seats quiet at a given time,
what is due and in which words, decided on real tables with no lobby and no thread."""

from __future__ import annotations

import pytest

from core.bots.registry import BY_NAME as BOTS_BY_NAME
from core.game import Game
from core.host.idle import STAND_IN, CloseIdleGame, HandQuietSeat, IdlePolicy, in_words
from core.host.seats import parse_seats, seating_for
from core.host.table import Table
from core.modes.table import events as tev
from core.store import MemoryStore

T0 = 1_000_000.0  # when the tables below last saw a person move and last changed

ANN_AND_BO = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]
ANN_AND_BOT = [{"name": "Ann", "bot": None}, {"name": None, "bot": "greedy"}]
TWO_BOTS = [{"name": None, "bot": "greedy"}, {"name": None, "bot": "greedy"}]


def table_of(players: list[dict], *, playable: bool = True) -> Table:
    """A table of ``players`` whose bots have played up to a person's turn, quiet since T0."""
    seats = parse_seats(players, BOTS_BY_NAME)
    seating, _ = seating_for(seats)
    game = Game.new([name for name, _ in seats], 5, store=MemoryStore(), seating=seating)
    table = Table(game, seating, playable=playable)
    while playable and table.bot_to_act() is not None and table.persons:
        table.play_bot()
    table.person_moved = table.changed_at = T0
    return table


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (90, "90 seconds"),
        (119.5, "119.5 seconds"),
        (120, "2 minutes"),
        (600, "10 minutes"),
        (3600, "60 minutes"),
        (7199, "119.983 minutes"),
        (7200, "2 hours"),
        (86400, "24 hours"),
    ],
)
def test_a_wait_is_said_in_the_unit_a_person_reads_it_in(seconds, words):
    assert in_words(seconds) == words


@pytest.mark.parametrize(
    ("close_after", "quiet_after", "every"),
    [
        (None, None, None),  # nothing waited for: no sweep
        (3600, None, 5.0),  # never less often than every five seconds
        (None, 1, 0.5),  # never more often than twice a second
        (None, 8, 2.0),  # a quarter of the wait
        (10, 600, 2.5),  # the shorter wait sets it
    ],
)
def test_the_sweep_looks_often_enough_for_the_shorter_wait(close_after, quiet_after, every):
    assert IdlePolicy(close_after, quiet_after).sweep_every() == every


def test_a_game_is_idle_once_no_person_has_moved_for_the_whole_wait():
    policy = IdlePolicy(close_after=3600)
    table = table_of(ANN_AND_BO)
    assert not policy.is_idle(table, T0 + 3599.9)
    assert policy.is_idle(table, T0 + 3600)
    table.changed_at = T0 + 3000  # a bot's move or a watcher: not a person's move
    assert policy.is_idle(table, T0 + 3600)
    table.person_moved = T0 + 3000
    assert not policy.is_idle(table, T0 + 3600)
    assert not IdlePolicy(quiet_after=60).is_idle(table, T0 + 10**9)  # no close: never idle


def test_only_a_game_in_play_with_a_person_at_it_is_ever_idle():
    policy = IdlePolicy(close_after=60, quiet_after=60)
    later = T0 + 10**6
    watched = table_of(ANN_AND_BO, playable=False)  # a game only watched here
    stopped = table_of(ANN_AND_BO)
    stopped.stopped = "No space left on device"
    bots_only = table_of(TWO_BOTS)
    over = table_of(ANN_AND_BO)
    over.close_game("closed by hand")
    over.person_moved = over.changed_at = T0
    for table in (watched, stopped, bots_only, over):
        assert not policy.is_idle(table, later)
        assert policy.quiet_seat(table, later) is None
        assert policy.due(table, later) is None
    assert policy.is_idle(table_of(ANN_AND_BO), later)  # the same wait on a game in play


def test_the_seat_waited_on_is_quiet_once_nothing_changed_for_the_whole_wait():
    policy = IdlePolicy(quiet_after=600)
    table = table_of(ANN_AND_BO)
    waited_on = table.person_to_act()
    assert waited_on is not None
    assert policy.quiet_seat(table, T0 + 599) is None
    assert policy.quiet_seat(table, T0 + 600) == waited_on
    table.changed_at = T0 + 500  # the game moved on since (a bot, another process)
    assert policy.quiet_seat(table, T0 + 600) is None
    assert IdlePolicy(close_after=600).quiet_seat(table, T0 + 10**9) is None  # no hand-over


def test_a_lone_person_with_bots_is_never_quiet_they_hold_no_one_up():
    table = table_of(ANN_AND_BOT)
    assert table.person_to_act() == 0
    assert IdlePolicy(quiet_after=600).quiet_seat(table, T0 + 10**6) is None


def test_closing_is_due_before_handing_over_and_says_how_long_in_words():
    table = table_of(ANN_AND_BO)
    policy = IdlePolicy(close_after=3600, quiet_after=600)
    assert policy.due(table, T0 + 599) is None
    assert policy.due(table, T0 + 3600) == CloseIdleGame(
        "no one moved for 60 minutes; its place is freed",
        f"{table.id}: closed after 60 minutes with no move",
    )
    seat = table.person_to_act()
    assert seat is not None
    name = table.seats[seat].name
    assert policy.due(table, T0 + 600) == HandQuietSeat(
        seat, f"{name} has not moved for 10 minutes", f"{table.id}: seat {seat} handed to a bot"
    )


def test_what_is_due_is_taken_once_and_logged_with_its_words():
    table = table_of(ANN_AND_BO)
    hand = IdlePolicy(quiet_after=90).due(table, T0 + 90)
    assert isinstance(hand, HandQuietSeat) and hand.bot == STAND_IN
    assert hand.take(table)
    [handed] = [e for _, e in table.game.events() if isinstance(e, tev.SeatHandedToBot)]
    assert (handed.seat, handed.bot, handed.reason) == (hand.seat, STAND_IN, hand.reason)
    assert table.is_handed(hand.seat) and not hand.take(table)  # not a person's seat now
    close = IdlePolicy(close_after=7200).due(table, T0 + 7200)
    assert isinstance(close, CloseIdleGame)
    assert close.take(table) and table.state.is_over
    [closed] = [e for _, e in table.game.events() if isinstance(e, tev.GameClosed)]
    assert closed.reason == "no one moved for 2 hours; its place is freed"
    assert not close.take(table)  # over already: nothing more is logged
