"""Writers racing on one stored game, for ``tests/store/test_store_postgres.py`` (threads or
processes).

Each writer is a ``Game`` of its own over its own store object: it issues a
random bot's moves, and on a ``StoreConflict`` (another writer was first)
catches up and decides again. It reports the batches the store acknowledged.
"""

from __future__ import annotations

from core.bots import make_bot
from core.bots.play import bot_command
from core.errors import StoreConflict
from core.events.codec import encode_batch
from core.game import Game


def race(url: str, game_id: str, moves: int) -> tuple[list[tuple[int, bytes]], int]:
    """``moves`` acknowledged appends (fewer if the game ends): (seq, payload) each, and the
    number of conflicts met on the way."""
    from core.store.postgres import PostgresStore

    store = PostgresStore(url)
    try:
        game = Game.resume(store, game_id)
        bot = make_bot("random")
        acknowledged: list[tuple[int, bytes]] = []
        conflicts = 0
        while len(acknowledged) < moves:
            game.catch_up()
            if game.to_act() is None:
                break
            try:
                commit = game.issue(bot_command(game, bot))
            except StoreConflict:
                conflicts += 1
                continue
            acknowledged.append((commit.batch.seq, encode_batch(commit.batch)))
        return acknowledged, conflicts
    finally:
        store.close()


def race_in_process(url: str, game_id: str, moves: int, results) -> None:
    """``race``, its result put on the multiprocessing queue ``results``."""
    results.put(race(url, game_id, moves))
