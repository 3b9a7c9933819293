"""A bounded load test of the web server on loopback: ``python -m benchmarks.web_load``.

Starts the real app on Werkzeug's threaded server on a free 127.0.0.1 port and,
for ``--seconds``, keeps ``--games`` games played by bots only (a finished one
is replaced by a new one), with ``--spectators`` SSE clients watching them
(each follows its game to the end, resuming with ``Last-Event-ID`` whenever the
server ends a stream, then watches the next game of its slot) and ``--readers``
clients reading the REST API (state, events, summaries, choices) in a loop.

It counts as an error any answer that is not a 2xx, any stream that breaks, and
any gap or duplicate in the seqs a spectator receives; after the run every
stream is compared, record by record, with the game's log. It measures REST
latency and SSE delivery lag: the time from an event's append to the server's
records (stamped in-process, on the monotonic clock; nothing goes into a log)
to a spectator reading it; events sent as backlog after a (re)connect are not
counted. Everything is bounded: a hard deadline, every thread joined, the server
shut down. It prints a table and, last, one JSON line; the exit code is 1 if
there was any error.
"""

from __future__ import annotations

import argparse
import http.client
import json
import logging
import os
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from werkzeug.serving import make_server

from benchmarks.web import percentile
from core.read.views import event_record, walk
from core.store import load_batches
from frontends.web.app import create_app

#: The bot kinds that fill the seats, alternating.
BOT_KINDS = ("random", "greedy")
#: What the REST readers ask for, in turn ({id}: a game being played).
READS = (
    "/api/games/{id}/state",
    "/api/games/{id}/events?from=0&limit=50",
    "/api/games/{id}",
    "/api/games/{id}/choices",
    "/api/games",
)
#: Seconds allowed, after the load ends, for every thread to stop and the server to close.
GRACE = 20.0


class StampedRecords(list):
    """A live game's event records that note when each one was appended (monotonic time)."""

    def __init__(self, records: list, stamps: dict[int, float]) -> None:
        super().__init__(records)
        self.stamps = stamps

    def append(self, record: Any) -> None:
        self.stamps[len(self)] = time.monotonic()
        super().append(record)


class Results:
    """What every thread measures: errors, latencies, counts, and each spectator's streams."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.errors: list[str] = []
        self.rest_ms: list[float] = []
        self.lag_ms: list[float] = []
        self.counts = {"delivered": 0, "reconnects": 0, "rest": 0}
        self.streams: list[tuple[str, list[dict], bool]] = []  # game id, records, ended

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)

    def count(self, name: str, n: int = 1) -> None:
        with self.lock:
            self.counts[name] += n


class Keeper:
    """Keeps one bot game running in each slot: a finished game is replaced by a new one."""

    def __init__(self, port: int, registry, games: int, pace: float, results: Results):
        self.port = port
        self.registry = registry
        self.pace = pace
        self.results = results
        self.slots: list[str | None] = [None] * games
        self.stamps: dict[str, dict[int, float]] = {}  # game id -> seq -> when appended
        self.started: list[str] = []
        self.cond = threading.Condition()
        self._made = 0

    def _start(self, connection: http.client.HTTPConnection, slot: int) -> str | None:
        players = [{"name": None, "bot": BOT_KINDS[(slot + k) % 2]} for k in range(2 + slot % 3)]
        body = {"players": players, "seed": 1000 + self._made, "pace": self.pace}
        self._made += 1
        status, answer = request(connection, "POST", "/api/games", body)
        if status != 201:
            self.results.error(f"POST /api/games answered {status}: {answer[:200]!r}")
            return None
        game_id = json.loads(answer)["id"]
        live = self.registry.get(game_id)
        stamps: dict[int, float] = {}
        with live.cond:  # every append happens under this lock
            live.records = StampedRecords(live.records, stamps)
        self.stamps[game_id] = stamps
        self.started.append(game_id)
        return game_id

    def run(self, stop: threading.Event, ready: threading.Event) -> None:
        """Start a game in every slot, then replace each one that ends, until ``stop``."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            while not stop.is_set():
                for slot, game_id in enumerate(self.slots):
                    live = self.registry.get(game_id) if game_id else None
                    if live is None or live.state.is_over:
                        new = self._start(connection, slot)
                        with self.cond:
                            self.slots[slot] = new
                            self.cond.notify_all()
                ready.set()
                stop.wait(0.05)
        except (OSError, http.client.HTTPException) as exc:
            self.results.error(f"the keeper could not start a game: {exc!r}")
        finally:
            connection.close()
            ready.set()

    def next_game(self, slot: int, after: str | None, stop: threading.Event) -> str | None:
        """The slot's game once it is not ``after`` (None once the run stops)."""
        with self.cond:
            while not stop.is_set():
                game_id = self.slots[slot]
                if game_id is not None and game_id != after:
                    return game_id
                self.cond.wait(0.1)
        return None


