"""Durable appends: events per second with an fsync per event, and per command's batch.

The events are those of real 4-player games between random bots. Each is
encoded, framed, checksummed, written and fsynced by ``core.log.LogWriter``
(as a file-backed game does on every command):

* per event: every event in a record of its own, one fsync each;
* batched: every command's batch of events in one record, one fsync each
  (what ``Game.issue`` does; a command causes 1.35 events on average, up to a
  dozen when a round ends and the mountain is refilled).

Both are given in events per second; the file is on the benchmark's
temporary directory, so the figures are that disk's fsync.
"""

from __future__ import annotations

import os

from benchmarks.timing import best, runs
from core.bots.play import play_game
from core.bots.random_bot import RandomBot
from core.bots.series import player_names
from core.events.codec import Batch, encode_batch
from core.game import Game, log_header
from core.log import LogWriter


def sample_batches(games: int, seed: int = 11) -> list[list[Batch]]:
    """The batches of ``games`` games between random bots (played in memory)."""
    names = player_names(["random"] * 4)
    found = []
    for i in range(games):
        game = Game.new(names, seed + i)
        play_game(game, [RandomBot() for _ in names])
        found.append(game.batches())
    return found


def _write(folder: str, label: str, games: list[list[Batch]], per_event: bool) -> None:
    for number, batches in enumerate(games):
        path = os.path.join(folder, f"{label}-{number}.dmlog")
        if os.path.exists(path):
            os.unlink(path)
        first = batches[0].command
        with LogWriter.create(path, log_header(first), sync=True) as writer:
            for batch in batches:
                if per_event:
                    for i, event in enumerate(batch.events):
                        writer.append(encode_batch(Batch(batch.seq + i, batch.command, (event,))))
                else:
                    writer.append(encode_batch(batch))


def append(folder: str, games: int, repeat: int) -> dict:
    """Events per second appended durably, one fsync per event and per batch."""
    sample = sample_batches(games)
    events = sum(len(b.events) for g in sample for b in g)
    records = sum(len(g) for g in sample)
    each = best(runs(lambda: _write(folder, "each", sample, True), repeat))
    batched = best(runs(lambda: _write(folder, "batched", sample, False), repeat))
    return {
        "events": events,
        "batches": records,
        "fsync_per_event_events_per_s": round(events / each),
        "fsync_per_batch_events_per_s": round(events / batched),
        "fsync_per_batch_batches_per_s": round(records / batched),
    }
