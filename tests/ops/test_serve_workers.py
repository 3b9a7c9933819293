"""Games on PostgreSQL, served by many workers on two servers: any server answers any move,
a spectator on one sees every move made through the other, once and in order, and a server
killed mid-game loses nothing: the game is finished through the other."""

from __future__ import annotations

import subprocess
import sys

import pytest

from core.events.codec import command_to_dict, decode_record
from core.game import Game
from core.store import load_batches
from core.store.postgres import PostgresStore
from tests.support.serve_support import REPO, Server, Spectator, call

pytestmark = pytest.mark.usefixtures("postgres_server")


@pytest.fixture
def database(postgres_server):
    return postgres_server.fresh_schema()


def serve(url: str, tmp_path, workers: int = 2) -> Server:
    return Server(
        "--store", url, "--workers", str(workers), "--replays", str(tmp_path),
        "--idle-close", "0", "--quiet-seat", "0",
    )  # fmt: skip


def test_two_servers_share_a_game_and_one_killed_loses_nothing(database, tmp_path):
    first, second = serve(database, tmp_path), serve(database, tmp_path)
    try:
        players = [{"name": "Ann", "bot": None}, {"name": None, "bot": "greedy"}]
        status, game, _ = call(first, "POST", "/api/games", {"players": players, "pace": 0})
        assert status == 201, game
        token = next(s["token"] for s in game["seats"] if "token" in s)
        spectator = Spectator(second, game["id"])
        reader = PostgresStore(database)
        servers, moves, killed = [first, second], 0, False
        while True:
            local = Game.from_stream(reader.read(game["id"]))
            if local.state.is_over:
                break
            if local.state.to_act() != 0:
                spectator.ended.wait(0.05)  # the bot's turn: some worker plays it
                continue
            server = servers[moves % len(servers)]
            body = {
                "command": command_to_dict(local.legal()[0]),
                "seq": local.seq,
                "id": f"move-{moves}",
            }
            status, answer, _ = call(
                server, "POST", f"/api/games/{game['id']}/commands", body, token
            )
            assert status in (200, 409), answer  # 409: a bot moved since we looked
            moves += status == 200
            if moves == 12 and not killed:
                first.kill()  # mid-game, the whole server: its arbiter and its workers
                servers, killed = [second], True
        assert killed
        assert spectator.ended.wait(30), spectator.errors
        total = local.seq
        assert spectator.ids == list(range(total)), "every event once, in order"

        out = tmp_path / "exported.dmlog"
        cli = [sys.executable, "-m", "frontends.cli"]
        subprocess.run(
            [*cli, "store", "export", "--store", database, game["id"], str(out)],
            cwd=REPO, check=True, capture_output=True,
        )  # fmt: skip
        verified = subprocess.run(
            [*cli, "log", "verify", str(out)], cwd=REPO, capture_output=True, text=True
        )
        assert verified.returncode == 0 and "commitment checked" in verified.stdout

        # the same commands (with the request ids their records keep) fed to a file-store
        # game from the revealed secret: the same bytes
        scan, batches = load_batches(out)
        secret = bytes.fromhex(local.state.facts.revealed)
        path = tmp_path / "again.dmlog"
        again = Game.new(local.state.names, secret=secret, game_id=game["id"], log=path, sync=False)
        for payload, batch in zip(scan.payloads[1:], batches[1:], strict=True):
            again.issue(batch.command, decode_record(payload)[1])
        again.close()
        assert path.read_bytes() == out.read_bytes()
        reader.close()
    finally:
        first.stop()
        second.stop()


def test_a_database_stopped_mid_game_is_503_meanwhile_and_nothing_is_lost(
    postgres_server, database, tmp_path
):
    server = serve(database, tmp_path)
    try:
        players = [{"name": "Ann", "bot": None}, {"name": None, "bot": "greedy"}]
        status, game, _ = call(server, "POST", "/api/games", {"players": players, "pace": 0})
        assert status == 201
        token = next(s["token"] for s in game["seats"] if "token" in s)
        reader = PostgresStore(database)

        def my_move():
            local = Game.from_stream(reader.read(game["id"]))
            while local.state.to_act() != 0:
                local = Game.from_stream(reader.read(game["id"]))
            body = {"command": command_to_dict(local.legal()[0]), "seq": local.seq}
            return local, body

        for _ in range(3):
            _, body = my_move()
            status, answer, _ = call(
                server, "POST", f"/api/games/{game['id']}/commands", body, token
            )
            assert status == 200, answer
        _, body = my_move()
        acknowledged = reader.read(game["id"]).payloads()
        postgres_server.stop_now()
        try:
            answers = [
                call(server, "POST", f"/api/games/{game['id']}/commands", body, token),
                call(server, "POST", "/api/games", {"players": players}),
                call(server, "GET", f"/api/games/{game['id']}"),
                call(server, "GET", "/api/games/0123456789ab"),
            ]
        finally:
            postgres_server.start_again()
        for status, answer, headers in answers:
            assert status in (200, 503), answer  # never a 500, never a traceback
            if status == 503:
                assert answer["error"]["code"] == "store_unavailable"
                assert "Retry-After" in headers
        assert answers[0][0] == 503 and answers[1][0] == 503
        # back: the same server plays on by itself, and nothing acknowledged was lost
        for _ in range(30):
            status, answer, _ = call(
                server, "POST", f"/api/games/{game['id']}/commands", body, token
            )
            if status == 200:
                break
            assert status in (409, 503), answer
            _, body = my_move()
        assert status == 200
        after = reader.read(game["id"]).payloads()
        assert after[: len(acknowledged)] == acknowledged
        assert "Traceback" not in "".join(server.output)
        reader.close()
    finally:
        server.stop()
