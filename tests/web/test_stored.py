"""The replay viewer lists the finished games of the server's store (the file store in the
data folder, or PostgreSQL), named ``web-ID.dmlog``, without replaying them.

Whether a stored game is over is read off its last batch (``frontends.web.stored``): the
property below holds that reading to the fold's answer after every batch of games that end,
are closed by the table, reveal their secret, and are taken back after their end.
"""

from __future__ import annotations

import secrets

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.bots import make_bot
from core.bots.play import bot_command
from core.commands import CloseGame, StartRematch
from core.game import Game
from core.projections.timeline import Timeline
from core.store import FileStore, import_log, load_batches_bytes
from frontends.web.stored import Ending
from tests.support.web_support import make_app


def bot_game(seed: int, *, names=("Ada", "Brok"), secret=False, close_at=None, undo_every=0):
    """A game of random bots in memory: to its end (its secret revealed), or closed by the
    table after ``close_at`` commands; every ``undo_every``-th command taken back once."""
    game = Game.new(
        list(names),
        None if secret else seed,
        secret=secrets.token_bytes(32) if secret else None,
        mode="solo" if len(names) == 1 else "multi",
    )
    bot = make_bot("random")
    played = 0
    while not game.state.is_over:
        if close_at is not None and played == close_at:
            game.issue(CloseGame("no one moved"))
            break
        game.issue(bot_command(game, bot))
        played += 1
        if undo_every and played % undo_every == 0 and not game.state.is_over:
            game.undo()
    game.reveal()
    return game


@settings(max_examples=25)
@given(
    seed=st.integers(0, 2**32),
    secret=st.booleans(),
    close_at=st.one_of(st.none(), st.integers(0, 60)),
    undo_every=st.sampled_from([0, 3, 7]),
    solo=st.booleans(),
    rematch=st.booleans(),
)
def test_the_last_batch_says_whether_a_game_is_over_as_the_fold_does(
    seed, secret, close_at, undo_every, solo, rematch
):
    names = ("Ada",) if solo else ("Ada", "Brok", "Cira")
    secret = secret and not solo
    game = bot_game(seed, names=names, secret=secret, close_at=close_at, undo_every=undo_every)
    if solo and close_at is None and not game.state.facts.commitment:
        game.undo()  # a solo game with a seed is taken back after its end, then ended again
        bot = make_bot("random")
        while not game.state.is_over:
            game.issue(bot_command(game, bot))
    if rematch:  # logged after the end (and the reveal): the game stays over
        game.issue(StartRematch("0123456789ab"))
    batches = game.batches()
    timeline = Timeline()
    for n, batch in enumerate(batches, start=1):
        timeline = timeline.apply_batch(batch)
        ending = Ending.of_batches(batches[:n], list(names))
        assert ending.over == timeline.state.is_over, (n, batch.command)
        if ending.over:
            assert ending.winners == tuple(names[s] for s in timeline.state.winners)
            assert ending.closed == timeline.state.facts.closed


def store_games(folder) -> dict[str, Game]:
    """Finished and unfinished games put in the data folder's file store (no seats kept:
    the server does not take them up, so the listing must read them from the store)."""
    store = FileStore(folder, prefix="web-")
    games = {
        "won": bot_game(1),
        "closed": bot_game(2, close_at=10),
        "secret": bot_game(3, secret=True),
    }
    unfinished = Game.new(["Ann", "Bo"], 4, game_id="playing")
    bot = make_bot("random")
    for _ in range(12):
        unfinished.issue(bot_command(unfinished, bot))
    games["playing"] = unfinished
    for game in games.values():
        scan, batches = load_batches_bytes(game.export())
        import_log(store, scan, batches).close()
    return games


@pytest.fixture
def app(tmp_path):
    games = store_games(tmp_path / "data")
    app = make_app(tmp_path)
    app.stored_games = games
    yield app
    app.extensions["dice_miner"].games.close()


def listed(client) -> dict[str, dict]:
    answer = client.get("/api/replays")
    assert answer.status_code == 200
    return {entry["name"]: entry for entry in answer.get_json()["replays"]}


