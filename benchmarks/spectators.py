"""Thousands of spectators on one server, measured: ``python -m benchmarks.spectators``.

Starts a real ``dice-miner serve`` (gunicorn, its default: one gevent worker over the
file store; ``--workers N``: N workers over a throwaway PostgreSQL), opens
``--spectators`` event streams of one game from a few client processes (asyncio, a few
hundred sockets each), then posts ``--moves`` moves of that game, one at a time, and
measures:

* **delivery latency**: from just before a move is posted to each spectator reading
  each of its events, p50 / p99 / max over every delivery. The append happens in
  between, so these bound the time from append to delivery from above (the client
  and the server share the machine's monotonic clock);
* **memory per open stream**: the workers' resident memory with every stream open,
  less before any was, divided by the streams; and the workers' CPU time a move;
* that every spectator received every event once and in order (any gap, duplicate
  or stream lost is counted as an error; the exit code is 1 then).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import re
import resource
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.timing import machine
from tests.support.serve_support import Server, call

PEOPLE = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]
_ID = re.compile(rb"(?m)^id: (\d+)$")


def _raise_open_files(wanted: int) -> None:
    """Let this process hold ``wanted`` sockets (the soft limit up to the hard one)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


async def _spectate(host, port, path, opened, stop, arrivals: list) -> None:
    """One stream: each event's (seq, arrival time), until ``stop``. One that cannot be
    opened is counted as opened all the same, its stream empty: an error in the figures."""
    try:
        reader, writer = await asyncio.open_connection(host, port)
        request = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n"
        writer.write(request.encode())
        await writer.drain()
        await reader.readuntil(b"\r\n\r\n")  # the answer's head
    except (OSError, asyncio.IncompleteReadError):
        opened.append(0)
        return
    opened.append(1)
    tail = b""
    try:
        while not stop.is_set():
            chunk = await reader.read(65536)
            if not chunk:
                break
            now = time.monotonic()
            data = tail + chunk
            cut = data.rfind(b"\n")
            for match in _ID.finditer(data, 0, cut + 1):
                arrivals.append((int(match.group(1)), now))
            tail = data[cut + 1 :]
    finally:
        writer.close()


