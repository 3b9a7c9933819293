"""Take-up mends a crash's footprints with no person: a torn final record is set aside
(its bytes kept), and a game that ended without revealing its secret reveals it."""

from __future__ import annotations

import hashlib

from core.bots import make_bot
from core.bots.play import bot_command
from core.game import Game
from core.host.takeup import TakeUp
from core.store import FileStore, Seating, SeatRecord
from core.verify import provenance, rerun

SECRET = bytes(range(32))
SEATS = (SeatRecord("Ada", "random"), SeatRecord("Brok", "random"))


def take_up(store: FileStore) -> tuple[TakeUp, list, list[str]]:
    said: list[str] = []
    takeup = TakeUp(store, limit=10, pace_of=lambda _: 0.0, say=said.append)
    return takeup, takeup.tables(10), said


def played(store: FileStore, game_id: str, *, secret: bytes | None, moves: int | None) -> Game:
    """A game of two random bots, ``moves`` commands long (None: to its end), never revealed."""
    seating = Seating(SEATS, secret=secret.hex() if secret else None)
    game = Game.new(
        ["Ada", "Brok"], None if secret else 7, secret=secret, game_id=game_id, store=store,
        seating=seating,
    )  # fmt: skip
    bot, n = make_bot("random"), 0
    while not game.state.is_over and (moves is None or n < moves):
        game.issue(bot_command(game, bot))
        n += 1
    return game


def test_a_torn_final_record_is_set_aside_on_take_up_and_the_game_goes_on(tmp_path):
    """A full disk mid-game left a torn record that blocked take-up until someone ran
    ``log repair`` by hand."""
    store = FileStore(tmp_path)
    game = played(store, "torn", secret=None, moves=12)
    whole = game.seq - len(game.batches()[-1].events)
    game.close()
    log = store.log_path("torn")
    data = log.read_bytes()
    log.write_bytes(data[:-5])  # the last append cut short
    _, tables, said = take_up(store)
    [table] = tables
    try:
        [line] = said
        side = next(tmp_path.glob("*.torn-*"))
        assert line.startswith(f"{log}: its final record was torn") and str(side) in line
        assert log.read_bytes() + side.read_bytes() == data[:-5]  # not a byte lost
        assert table.playable and table.game.seq == whole
    finally:
        table.game.close()


def test_a_game_that_ended_without_its_reveal_is_revealed_on_take_up(tmp_path):
    """The disk filling between the last move and the reveal left a game that could never
    be verified, even after repair and restart."""
    store = FileStore(tmp_path)
    game = played(store, "secret", secret=SECRET, moves=None)
    assert game.state.is_over and game.state.facts.secret_dice
    game.close()
    takeup, tables, said = take_up(store)
    [table] = tables
    try:
        assert not table.playable
        assert table.game.state.facts.revealed == SECRET.hex()
        [line] = said
        assert "revealed now" in line and takeup.report.recovered == [line]
    finally:
        table.game.close()
    batches = Game.load(store.log_path("secret")).batches()
    assert provenance(batches).kind == "revealed" and rerun(batches) is None
    assert hashlib.sha256(SECRET).hexdigest() == provenance(batches).commitment
