"""Seeking in a very long log: the state at event N must cost the same for every N.

The log is one long session of a 4-player game between random bots: the
game is played to its end, undone command by command back to its start (undo
is an event too), and played again (re-issuing a command rolls the same
dice), over and over until the log holds ``min_events`` events or more. It is
written to a file, loaded, and indexed once with
``core.projections.snapshots.SnapshotIndex``.

Then, for ten points N spread from the start of the log to its end, the time
to reach the state after each position in N .. N + WINDOW - 1 is measured and
averaged (a window about one play-and-undo cycle long, so each point sees every
kind of event and every offset from a snapshot), repeated, best run kept:
``flatness`` is the slowest point's mean over the fastest's. The single
positions' spread is reported too, and folding from the start instead
(``timeline.replay``) is timed at the first and last points for comparison.
"""

from __future__ import annotations

import time

from benchmarks.timing import best, runs, runs_each
from core.bots.play import play_game
from core.bots.random_bot import RandomBot
from core.bots.series import player_names, write_log
from core.game import Game
from core.projections.snapshots import SNAPSHOT_EVERY, SnapshotIndex
from core.projections.timeline import replay
from core.store import load_batches

POINTS = 10
#: Positions averaged at each point: about one cycle of a game played and undone.
WINDOW = 256


def long_game(min_events: int, seed: int) -> Game:
    """A game whose log holds at least ``min_events`` events: played, undone, played again."""
    names = player_names(["random"] * 4)
    plain = Game.new(names, seed)
    play_game(plain, [RandomBot() for _ in names])
    commands = [b.command for b in plain.batches()[1:]]  # the NewGame batch cannot be undone
    game = Game.new(names, seed)
    while True:
        for command in commands:
            game.issue(command)
        if game.seq >= min_events:
            break
        for _ in commands:
            game.undo()
    if game.state != plain.state:
        raise AssertionError("undoing and replaying the game changed its outcome")
    return game


def seek(path: str, min_events: int, *, seed: int = 7, repeat: int = 5) -> dict:
    """Write the long log to ``path``, load and index it, and time seeks across it."""
    began = time.perf_counter()
    game = long_game(min_events, seed)
    write_log(game, path)
    built = time.perf_counter() - began
    began = time.perf_counter()
    _, batches = load_batches(path)
    loaded = time.perf_counter() - began
    began = time.perf_counter()
    index = SnapshotIndex(batches, SNAPSHOT_EVERY)
    indexed = time.perf_counter() - began
    total, every = index.total, index.every
    if index.final.state != game.state:
        raise AssertionError("the indexed log does not end in the game's state")
    starts = [1 + (total - WINDOW) * i // (POINTS - 1) for i in range(POINTS)]
    windows = [range(start, min(start + WINDOW, total + 1)) for start in starts]

    def reach(window: range) -> None:
        for position in window:
            index.state_at(position)

    # Each round visits every point once, so a burst of load elsewhere hits one round.
    rounds = runs_each(reach, windows, repeat)
    per_point = [min(t) / len(w) for t, w in zip(zip(*rounds, strict=True), windows, strict=True)]
    positions = [n for start in starts for n in range(start, start + WINDOW, 7)]
    singles = [min(t) for t in zip(*runs_each(index.state_at, positions, repeat), strict=True)]
    naive = [best(runs(lambda n=n: replay(batches, upto=n), 1)) for n in (starts[0], starts[-1])]
    return {
        "events": total,
        "batches": len(batches),
        "snapshots": len(index),
        "every": every,
        "build_s": round(built, 2),
        "load_s": round(loaded, 3),
        "index_s": round(indexed, 3),
        "points": starts,
        "seek_us": [round(t * 1e6, 1) for t in per_point],
        "flatness": round(max(per_point) / min(per_point), 2),
        "single_us": (round(min(singles) * 1e6, 1), round(max(singles) * 1e6, 1)),
        "naive_first_us": round(naive[0] * 1e6, 1),
        "naive_last_us": round(naive[1] * 1e6, 1),
    }