def _client(url: str, path: str, count: int, ready, go_home, out) -> None:
    """A client process: ``count`` streams; their arrivals put on ``out`` when told."""
    _raise_open_files(count + 64)
    host, port = url.split("//")[1].split(":")

    async def run() -> list[list[tuple[int, float]]]:
        stop = asyncio.Event()
        opened: list[int] = []
        streams: list[list[tuple[int, float]]] = [[] for _ in range(count)]
        tasks = []
        for n in range(count):
            tasks.append(
                asyncio.create_task(_spectate(host, int(port), path, opened, stop, streams[n]))
            )
            if n % 50 == 49:
                await asyncio.sleep(0.05)  # do not flood the accept queue
        while len(opened) < count:
            await asyncio.sleep(0.05)
        ready.set()
        while not go_home.is_set():
            await asyncio.sleep(0.1)
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return streams

    out.put(asyncio.run(run()))


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def _cpu_seconds(pid: int) -> float:
    """The process's CPU time so far, user and system."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _worker_pids(server: Server) -> list[int]:
    """The server's workers (the arbiter's children)."""
    pid = server.process.pid
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _move(server: Server, game: dict, reader) -> tuple[float, float, list[int]]:
    """Post the next move of the game; when it was posted, when its answer came, and the
    seqs of its events."""
    from core.events.codec import command_to_dict

    local = reader(game["id"])
    token = game["seats"][local.state.to_act()]["token"]
    body = {"command": command_to_dict(local.legal()[0]), "seq": local.seq}
    sent = time.monotonic()
    status, answer, _ = call(server, "POST", f"/api/games/{game['id']}/commands", body, token)
    answered = time.monotonic()
    if status != 200:
        raise RuntimeError(f"a move was refused: {status} {answer}")
    return sent, answered, [event["seq"] for event in answer["events"]]


def measure(spectators: int, moves: int, clients: int, pause: float, workers: int = 1) -> dict:
    """Run the benchmark; its figures as a dict. One worker serves the file store; more
    serve a throwaway PostgreSQL database (``tests/support/pg_cluster.py``)."""
    from core.game import Game
    from core.store import FileStore, Store, open_store
    from tests.support.pg_cluster import PostgresServer

    _raise_open_files(spectators + 256)
    pg = PostgresServer.start() if workers > 1 else None
    with tempfile.TemporaryDirectory(prefix="dm-bench-spectators-") as tmp:
        data = Path(tmp) / "data"
        quiet = ("--replays", tmp, "--access-log", "off", "--idle-close", "0", "--quiet-seat", "0")
        store: Store
        if pg is None:
            server = Server("--data", str(data), *quiet)
            store = FileStore(data, prefix="web-")
        else:
            url = pg.fresh_schema()
            server = Server("--store", url, "--workers", str(workers), *quiet)
            store = open_store(url)
        try:
            status, game, _ = call(server, "POST", "/api/games", {"players": PEOPLE})
            assert status == 201, game

            def reader(game_id):
                return Game.from_stream(store.read(game_id))

            pids = _worker_pids(server)
            start_seq = reader(game["id"]).seq
            time.sleep(1.0)
            before = sum(_rss_kib(pid) for pid in pids)
            path = f"/api/games/{game['id']}/stream?from={start_seq}"
            ready = [multiprocessing.Event() for _ in range(clients)]
            go_home, out = multiprocessing.Event(), multiprocessing.Queue()
            shares = [spectators // clients + (n < spectators % clients) for n in range(clients)]
            procs = [
                multiprocessing.Process(
                    target=_client, args=(server.url, path, share, ready[n], go_home, out)
                )
                for n, share in enumerate(shares)
            ]
            opening = time.monotonic()
            for proc in procs:
                proc.start()
            for event in ready:
                if not event.wait(300):
                    raise RuntimeError("the spectators could not all connect")
            opened_in = time.monotonic() - opening
            time.sleep(1.0)
            during = sum(_rss_kib(pid) for pid in pids)
            posted: dict[int, float] = {}
            answers: list[float] = []
            cpu = sum(_cpu_seconds(pid) for pid in pids)
            for _ in range(moves):
                sent, answered, seqs = _move(server, game, reader)
                answers.append((answered - sent) * 1000)
                for seq in seqs:
                    posted[seq] = sent
                time.sleep(pause)
            time.sleep(2.0)
            cpu = sum(_cpu_seconds(pid) for pid in pids) - cpu
            go_home.set()
            streams = [stream for _ in procs for stream in out.get(timeout=120)]
            for proc in procs:
                proc.join(30)
        finally:
            server.stop()
            store.close()
            if pg is not None:
                pg.stop()
    expected = sorted(posted)
    lags, errors = [], 0
    for stream in streams:
        seqs = [seq for seq, _ in stream]
        errors += seqs != expected  # a gap, a duplicate or a stream lost
        lags.extend((at - posted[seq]) * 1000 for seq, at in stream if seq in posted)
    lags.sort()
    return {
        "machine": machine(),
        "spectators": spectators,
        "workers": workers,
        "moves": moves,
        "events": len(expected),
        "deliveries": len(lags),
        "opened_in_s": round(opened_in, 2),
        "p50_ms": round(statistics.median(lags), 1),
        "p99_ms": round(lags[int(len(lags) * 0.99) - 1], 1),
        "max_ms": round(lags[-1], 1),
        "answer_p50_ms": round(statistics.median(answers), 1),
        "server_cpu_ms_per_move": round(cpu * 1000 / moves, 1),  # every worker's
        "rss_before_mib": round(before / 1024, 1),
        "rss_streams_mib": round(during / 1024, 1),
        "kib_per_stream": round((during - before) / spectators, 1),
        "errors": errors,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.spectators", description=__doc__)
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--moves", type=int, default=30, help="moves posted and timed")
    parser.add_argument("--clients", type=int, default=4, help="client processes")
    parser.add_argument("--pause", type=float, default=0.3, help="seconds between two moves")
    parser.add_argument(
        "--workers", type=int, default=1, help="1: the file store; more: PostgreSQL's"
    )
    args = parser.parse_args(argv)
    r = measure(args.spectators, args.moves, args.clients, args.pause, args.workers)
    print(
        f"{r['spectators']} spectators on one server ({r['workers']} gevent worker(s)), "
        f"{r['moves']} moves, {r['events']} events, {r['deliveries']} deliveries, all open "
        f"in {r['opened_in_s']} s"
    )
    print(
        f"from posting a move to each spectator holding its events: p50 {r['p50_ms']} ms, "
        f"p99 {r['p99_ms']} ms, max {r['max_ms']} ms (the move's own answer: "
        f"{r['answer_p50_ms']} ms, p50)"
    )
    print(
        f"the workers' CPU: {r['server_cpu_ms_per_move']} ms a move; their memory: "
        f"{r['rss_before_mib']} MiB before, {r['rss_streams_mib']} MiB with every stream "
        f"open: {r['kib_per_stream']} KiB per stream; errors: {r['errors']}"
    )
    print(json.dumps(r))
    return 1 if r["errors"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
