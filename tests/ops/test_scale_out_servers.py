"""Two real servers of two gunicorn workers each over one PostgreSQL database: the site
takes hundreds of games with its default settings, any worker plays any game, and bot
turns go on while workers are SIGKILLed (each played once: the logs verify)."""

from __future__ import annotations

import os
import random
import signal
import time
import urllib.request

import pytest

from core.events.codec import command_to_dict
from core.game import Game
from core.store.postgres import PostgresStore
from tests.support.serve_support import Server, call, post_from, workers_of

pytestmark = [pytest.mark.usefixtures("postgres_server"), pytest.mark.slow]

PEOPLE = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]


def taken_up(server: Server) -> float:
    """How many games the server's workers have loaded from the store (its /metrics)."""
    with urllib.request.urlopen(f"{server.url}/metrics", timeout=30) as answer:
        text = answer.read().decode()
    return sum(
        float(line.split()[-1])
        for line in text.splitlines()
        if line.startswith("dice_miner_tables_taken_up")
    )


@pytest.fixture
def two_servers(postgres_server, tmp_path):
    url = postgres_server.fresh_schema()
    servers = [Server("--store", url, "--workers", "2", "--replays", str(tmp_path))]
    servers.append(Server("--store", url, "--workers", "2", "--replays", str(tmp_path)))
    yield url, servers
    for server in servers:
        server.stop()


def test_two_servers_take_200_games_with_default_settings(two_servers):
    url, servers = two_servers
    games = []
    for n in range(200):  # four games from each of 50 clients, alternately on both servers
        address = f"127.0.1.{1 + n // 4}"
        status, game = post_from(servers[n % 2], address, "/api/games", {"players": PEOPLE})
        assert status == 201, (n, game)
        games.append(game)
    assert [taken_up(server) for server in servers] == [0, 0]  # each holds what it made
    reader = PostgresStore(url)
    try:
        for n in (0, 199):  # a move in the first and the last, through the other server
            game = games[n]
            local = Game.from_stream(reader.read(game["id"]))
            seat = local.state.to_act()
            token = next(s["token"] for s in game["seats"] if s["seat"] == seat)
            body = {"command": command_to_dict(local.legal()[0]), "seq": local.seq}
            server = servers[(n + 1) % 2]
            status, answer = post_from(
                server, "127.0.2.1", f"/api/games/{game['id']}/commands", body, token
            )
            assert status == 200, answer
        assert reader.work.live() == 200
        # taken up by the workers that served the moves, and by nobody else
        assert [taken_up(server) for server in servers] == [1, 1]
    finally:
        reader.close()
    status, listed, _ = call(servers[0], "GET", "/api/games")
    assert status == 200 and len(listed["games"]) == 100  # the site's, newest first


def test_bot_turns_go_on_while_workers_are_killed(two_servers):
    url, servers = two_servers
    bots = [{"name": None, "bot": "greedy"}, {"name": None, "bot": "random"}]
    ids = []
    for n in range(6):
        body = {"players": bots, "pace": 0.05}
        status, game = post_from(servers[n % 2], f"127.0.3.{n + 1}", "/api/games", body)
        assert status == 201, game
        ids.append(game["id"])
    reader = PostgresStore(url)
    rng = random.Random(7)
    try:
        deadline = time.monotonic() + 150
        kills = 0
        while time.monotonic() < deadline:
            games = [Game.from_stream(reader.read(i)) for i in ids]
            if all(g.state.is_over and not g.state.facts.secret_dice for g in games):
                break
            if kills < 6:
                server = servers[kills % 2]
                victims = workers_of(server)
                if victims:
                    os.kill(rng.choice(victims), signal.SIGKILL)  # the arbiter starts another
                    kills += 1
            time.sleep(rng.uniform(0.3, 1.2))
        assert kills == 6
        for game_id in ids:
            game = Game.from_stream(reader.read(game_id))  # each batch verified on reading
            assert game.state.is_over, game_id
            assert game.state.facts.revealed, "the secret revealed once the game ended"
        assert reader.work.live() == 0 and reader.work.counts()["queued"] == 0
    finally:
        reader.close()
    for server in servers:
        assert "Traceback" not in "".join(server.output)