def test_the_stores_finished_games_are_listed_marked_and_open_in_the_viewer(app):
    client = app.test_client()
    games = app.stored_games
    found = listed(client)
    stored = {name: entry for name, entry in found.items() if entry.get("source") == "store"}
    names = {f"web-{g.game_id}.dmlog": g for key, g in games.items() if key != "playing"}
    assert set(stored) == set(names)  # the unfinished game is not among them
    for name, game in names.items():
        entry = stored[name]
        assert entry["over"] is True and entry["events"] == game.seq
        assert entry["players"] == list(game.state.names)
        assert entry["winners"] == [game.state.names[s] for s in game.state.winners]
        summary = client.get(f"/api/replays/{name}").get_json()
        assert summary["events"] == game.seq and summary["over"] is True
        assert client.get(f"/replay/{name}").status_code == 200
    closed = stored[f"web-{games['closed'].game_id}.dmlog"]
    assert closed["closed"] == "no one moved" and closed["winners"] == []
    refused = client.get("/api/replays/web-playing.dmlog")
    assert refused.status_code == 404 and refused.get_json()["error"]["code"] == "game_in_play"
    assert client.get("/api/replays/web-nothing.dmlog").status_code == 404


def test_a_stored_game_is_read_once_to_be_listed_and_again_only_once_it_changed(app, tmp_path):
    client = app.test_client()
    stored = app.extensions["dice_miner"].stored
    live = client.post(
        "/api/games", json={"players": [{"bot": "random"}, {"bot": "random"}], "seed": 9}
    ).get_json()  # a game the lobby holds: its table says how it stands, nothing is read
    listed(client)
    assert stored.reads == 4  # the four games of the store that the server does not hold
    listed(client)
    assert stored.reads == 4  # nothing read again
    game = Game.resume(FileStore(tmp_path / "data", prefix="web-"), "playing")
    game.issue(bot_command(game, make_bot("random")))
    game.close()
    listed(client)
    assert stored.reads == 5  # the game that moved, and only it
    assert live["id"]  # still held by the lobby, never read from the store


def test_a_damaged_stored_game_is_left_out_of_the_list_and_refused_in_words(app, tmp_path):
    path = tmp_path / "data" / f"web-{app.stored_games['won'].game_id}.dmlog"
    data = bytearray(path.read_bytes())
    data[-20] ^= 0xFF
    path.write_bytes(bytes(data))
    client = app.test_client()
    assert path.name not in listed(client)
    answer = client.get(f"/api/replays/{path.name}")
    assert answer.status_code == 422 and "checksum" in answer.get_json()["error"]["message"]


def test_the_postgresql_stores_finished_games_are_listed(tmp_path, postgres_server):
    from core.store.postgres import PostgresStore

    url = postgres_server.fresh_schema()
    store = PostgresStore(url)
    won, playing = bot_game(5), Game.new(["Ann", "Bo"], 6, game_id="pg-playing")
    for game in (won, playing):
        scan, batches = load_batches_bytes(game.export())
        import_log(store, scan, batches).close()
    store.close()
    app = make_app(tmp_path, STORE_URL=url)
    try:
        client = app.test_client()
        found = listed(client)
        name = f"web-{won.game_id}.dmlog"
        assert found[name]["source"] == "store" and "web-pg-playing.dmlog" not in found
        boards = client.get(f"/api/replays/{name}/state?at={won.seq}").get_json()
        assert boards["seq"] == won.seq
        assert client.get(f"/api/replays/{name}/events").get_json()["total"] == won.seq
    finally:
        app.extensions["dice_miner"].games.close()
        app.extensions["dice_miner"].store.close()


def test_a_game_the_catalogue_lists_but_cannot_be_read_is_left_out(tmp_path):
    """Damage the catalogue does not see (a stored batch's bytes changed) shows on reading."""
    from core.store import MemoryStore

    store = MemoryStore()
    won, other = bot_game(7), bot_game(8)
    for game in (won, other):
        scan, batches = load_batches_bytes(game.export())
        import_log(store, scan, batches).close()
    payloads = store.backing[won.game_id].payloads
    payloads[3] = payloads[3][:-1] + bytes([payloads[3][-1] ^ 0x40])
    app = make_app(tmp_path, STORE=store)
    try:
        client = app.test_client()
        found = listed(client)
        assert f"web-{other.game_id}.dmlog" in found and f"web-{won.game_id}.dmlog" not in found
        answer = client.get(f"/api/replays/web-{won.game_id}.dmlog")
        assert answer.status_code == 422 and "record 4" in answer.get_json()["error"]["message"]
    finally:
        app.extensions["dice_miner"].games.close()
