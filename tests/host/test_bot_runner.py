"""The bot runner: every table's bots played at the table's pace by a few threads."""

from __future__ import annotations

import itertools
import logging
import threading
import time

import pytest

from core.bots import make_bot
from core.bots.play import bot_choice
from core.errors import StoreUnavailable
from core.game import Game
from core.host import Table
from core.host.bots import BotRunner
from core.store import MemoryStore, Seating, SeatRecord
from tests.support.web_support import wait_until


def bots_table(seed: int, *, pace: float = 0.0, players: int = 4) -> Table:
    names = [f"Bot{n} (random)" for n in range(players)]
    seating = Seating(tuple(SeatRecord(name, "random") for name in names))
    game = Game.new(names, seed, store=MemoryStore(), seating=seating)
    return Table(game, seating, pace=pace)


def play_to_the_end(tables: list[Table], runner: BotRunner) -> None:
    """Give the runner every table, wait until each game has ended, stop the runner."""
    try:
        for table in tables:
            runner.add(table)
        assert wait_until(lambda: all(t.state.is_over for t in tables), timeout=60)
    finally:
        runner.close()


def move_times(table: Table) -> list[float]:
    """When each of the table's commits was told (appended to as it happens)."""
    times: list[float] = []
    table.subscribe(lambda commits: times.append(time.monotonic()))
    return times


def test_the_runner_plays_a_bots_only_game_to_its_end_as_the_game_alone_would():
    table = bots_table(5)
    runner = BotRunner()
    try:
        runner.add(table)
        assert wait_until(lambda: table.state.is_over)
    finally:
        runner.close()
    alone = Game.new(list(table.state.names), 5)
    while not alone.state.is_over:  # the same bots deciding on the same states
        alone.issue(bot_choice(make_bot("random"), alone.state, alone.timeline.depth))
    assert table.game.batches() == alone.batches()


def test_tables_at_pace_zero_take_turns_none_waits_for_another_to_end():
    tables = [bots_table(seed) for seed in (1, 2, 3)]
    runner = BotRunner(workers=1)  # one thread for three games: each must get its turns
    seqs_when_one_ended: list[list[int]] = []

    def watch(commits, table):
        if table.state.is_over and not seqs_when_one_ended:
            seqs_when_one_ended.append([t.seq for t in tables])

    for table in tables:
        table.subscribe(lambda commits, table=table: watch(commits, table))
    play_to_the_end(tables, runner)
    assert min(seqs_when_one_ended[0]) > 30, seqs_when_one_ended  # all moved meanwhile


def test_a_bot_waits_its_tables_pace_between_moves():
    table = bots_table(7, pace=0.15)
    times = move_times(table)
    runner = BotRunner()
    try:
        runner.add(table)
        assert wait_until(lambda: len(times) >= 4)
    finally:
        runner.close()
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    assert min(gaps) >= 0.14, gaps


def test_a_table_changed_elsewhere_waits_the_failover_before_its_bot_moves():
    table = bots_table(8)
    table.changed_elsewhere = True  # the last change came from another process
    runner = BotRunner(failover=0.6)
    start = table.seq
    try:
        runner.add(table)
        time.sleep(0.3)
        assert table.seq == start  # the process that made the change plays first
        assert wait_until(lambda: table.seq > start, timeout=5)
    finally:
        runner.close()


def test_a_store_away_a_moment_is_tried_again_and_the_game_goes_on(monkeypatch):
    table = bots_table(9)
    real_play, failures = table.play, []

    def play_once_away(move):
        if not failures:
            failures.append(move)
            raise StoreUnavailable("the database is restarting")
        return real_play(move)

    monkeypatch.setattr(table, "play", play_once_away)
    runner = BotRunner()
    runner.retry = 0.05
    try:
        runner.add(table)
        assert wait_until(lambda: table.state.is_over)
    finally:
        runner.close()
    assert len(failures) == 1


def test_a_bot_that_fails_is_logged_and_the_other_tables_go_on(monkeypatch, caplog):
    broken, sound = bots_table(10), bots_table(11)

    def fail():
        raise RuntimeError("a bug in a bot")

    monkeypatch.setattr(broken, "decide_bot", fail)
    runner = BotRunner(workers=1)
    try:
        with caplog.at_level(logging.ERROR, logger="core.host.bots"):
            runner.add(broken)
            runner.add(sound)
            assert wait_until(lambda: sound.state.is_over)
    finally:
        runner.close()
    assert f"a bot of game {broken.id} failed to move" in caplog.text


def test_a_person_undoing_while_the_bot_decides_makes_the_bots_move_nothing():
    names = ["Ada", "Brok (random)"]
    seating = Seating((SeatRecord("Ada"), SeatRecord(names[1], "random")))
    table = Table(Game.new(names, 12, store=MemoryStore(), seating=seating), seating)
    while table.bot_to_act() is None:  # Ada plays until the bot is to act
        seat = table.person_to_act()
        assert seat is not None
        table.issue(seat, table.game.legal()[0])
    move = table.decide_bot()  # decided on a snapshot, no lock held ...
    assert move is not None and table.can_undo(0)
    table.undo(0)  # ... while Ada takes her move back
    after_undo = table.seq
    assert table.play(move) == []
    assert table.seq == after_undo


def test_closing_the_runner_stops_every_table():
    table = bots_table(13, pace=0.05)
    runner = BotRunner()
    runner.add(table)
    assert wait_until(lambda: table.seq > 10)
    runner.close()
    stopped_at = table.seq
    time.sleep(0.3)
    assert table.seq == stopped_at
    assert not any(t.name.startswith("bot-runner") and t.is_alive() for t in threading.enumerate())


@pytest.mark.parametrize("workers", [1, 2])
def test_many_tables_at_pace_zero_all_end(workers):
    play_to_the_end([bots_table(seed, players=2) for seed in range(20, 26)], BotRunner(workers))
