"""The web server with many workers, measured: ``python -m benchmarks.server``.

Starts its own throwaway PostgreSQL (``tests/support/pg_cluster.py``) and real ``dice-miner
serve`` processes, then measures, in one run on one machine:

* **commands per second over HTTP**: client processes, each playing two-person games
  as fast as it can (each move decided from the store, posted with its seq), against
  one worker on the file store (the floor), then 1, 2, 4 and 8 gunicorn workers on
  PostgreSQL (``--workers``); figures are given as ratios to the floor and to one
  worker, with the **server's CPU per command**: the CPU time of every process of the
  server (its arbiter and workers, from ``/proc``) over the commands it answered;
* **spectator latency**: 200 spectators streaming one game, half from each of two
  servers sharing the database, while a player posts moves through the first: from
  just before a move is posted to each spectator reading its last event, p50 and p99.

Appends per second and loading a game, PostgreSQL against the file store, are
``python -m benchmarks.store``. Every figure depends on the machine and on what else
it runs: compare the ratios of one run.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from benchmarks.timing import machine
from core.events.codec import command_to_dict
from core.game import Game
from core.store import FileStore, Store, open_store
from tests.support.pg_cluster import PostgresServer
from tests.support.serve_support import Server, call

PEOPLE = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]


def _client(url: str, store_url: str, prefix: str, seconds: float, out) -> None:
    """A client process: play two-person games through ``url`` for ``seconds``; count moves."""
    store: Store = FileStore(store_url, prefix=prefix) if prefix else open_store(store_url)
    server = _Remote(url)
    moves, deadline = 0, time.monotonic() + seconds
    while time.monotonic() < deadline:
        status, game, _ = call(server, "POST", "/api/games", {"players": PEOPLE})
        if status != 201:
            time.sleep(0.05)
            continue
        tokens = {s["seat"]: s["token"] for s in game["seats"] if "token" in s}
        local = Game.from_stream(store.read(game["id"]))
        while not local.state.is_over and time.monotonic() < deadline:
            seat = local.state.to_act()
            body = {"command": command_to_dict(local.legal()[0]), "seq": local.seq}
            path = f"/api/games/{game['id']}/commands"
            status, _, _ = call(server, "POST", path, body, tokens[seat])
            moves += status == 200
            local.catch_up()
    out.put(moves)
    store.close()


class _Remote:
    """Just a base URL, as ``call`` wants."""

    def __init__(self, url: str) -> None:
        self.url = url


def commands_per_second(url: str, store_url: str, prefix: str, clients: int, seconds: float):
    """Moves per second all clients made through ``url`` together."""
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    processes = [
        context.Process(target=_client, args=(url, store_url, prefix, seconds, out))
        for _ in range(clients)
    ]
    for process in processes:
        process.start()
    total = sum(out.get(timeout=seconds + 120) for _ in processes)
    for process in processes:
        process.join(30)
    return total / seconds


def spectator_latency(first: Server, second: Server, spectators: int, moves: int):
    """p50 and p99 (ms) from posting a move to every spectator holding its events."""
    status, game, _ = call(first, "POST", "/api/games", {"players": PEOPLE})
    assert status == 201, game
    tokens = {s["seat"]: s["token"] for s in game["seats"] if "token" in s}
    seen: dict[int, list[float]] = {}
    lock = threading.Lock()
    ready = threading.Barrier(spectators + 1)

    def watch(server: Server) -> None:
        request = urllib.request.Request(f"{server.url}/api/games/{game['id']}/stream")
        with urllib.request.urlopen(request, timeout=300) as stream:
            ready.wait(60)
            for raw in stream:
                line = raw.decode()
                if line.startswith("id: "):
                    with lock:
                        seen.setdefault(int(line[4:]), []).append(time.monotonic())

    threads = [
        threading.Thread(target=watch, args=(first if n % 2 else second,), daemon=True)
        for n in range(spectators)
    ]
    for thread in threads:
        thread.start()
    ready.wait(60)
    lags: list[float] = []
    store_game = _game_reader(first)
    for _ in range(moves):
        local = store_game(game["id"])
        if local.state.is_over:
            break
        seat = local.state.to_act()
        body = {"command": command_to_dict(local.legal()[0]), "seq": local.seq}
        posted = time.monotonic()
        status, answer, _ = call(
            first, "POST", f"/api/games/{game['id']}/commands", body, tokens[seat]
        )
        last = answer["seq"] - 1
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with lock:
                times = list(seen.get(last, ()))
            if len(times) >= spectators:
                break
            time.sleep(0.002)
        lags.extend((t - posted) * 1000 for t in times)
    lags.sort()
    p = lambda q: lags[min(len(lags) - 1, int(q * len(lags)))]  # noqa: E731
    return {"samples": len(lags), "p50_ms": round(p(0.5), 1), "p99_ms": round(p(0.99), 1)}


_READERS: dict[str, Store] = {}


def server_cpu_seconds(server: Server) -> float:
    """The CPU time (user and system) of every process of ``server`` now: its process
    group's, read from ``/proc`` (Linux)."""
    ticks = os.sysconf("SC_CLK_TCK")
    group = server.process.pid  # started in a session of its own: the group's id
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rpartition(")")[2].split()
        except OSError:
            continue  # gone meanwhile
        if int(fields[2]) == group:  # pgrp
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def measure(server: Server, store_url: str, prefix: str, clients: int, seconds: float) -> dict:
    """Commands per second through ``server`` and its CPU milliseconds per command."""
    before = server_cpu_seconds(server)
    rate = commands_per_second(server.url, store_url, prefix, clients, seconds)
    used = server_cpu_seconds(server) - before
    return {"per_second": rate, "cpu_ms": 1000 * used / max(rate * seconds, 1)}


