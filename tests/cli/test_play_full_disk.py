"""The terminal on a full disk: one line, never a traceback, never a save it did not make.

The disk filling mid-game showed a traceback, then said the game was saved. Here the
log lives on a tiny tmpfs that is then filled (as root, where ``mount`` works), else
the writes fail as a full disk fails them (ENOSPC, injected below the log writer).
"""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
import uuid
from pathlib import Path

import pytest

from core.game import Game
from core.log import file as log_file
from frontends.cli import play
from frontends.cli.tui.session import Session
from frontends.cli.tui.table import Seat


@contextlib.contextmanager
def tiny_disk(tmp_path: Path):
    """A folder on a 256 KiB tmpfs, or None where none can be mounted."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    if os.geteuid() != 0:
        yield None
        return
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", f"tiny-{uuid.uuid4().hex[:8]}", str(folder)],
        capture_output=True,
    )
    if mounted.returncode != 0:
        yield None
        return
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> None:
    """Take every byte left on the file system of ``folder``."""
    with open(folder / "filler", "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC


@pytest.fixture(params=["tmpfs", "injected"])
def full_disk(request, tmp_path, monkeypatch):
    """A log's path whose disk fills after the game is created: call the second item."""
    if request.param == "tmpfs":
        with tiny_disk(tmp_path) as folder:
            if folder is None:
                pytest.skip("no tmpfs can be mounted here (not root): the injected case runs")
            yield folder / "g.dmlog", lambda: fill(folder)
        return

    def no_space(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    yield tmp_path / "g.dmlog", lambda: monkeypatch.setattr(log_file, "_write_all", no_space)


def test_a_full_disk_mid_game_is_one_line_and_claims_no_save(full_disk):
    path, make_it_full = full_disk
    game = Game.new(["You", "Brok"], 3, log=path)
    session = Session(game, (Seat("You"), Seat("Brok")), path)
    make_it_full()
    saved = path.stat().st_size
    while session.failed is None and not game.state.is_over:  # the page's slack fills first
        saved = path.stat().st_size
        if session.human_to_act() is None:
            move = session.table.decide_bot()
            assert move is not None
            session.play_bot(move)
        else:  # no exception escapes: the game stops, saying so
            session.issue(game.legal()[0])
    assert session.failed is not None and "No space left on device" in session.failed
    assert session.status_kind == "error" and "\n" not in session.status
    assert session.issue(game.legal()[0]) is False  # and stays stopped, saying so
    game.close()
    code, words = play.farewell(session, game, path)
    assert code == 2 and "\n" not in words and "stopped" in words
    assert "saved in" not in words and "No space left on device" in words
    assert Game.load(path, drop_torn=True).seq <= game.seq and path.stat().st_size >= saved
