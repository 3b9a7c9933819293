"""200 writers SIGKILLed while appending to PostgreSQL: no acknowledged command is lost,
no event is stored twice, and every game still re-runs from its seed."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import time

import pytest

from core.bots import make_bot
from core.bots.play import bot_command
from core.errors import StoreConflict
from core.game import Game
from core.verify import rerun

TRIALS = 200
GAMES = 25


def _writer(url: str, game_id: str, acks) -> None:
    """A child process: play bot moves into the game, saying each seq after it is stored."""
    from core.store.postgres import PostgresStore

    try:
        store = PostgresStore(url)
        game = Game.resume(store, game_id)
        bot = make_bot("random")
        acks.send(-1)  # ready: the kill comes while it appends
        while not game.state.is_over:
            try:
                game.issue(bot_command(game, bot))
            except StoreConflict:  # the writer killed before us committed late: look again
                game.catch_up()
                continue
            acks.send(game.seq)  # acknowledged: it was committed before issue returned
    except BaseException as exc:  # say why, for the test's message
        acks.send(f"{type(exc).__name__}: {exc}")
    finally:
        os._exit(0)  # never run the parent's clean-up (its connections are not ours)


@pytest.mark.usefixtures("postgres_server")
def test_writers_killed_mid_append_lose_nothing_acknowledged(postgres_server):
    from core.store.postgres import PostgresStore

    url = postgres_server.fresh_schema()
    store = PostgresStore(url)
    ids = [Game.new(["Ada", "Brok", "Cira"], seed, store=store).game_id for seed in range(GAMES)]
    finished = 0  # writers that ended their game before the kill came
    context = multiprocessing.get_context("fork")
    chooser = random.Random(2026)
    acknowledged = dict.fromkeys(ids, 0)
    killed, failures = 0, []
    started = time.monotonic()
    trial = 0
    while killed < TRIALS and trial < 3 * TRIALS:
        trial += 1
        game_id = ids[trial % len(ids)]
        if Game.from_stream(store.read(game_id)).state.is_over:  # a new game in its place
            game_id = Game.new(["Ada", "Brok", "Cira"], 1000 + trial, store=store).game_id
            ids[trial % len(ids)] = game_id
            acknowledged[game_id] = 0
        receiving, sending = context.Pipe(duplex=False)
        child = context.Process(target=_writer, args=(url, game_id, sending))
        child.start()
        sending.close()
        receiving.poll(10.0)  # its first word: ready
        time.sleep(chooser.uniform(0.0, 0.06))
        os.kill(child.pid, signal.SIGKILL)
        child.join()
        killed += child.exitcode == -signal.SIGKILL
        finished += child.exitcode == 0
        while receiving.poll():
            try:
                word = receiving.recv()
            except EOFError:
                break
            if isinstance(word, str):
                failures.append(word)
            else:
                acknowledged[game_id] = max(acknowledged[game_id], word)
        receiving.close()
    elapsed = time.monotonic() - started
    assert not failures, failures[:3]
    assert killed == TRIALS, f"only {killed} writers killed mid-run in {trial} trials"
    for game_id in acknowledged:
        batches = list(store.read(game_id).batches())
        seqs = [b.seq for b in batches]
        assert seqs == sorted(set(seqs)), "an event stored twice"
        assert batches[-1].end >= acknowledged[game_id], "an acknowledged command was lost"
        assert rerun(batches) is None  # the stored game is whole, and re-runs from its seed
    print(
        f"{trial} writers in {elapsed:.1f} s: {killed} killed mid-run, {finished} ended their game "
        f"first; acknowledged events "
        f"{sum(acknowledged.values())}, every one stored once"
    )
    store.close()
