"""The PostgreSQL store against the file store: ``python -m benchmarks.store`` (10 to 60 s).

Both stores are given the same games (4-player games of random bots, played in
memory beforehand) and measured in the same run, in alternating rounds, so
the ratios compare like with like on a shared machine:

* appends: each command's batch appended through ``Stream.append``, durable
  before it returns: the file store fsyncs each record, PostgreSQL commits each
  with ``synchronous_commit = on`` (its WAL flushed to disk). One writer, then
  four writers at once (threads, each on its own game, its own store object).
* loads: a whole game read back through a new ``Stream`` (every checksum
  verified, every batch decoded), as a worker does to take a game up.

PostgreSQL is a throwaway cluster started for the run (``tests.support.pg_cluster``,
fsync on), on the same disk as the file store's folder, or the database that
``DICE_MINER_TEST_POSTGRES`` names (a schema of its own per round). A table
comes first; the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.append import sample_batches
from benchmarks.timing import machine
from core.events.codec import Batch
from core.game import log_header
from core.store import FileStore, Store
from tests.support.pg_cluster import PostgresServer

Games = list[list[Batch]]


def write_games(store: Store, games: Games, prefix: str) -> float:
    """Seconds to create each game and append its batches one by one (one writer)."""
    started = time.perf_counter()
    for number, batches in enumerate(games):
        _write_one(store, batches, f"{prefix}-{number}")
    return time.perf_counter() - started


def _write_one(store: Store, batches: list[Batch], game_id: str) -> None:
    first = batches[0]
    header = log_header(first.command)
    header["game_id"] = game_id
    stream = store.create(header, first)
    for batch in batches[1:]:
        stream.append(batch)
    stream.close()


def write_games_together(open_store: Callable[[], Store], games: Games, prefix: str) -> float:
    """Seconds for one writer thread per game, each with its own store object, all at once."""
    stores = [open_store() for _ in games]
    barrier = threading.Barrier(len(games) + 1)

    def write(n: int) -> None:
        barrier.wait()
        _write_one(stores[n], games[n], f"{prefix}-{n}")

    threads = [threading.Thread(target=write, args=(n,)) for n in range(len(games))]
    for t in threads:
        t.start()
    barrier.wait()
    started = time.perf_counter()
    for t in threads:
        t.join()
    took = time.perf_counter() - started
    for store in stores:
        store.close()
    return took


def load_games(store: Store, ids: list[str]) -> float:
    """Seconds to read every game whole through a new stream (verified and decoded)."""
    started = time.perf_counter()
    for game_id in ids:
        stream = store.read(game_id)
        list(stream.batches())
        stream.close()
    return time.perf_counter() - started


def measure(server: PostgresServer, folder: Path, games: Games, rounds: int) -> dict:
    """Every figure, file and PostgreSQL alternating round by round."""
    from core.store.postgres import PostgresStore

    batches = sum(len(g) for g in games)
    together = games[:4]
    together_batches = sum(len(g) for g in together)
    times: dict[str, list[float]] = {}

    def keep(name: str, seconds: float) -> None:
        times.setdefault(name, []).append(seconds)

    for r in range(rounds):
        file_store = FileStore(folder / f"round{r}")
        url = server.fresh_schema()
        pg_store = PostgresStore(url)
        try:
            keep("file_append", write_games(file_store, games, "g"))
            keep("pg_append", write_games(pg_store, games, "g"))
            keep(
                "file_append_4",
                write_games_together(lambda fs=file_store: fs, together, "t"),
            )
            keep(
                "pg_append_4",
                write_games_together(lambda u=url: PostgresStore(u), together, "t"),
            )
            ids = [f"g-{n}" for n in range(len(games))]
            load_games(pg_store, ids[:2])  # warm the pool's connection and its plans
            for _ in range(3):
                keep("file_load", load_games(file_store, ids))
                keep("pg_load", load_games(pg_store, ids))
        finally:
            pg_store.close()
    best = {name: min(values) for name, values in times.items()}
    median = {name: statistics.median(values) for name, values in times.items()}
    load_ms = {k: round(best[k] / len(games) * 1000, 2) for k in ("file_load", "pg_load")}
    return {
        "games": len(games),
        "batches": batches,
        "events": sum(len(b.events) for g in games for b in g),
        "rounds": rounds,
        "file_appends_per_s": round(batches / best["file_append"]),
        "pg_appends_per_s": round(batches / best["pg_append"]),
        "pg_vs_file_appends": round(best["file_append"] / best["pg_append"], 2),
        "pg_vs_file_appends_median": round(median["file_append"] / median["pg_append"], 2),
        "file_appends_4_writers_per_s": round(together_batches / best["file_append_4"]),
        "pg_appends_4_writers_per_s": round(together_batches / best["pg_append_4"]),
        "file_load_ms_per_game": load_ms["file_load"],
        "pg_load_ms_per_game": load_ms["pg_load"],
        "pg_vs_file_load_time": round(best["pg_load"] / best["file_load"], 2),
    }


def table(figures: dict) -> str:
    """The figures as a Markdown table, as docs/performance.md shows them."""
    rows = [
        ("appends per second, one writer", "file_appends_per_s", "pg_appends_per_s"),
        (
            "appends per second, 4 writers on 4 games",
            "file_appends_4_writers_per_s",
            "pg_appends_4_writers_per_s",
        ),
        ("loading a whole game, ms", "file_load_ms_per_game", "pg_load_ms_per_game"),
    ]
    lines = ["| figure | file store (fsync) | PostgreSQL (synchronous commit) |", "|---|---|---|"]
    lines += [f"| {label} | {figures[f]:,} | {figures[p]:,} |" for label, f, p in rows]
    lines.append(
        f"\nPostgreSQL appends at {figures['pg_vs_file_appends']} times the file store's rate "
        f"(median round {figures['pg_vs_file_appends_median']}), and takes "
        f"{figures['pg_vs_file_load_time']} times as long to load a game "
        f"({figures['games']} games, {figures['batches']:,} batches, {figures['events']:,} events; "
        f"best of {figures['rounds']} rounds)."
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.store", description=__doc__)
    parser.add_argument("--games", type=int, default=8, help="games per round (default 8)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    print(f"playing {args.games} games of 4 random bots ...", file=sys.stderr, flush=True)
    games = sample_batches(max(args.games, 4))
    print("starting PostgreSQL ...", file=sys.stderr, flush=True)
    server = PostgresServer.start()
    try:
        with tempfile.TemporaryDirectory(prefix="dm-bench-store-", dir=server.folder) as folder:
            print(f"{args.rounds} rounds of appends and loads ...", file=sys.stderr, flush=True)
            figures = measure(server, Path(folder), games, args.rounds)
    finally:
        server.stop()
    print(table(figures))
    context = {"seconds": round(time.perf_counter() - began, 1), "machine": machine()}
    print(json.dumps({**figures, **context}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
