"""A log changed under its running writer is noticed, and nothing more is appended.

A log replaced by rename under a running server lost 13 of 22 acknowledged events (the
writer went on appending to the file no name led to any more) and let two servers write
one game. The writer now checks, before each append, that its name still leads to the
file it holds and that the file ends where it left it; otherwise it refuses, for good,
and a table over it stops saying why.
"""

from __future__ import annotations

import os
import re
import shutil

import pytest

from core.bots import make_bot
from core.bots.play import bot_command
from core.errors import LogChanged, StoreUnavailable
from core.game import Game
from core.host.table import Table
from core.store import FileStore, Seating, SeatRecord


def started(path) -> Game:
    game = Game.new(["Ada", "Brok"], 9, log=path)
    bot = make_bot("random")
    for _ in range(3):
        game.issue(bot_command(game, bot))
    return game


def replace_by_rename(path) -> None:
    shutil.copyfile(path, f"{path}.copy")
    os.replace(f"{path}.copy", path)


def append_junk(path) -> None:
    with open(path, "ab") as f:  # a program that ignores the writer's lock
        f.write(b"\x00" * 16)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (replace_by_rename, "replaced by another file (renamed over it)"),
        (os.unlink, "the log was removed while this writer held it"),
        (append_junk, "another program wrote to it"),
    ],
)
def test_an_append_to_a_log_changed_under_its_writer_is_refused_for_good(tmp_path, change, words):
    path = tmp_path / "g.dmlog"
    game = started(path)
    with game:
        change(path)
        after = path.read_bytes() if path.exists() else None
        bot = make_bot("random")
        command = bot_command(game, bot)
        for _ in range(2):  # and again: the writer stays refused
            with pytest.raises(LogChanged, match=re.escape(words)):
                game.issue(command)
        assert (path.read_bytes() if path.exists() else None) == after


def test_a_table_over_a_log_replaced_under_it_stops_saying_why(tmp_path):
    store = FileStore(tmp_path)
    seating = Seating((SeatRecord("Ada"), SeatRecord("Brok")))
    game = Game.new(["Ada", "Brok"], 9, game_id="swap", store=store, seating=seating)
    table = Table(game, seating)
    try:
        replace_by_rename(store.log_path("swap"))
        seat = game.state.to_act()
        assert seat is not None
        with pytest.raises(StoreUnavailable, match="the game stopped"):
            table.issue(seat, game.legal()[0])
        assert table.stopped is not None and "renamed over it" in table.stopped
    finally:
        game.close()