def _game_reader(server: Server):
    store = _READERS[server.url]
    return lambda game_id: Game.from_stream(store.read(game_id))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.server", description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0, help="per throughput run")
    parser.add_argument("--clients", type=int, default=4, help="client processes")
    parser.add_argument("--spectators", type=int, default=200)
    parser.add_argument("--moves", type=int, default=30, help="moves timed for the latency")
    parser.add_argument(
        "--workers",
        default="1,2,4,8",
        help="the worker counts to measure on PostgreSQL, comma-separated (default 1,2,4,8)",
    )
    parser.add_argument("--no-spectators", action="store_true", help="skip the spectators' latency")
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.workers.split(",")]
    pg = PostgresServer.start()
    results: dict = {"machine": machine()}
    try:
        with tempfile.TemporaryDirectory(prefix="dm-bench-server-") as tmp:
            data = Path(tmp) / "data"
            quiet = ["--idle-close", "0", "--quiet-seat", "0", "--games-per-client", "512"]
            floor = Server("--data", str(data), "--replays", tmp, *quiet)
            try:
                results["file_1_worker"] = measure(
                    floor, str(data), "web-", args.clients, args.seconds
                )
            finally:
                floor.stop()
            for workers in counts:
                url = pg.fresh_schema()
                server = Server("--store", url, "--workers", str(workers), "--replays", tmp, *quiet)
                try:
                    results[f"postgres_{workers}_workers"] = measure(
                        server, url, "", args.clients, args.seconds
                    )
                finally:
                    server.stop()
            if args.no_spectators:
                return _report(results, args, counts)
            url = pg.fresh_schema()
            one = Server("--store", url, "--workers", "2", "--replays", tmp, *quiet)
            two = Server("--store", url, "--workers", "2", "--replays", tmp, *quiet)
            _READERS[one.url] = open_store(url)
            try:
                results["spectators"] = spectator_latency(one, two, args.spectators, args.moves)
            finally:
                one.stop()
                two.stop()
                _READERS.pop(one.url).close()
    finally:
        pg.stop()
    return _report(results, args, counts)


def _report(results: dict, args: argparse.Namespace, counts: list[int]) -> int:
    floor = results["file_1_worker"]["per_second"]
    one = results.get(f"postgres_{counts[0]}_workers")
    print(
        f"{args.clients} clients, {args.seconds:g} s each run; ratios to the file store's one "
        f"worker and to PostgreSQL's {counts[0]} worker(s)"
    )
    print("figure                          commands/s  /file  /first   CPU ms/command  /first")
    for key in ["file_1_worker", *(f"postgres_{n}_workers" for n in counts)]:
        got = results[key]
        rate, cpu = got["per_second"], got["cpu_ms"]
        by_rate = rate / one["per_second"] if one else float("nan")
        by_cpu = cpu / one["cpu_ms"] if one else float("nan")
        print(
            f"{key:<30} {rate:10.1f} {rate / floor:6.2f} {by_rate:7.2f}   {cpu:14.2f} {by_cpu:7.2f}"
        )
    s = results.get("spectators")
    if s is not None:
        print(
            f"spectator latency, {args.spectators} spectators on two servers: "
            f"p50 {s['p50_ms']} ms, p99 {s['p99_ms']} ms ({s['samples']} deliveries)"
        )
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
