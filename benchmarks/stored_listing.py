"""What listing the store's finished games costs the replay viewer: ``python -m
benchmarks.stored_listing [--games 200] [--postgres]`` (a few seconds to a minute).

The store is filled with finished games of four random bots (played in memory
beforehand, as many as ``--games``, each imported under its own id), then the
server's ``GET /api/replays`` is timed through Flask's test client (no network):

* the catalogue alone (``Store.games()``: headers and event counts), what any
  listing costs at least;
* the first listing, which reads each game once to decide from its last batch
  whether it is over (``frontends.web.stored``);
* a listing after it, which decides nothing again (nothing changed);
* for comparison, replaying every game (``Game.from_stream``), what deciding by
  the fold would cost each time without the kept verdicts.

With ``--postgres`` the store is a throwaway PostgreSQL cluster (``tests.support.pg_cluster``)
instead of the file store. A table comes first; the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.timing import machine
from core.bots import make_bot
from core.bots.play import play_game
from core.game import Game
from core.store import FileStore, Store, import_log, load_batches_bytes
from frontends.web.app import create_app


def finished_logs(count: int) -> list[bytes]:
    """``count`` finished games of four random bots, as log files' bytes."""
    logs = []
    for n in range(count):
        game = Game.new(["Ada", "Brok", "Cira", "Dain"], 1000 + n, game_id=f"listed{n}")
        play_game(game, [make_bot("random") for _ in range(4)])
        logs.append(game.export())
    return logs


def fill(store: Store, logs: list[bytes]) -> int:
    """Import the logs into the store; the events they hold."""
    events = 0
    for data in logs:
        scan, batches = load_batches_bytes(data)
        import_log(store, scan, batches).close()
        events += batches[-1].end
    return events


def _ms(run, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
    return times


def measure(store: Store, folder: Path, repeat: int = 5) -> dict:
    """Time the catalogue, the first listing, the listings after it and a full replay of each."""
    app = create_app(
        {
            "STORE": store,
            "REPLAYS_DIR": folder / "no-replays",
            "RESUME_GAMES": False,  # the games are the store's only, as on a server after a while
            "TESTING": True,
        }
    )
    services = app.extensions["dice_miner"]
    client = app.test_client()
    try:
        catalogue = _ms(store.games, repeat)
        started = time.perf_counter()
        first = client.get("/api/replays")
        first_ms = (time.perf_counter() - started) * 1000
        listed = len(first.get_json()["replays"])
        reads = services.stored.reads
        after = _ms(lambda: client.get("/api/replays"), repeat)
        ids = [entry.game_id for entry in store.games()]
        replay = _ms(lambda: [Game.from_stream(store.read(i)) for i in ids], 1)
    finally:
        services.games.close()
    return {
        "games": len(ids),
        "listed": listed,
        "games_read_first": reads,
        "games_read_after": services.stored.reads - reads,
        "catalogue_ms": statistics.median(catalogue),
        "first_listing_ms": first_ms,
        "listing_after_ms": statistics.median(after),
        "replaying_every_game_ms": replay[0],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL cluster")
    args = parser.parse_args(argv)
    logs = finished_logs(args.games)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server = None
        if args.postgres:
            from core.store.postgres import PostgresStore
            from tests.support.pg_cluster import PostgresServer

            server = PostgresServer.start()
            store: Store = PostgresStore(server.fresh_schema())
        else:
            store = FileStore(folder / "data", prefix="web-")
        try:
            events = fill(store, logs)
            figures = {"store": store.url.split(":")[0], "events": events, **measure(store, folder)}
        finally:
            store.close()
            if server is not None:
                server.stop()
    figures["machine"] = machine()
    print(f"{figures['games']} finished games ({events} events) in the {figures['store']} store")
    for key in (
        "catalogue_ms",
        "first_listing_ms",
        "listing_after_ms",
        "replaying_every_game_ms",
    ):
        print(f"  {key:28} {figures[key]:9.1f}")
    print(f"  games read: {figures['games_read_first']} first, {figures['games_read_after']} after")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