def request(connection, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
    """One request on a kept-alive connection: the status and the body."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"} if data is not None else {}
    connection.request(method, path, body=data, headers=headers)
    answer = connection.getresponse()
    return answer.status, answer.read()


def sse_messages(response):
    """The messages of an event stream, each a dict of its fields (``{}`` for a comment)."""
    fields: dict[str, str] = {}
    while True:
        line = response.readline()
        if not line:
            return
        line = line.decode().rstrip("\r\n")
        if not line:
            if fields:
                yield fields
                fields = {}
        elif line.startswith(":"):
            yield {}
        else:
            key, _, value = line.partition(":")
            fields[key] = value[1:] if value.startswith(" ") else value


def watch(port: int, game_id: str, stamps: dict[int, float], results: Results, stop, timeout):
    """Follow one game's stream to its end, resuming after every drop; (records, ended)."""
    received: list[dict] = []
    retry = 1.5
    while not stop.is_set():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        headers = {"Accept": "text/event-stream"}
        if received:
            headers["Last-Event-ID"] = str(received[-1]["seq"])
        try:
            connection.request("GET", f"/api/games/{game_id}/stream", headers=headers)
            response = connection.getresponse()
            if response.status != 200:
                results.error(f"stream of {game_id} answered {response.status}")
                return received, False
            connected = time.monotonic()
            for message in sse_messages(response):
                if stop.is_set():
                    return received, False
                if "retry" in message:
                    retry = int(message["retry"]) / 1000
                if message.get("event") == "end":
                    if json.loads(message["data"])["seq"] != len(received):
                        results.error(f"{game_id}: the end came after {len(received)} events")
                    return received, True
                if message.get("event") == "step":
                    now = time.monotonic()
                    record = json.loads(message["data"])["event"]
                    expected = received[-1]["seq"] + 1 if received else 0
                    if int(message["id"]) != record["seq"] or record["seq"] != expected:
                        results.error(f"{game_id}: got seq {message['id']}, not {expected}")
                    received.append(record)
                    results.count("delivered")
                    stamp = stamps.get(record["seq"])
                    if stamp is not None and stamp >= connected:
                        results.lag_ms.append((now - stamp) * 1e3)
            if stop.is_set():
                return received, False
            results.count("reconnects")  # the server ended the stream: resume after the last
        except (OSError, http.client.HTTPException, ValueError, KeyError) as exc:
            if stop.is_set():
                return received, False
            results.error(f"stream of {game_id} broke after {len(received)} events: {exc!r}")
        finally:
            connection.close()
        stop.wait(retry)
    return received, False


def spectate(index: int, port: int, keeper: Keeper, results: Results, stop, timeout) -> None:
    """Watch the games of one slot, one after another, until the run stops."""
    slot = index % len(keeper.slots)
    game_id = keeper.next_game(slot, None, stop)
    while game_id is not None:
        received, ended = watch(port, game_id, keeper.stamps[game_id], results, stop, timeout)
        with results.lock:
            results.streams.append((game_id, received, ended))
        if not ended:
            return
        game_id = keeper.next_game(slot, game_id, stop)


def read_api(index: int, port: int, keeper: Keeper, results: Results, stop, pause, timeout):
    """Read the REST API in a loop, over the games being played, timing each answer."""
    connection = None
    k = index
    while not stop.is_set():
        games = [g for g in keeper.slots if g]
        path = READS[k % len(READS)].format(id=games[k % len(games)] if games else "none")
        k += 1
        start = time.perf_counter()
        try:
            if connection is None:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
            status, body = request(connection, "GET", path)
            elapsed = (time.perf_counter() - start) * 1e3
            results.count("rest")
            if status != 200:
                results.error(f"GET {path} answered {status}: {body[:200]!r}")
            else:
                json.loads(body)
                results.rest_ms.append(elapsed)
        except (OSError, http.client.HTTPException, ValueError) as exc:
            results.error(f"GET {path} failed: {exc!r}")
            if connection is not None:
                connection.close()
            connection = None
        stop.wait(pause)
    if connection is not None:
        connection.close()


def stream_errors(game_id: str, received: list[dict], logged: list[dict], ended: bool) -> list[str]:
    """What is wrong with the records a spectator received, against the game's log."""
    for i, record in enumerate(received):
        if record.get("seq") != i:
            return [f"{game_id}: record {i} of the stream has seq {record.get('seq')}"]
        if i >= len(logged) or record != logged[i]:
            return [f"{game_id}: event {i} differs from the log"]
    if ended and len(received) != len(logged):
        return [f"{game_id}: the stream ended after {len(received)} of {len(logged)} events"]
    return []


def logged_records(path: Path) -> list[dict]:
    """A game log's event records, as the stream sends them (through JSON)."""
    _, batches = load_batches(path)
    return json.loads(json.dumps([event_record(step) for step in walk(batches)]))


def stats(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    return {
        "n": len(values),
        **{f"p{p}": round(percentile(values, p), 2) for p in (50, 95, 99)},
        "max": round(max(values), 2),
    }


def run(
    seconds: float = 60,
    spectators: int = 50,
    games: int = 10,
    readers: int = 4,
    pace: float = 0.05,
    stream_seconds: float = 5.0,
    heartbeat: float = 1.0,
    read_pause: float = 0.01,
) -> dict[str, Any]:
    """Run the load for ``seconds``, stop everything, check the streams; the figures."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    load_before = os.getloadavg()
    results = Results()
    stop, ready = threading.Event(), threading.Event()
    timeout = max(5.0, 5 * heartbeat)  # a stream silent this long (no event, no keep-alive) broke
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        config = {"REPLAYS_DIR": Path(tmp) / "replays", "DATA_DIR": data, "MAX_GAMES": 100_000}
        config.update(SSE_HEARTBEAT=heartbeat, SSE_MAX_SECONDS=stream_seconds)
        app = create_app(config)
        registry = app.extensions["dice_miner"].games
        server = make_server("127.0.0.1", 0, app, threaded=True)
        serving = threading.Thread(target=server.serve_forever, name="server", daemon=True)
        serving.start()
        port = server.port
        keeper = Keeper(port, registry, games, pace, results)
        threads = [threading.Thread(target=keeper.run, args=(stop, ready), name="keeper")]
        for i in range(spectators):
            args = (i, port, keeper, results, stop, timeout)
            threads.append(threading.Thread(target=spectate, args=args, name=f"spectator-{i}"))
        for i in range(readers):
            args = (i, port, keeper, results, stop, read_pause, timeout)
            threads.append(threading.Thread(target=read_api, args=args, name=f"reader-{i}"))
        cpu, started = time.process_time(), time.monotonic()
        try:
            threads[0].start()
            ready.wait(30)
            for thread in threads[1:]:
                thread.start()
            stop.wait(seconds)
        finally:  # a hard deadline for everything, whatever happened
            stop.set()
            elapsed = time.monotonic() - started
            deadline = time.monotonic() + GRACE
            for thread in threads:
                if thread.ident is not None:
                    thread.join(max(0.0, deadline - time.monotonic()))
            stuck = [t.name for t in threads if t.is_alive()]
            finished = sum(1 for g in keeper.started if registry.get(g).state.is_over)
            registry.close()  # the bots stop, the logs are closed, open streams end
            server.shutdown()
            server.server_close()
            serving.join(max(0.0, deadline - time.monotonic()))
        cpu = time.process_time() - cpu
        if stuck:
            results.error(f"threads still running {GRACE} s after the end: {stuck}")
        if serving.is_alive():
            results.error("the server did not shut down")
        logs = {g: logged_records(data / f"web-{g}.dmlog") for g in keeper.started}
        for game_id, received, ended in results.streams:
            for problem in stream_errors(game_id, received, logs[game_id], ended):
                results.error(problem)
    counts = results.counts
    return {
        "benchmark": "web_load",
        "seconds": round(elapsed, 1),
        "spectators": spectators,
        "games": games,
        "readers": readers,
        "bot_pace_s": pace,
        "games_started": len(keeper.started),
        "games_finished": finished,
        "events_appended": sum(len(records) for records in logs.values()),
        "events_delivered": counts["delivered"],
        "deliveries_per_s": round(counts["delivered"] / elapsed, 1),
        "streams_checked": len(results.streams),
        "streams_whole": sum(1 for _, _, ended in results.streams if ended),
        "reconnects": counts["reconnects"],
        "rest_requests": counts["rest"],
        "rest_per_s": round(counts["rest"] / elapsed, 1),
        "rest_ms": stats(results.rest_ms),
        "sse_lag_ms": stats(results.lag_ms),
        "errors": len(results.errors),
        "error_samples": results.errors[:10],
        "threads_left": len(stuck),
        "cpu_s": round(cpu, 1),
        "cpus": os.cpu_count(),
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
    }


def table(result: dict[str, Any]) -> str:
    """The figures for people."""
    lines = [
        f"Web load on loopback: {result['spectators']} SSE spectators, {result['games']} bot "
        f"games at a time (pace {result['bot_pace_s']} s), {result['readers']} REST readers, "
        f"{result['seconds']} s",
        f"machine: {result['cpus']} CPUs, load {result['load_before'][0]} before and "
        f"{result['load_after'][0]} after; this process used {result['cpu_s']} CPU s",
        f"games started {result['games_started']}, finished {result['games_finished']}; "
        f"events appended {result['events_appended']}",
        f"events delivered {result['events_delivered']} ({result['deliveries_per_s']}/s) in "
        f"{result['streams_checked']} streams checked against the logs "
        f"({result['streams_whole']} whole games), {result['reconnects']} resumed",
        f"REST requests {result['rest_requests']} ({result['rest_per_s']}/s)",
        f"{'latency (ms)':<22}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}{'n':>9}",
    ]
    for label, key in (("REST answer", "rest_ms"), ("SSE delivery lag", "sse_lag_ms")):
        row = result[key]
        if row["n"]:
            cells = "".join(f"{row[k]:>9.2f}" for k in ("p50", "p95", "p99", "max"))
            lines.append(f"{label:<22}{cells}{row['n']:>9}")
    lines.append(f"errors {result['errors']}")
    lines += [f"  {sample}" for sample in result["error_samples"]]
    return "\n".join(lines)


def _number(kind, low, *, strict: bool = False):
    """An argparse type: a ``kind`` above ``low`` (``strict``) or at least ``low``."""

    def parse(text: str):
        value = kind(text)
        if value < low or (strict and value == low):
            bound = "more than" if strict else "at least"
            raise argparse.ArgumentTypeError(f"must be {bound} {low}, not {text}")
        return value

    return parse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.web_load", description=__doc__)
    positive = {"strict": True}
    parser.add_argument("--seconds", type=_number(float, 0, **positive), default=60.0)
    parser.add_argument("--spectators", type=_number(int, 0, **positive), default=50)
    parser.add_argument("--games", type=_number(int, 0, **positive), default=10, help="at a time")
    parser.add_argument("--readers", type=_number(int, 0), default=4, help="REST clients")
    parser.add_argument("--pace", type=_number(float, 0), default=0.05, help="between bot moves")
    parser.add_argument(
        "--stream-seconds",
        type=_number(float, 0, **positive),
        default=5.0,
        help="SSE_MAX_SECONDS: each stream ends after this and is resumed",
    )
    args = parser.parse_args(argv)
    result = run(
        args.seconds, args.spectators, args.games, args.readers, args.pace, args.stream_seconds
    )
    print(table(result))
    print(json.dumps(result))
    return 1 if result["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
