"""Chaos, bounded and on loopback only: two servers of two workers over one PostgreSQL,
games of people and of bots, while workers and whole servers are SIGKILLed and the
database is stopped (``-m immediate``) at random moments. Every acknowledged move is
stored once, every spectator's stream is gap-free and duplicate-free to the final event
(the reveal), and no answer is a 500."""

from __future__ import annotations

import os
import random
import signal
import threading
import time
import urllib.error
import urllib.request

import psycopg
import pytest

from core.events.codec import command_to_dict
from core.game import Game
from core.store.postgres import PostgresStore
from tests.support.serve_support import Server, Spectator, call, post_from, workers_of

pytestmark = [pytest.mark.usefixtures("postgres_server"), pytest.mark.slow]

#: How long the chaos lasts (seconds); the games then finish in peace.
CHAOS_SECONDS = 25.0


class Site:
    """The servers now up (a killed one is replaced by a new one, on another port)."""

    def __init__(self, url: str, folder: str) -> None:
        self.url = url
        self.folder = folder
        self.lock = threading.Lock()
        self.servers = [self._start(), self._start()]
        self.output: list[str] = []

    def _start(self) -> Server:
        return Server("--store", self.url, "--workers", "2", "--replays", self.folder)

    def any(self, rng: random.Random) -> Server:
        with self.lock:
            return rng.choice(self.servers)

    def replace(self, server: Server) -> None:
        server.kill()
        self.output.extend(server.output)
        fresh = self._start()
        with self.lock:
            self.servers[self.servers.index(server)] = fresh

    def stop(self) -> None:
        for server in self.servers:
            self.output.extend(server.output)
            server.stop()


class Watcher(Spectator):
    """A spectator of one game that reconnects, with Last-Event-ID, to any server up."""

    def __init__(self, site: Site, game_id: str, seed: int) -> None:
        self.site = site
        self.rng = random.Random(seed)
        super().__init__(site.servers[seed % 2], game_id)

    def base_url(self) -> str:
        return self.site.any(self.rng).url


def test_nothing_acknowledged_is_lost_and_every_stream_is_whole(postgres_server, tmp_path):
    rng = random.Random(2026)
    url = postgres_server.fresh_schema()
    site = Site(url, str(tmp_path))
    statuses: list[int] = []
    acknowledged: list[tuple[str, str, list[int]]] = []  # (game, request id, event seqs)
    try:
        people = [{"name": "Ann", "bot": None}, {"name": None, "bot": "greedy"}]
        bots = [{"name": None, "bot": "greedy"}, {"name": None, "bot": "random"}]
        games = []
        for n, players in enumerate([people, people, bots, bots]):
            body = {"players": players, "pace": 0.1}
            status, game = post_from(site.servers[n % 2], f"127.0.4.{n + 1}", "/api/games", body)
            assert status == 201, game
            games.append(game)
        watchers = [Watcher(site, g["id"], n) for n, g in enumerate(games) for _ in range(2)]
        reader = PostgresStore(url)
        stop_playing = threading.Event()

        def play(game: dict, who: int) -> None:
            token = next(s["token"] for s in game["seats"] if "token" in s)
            moves = 0
            while not stop_playing.is_set():
                try:
                    local = Game.from_stream(reader.read(game["id"]))
                except Exception:  # the database away a moment
                    time.sleep(0.2)
                    continue
                if local.state.is_over:
                    return
                if local.state.to_act() != 0:
                    time.sleep(0.05)
                    continue
                request = f"p{who}-{moves}"
                body = {"command": command_to_dict(local.legal()[0]), "seq": local.seq}
                body["id"] = request
                try:
                    status, answer, _ = call(
                        site.any(rng), "POST", f"/api/games/{game['id']}/commands", body, token
                    )
                except (urllib.error.URLError, ConnectionError, OSError):
                    continue  # a server killed meanwhile: the same id is sent again
                statuses.append(status)
                if status == 200:
                    seqs = [record["seq"] for record in answer["events"]]
                    acknowledged.append((game["id"], request, seqs))
                    moves += 1
                elif status not in (409, 503):
                    raise AssertionError(f"{status}: {answer}")

        players = [threading.Thread(target=play, args=(games[n], n)) for n in (0, 1)]
        for thread in players:
            thread.start()

        chaos_end = time.monotonic() + CHAOS_SECONDS
        done = []
        while time.monotonic() < chaos_end:
            time.sleep(rng.uniform(1.0, 3.0))
            what = rng.choice(["worker", "worker", "server", "database"])
            if what == "worker":
                victims = workers_of(site.any(rng))
                if victims:
                    os.kill(rng.choice(victims), signal.SIGKILL)
            elif what == "server":
                site.replace(site.any(rng))
            else:
                postgres_server.stop_now()
                time.sleep(rng.uniform(0.5, 2.0))
                postgres_server.start_again()
            done.append(what)
        assert len(done) >= 6

        for thread in players:
            thread.join(180)
            assert not thread.is_alive(), "the people's games finish"
        for watcher in watchers:
            assert watcher.ended.wait(120), (watcher.game_id, watcher.ids[-3:])
        stop_playing.set()

        with psycopg.connect(url, autocommit=True) as conn:
            for game_id, request, seqs in acknowledged:
                rows = conn.execute(
                    "SELECT seq, end_seq FROM batches WHERE game = %s AND request = %s",
                    (game_id, request),
                ).fetchall()
                stored = [s for first, end in rows for s in range(first, end)]
                # the answer holds the move's events (and the reveal, if the move ended it)
                assert stored and seqs[: len(stored)] == stored, (request, rows, seqs)
                assert len(rows) == 1, f"request {request} stored once"
        reader.close()  # its pool may still be backing off from the restarts: a fresh one
        reader = PostgresStore(url)
        for n, game in enumerate(games):
            final = Game.from_stream(reader.read(game["id"]))  # every batch verified
            assert final.state.is_over and final.state.facts.revealed
            for watcher in watchers[2 * n : 2 * n + 2]:
                assert watcher.ids == list(range(final.seq)), "gap-free, duplicate-free, whole"
        reader.close()
        assert 500 not in statuses and all(500 not in w.statuses for w in watchers)
    finally:
        site.stop()
    assert "Traceback" not in "".join(site.output)
