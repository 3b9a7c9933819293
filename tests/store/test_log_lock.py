"""Promise 3, one writer whatever the name: the lock is on the log file itself.

Every way of naming a log (a symlink, a hard link, a relative path, ``..``, a
symlinked folder, a renamed file) leads to the same lock, so a second writer or
a repair is refused however it names the log. No lock file exists to be deleted
or left behind, and creating a log (its temporary ``<path>.new`` included)
leaves only the log, even when creators race or a crash left a stale temporary.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

import core.log.file as log_file
import core.log.lock as log_lock
from core.errors import LogError, LogLocked
from core.game import Game
from core.log import LogWriter, read_log, repair_log
from tests.support.cli_helpers import run_cli

REPO = Path(__file__).resolve().parents[2]
HEADER = {"game_id": "g-1", "mode": "multi"}


def symlink(log: Path) -> Path:
    other = log.with_name("b.dmlog")
    other.symlink_to(log)
    return other


def relative_symlink(log: Path) -> Path:
    other = log.with_name("b.dmlog")
    other.symlink_to(log.name)
    return other


def hard_link(log: Path) -> Path:
    other = log.with_name("b.dmlog")
    os.link(log, other)
    return other


def relative_path(log: Path) -> Path:
    os.chdir(log.parent)  # restored by the fixture's monkeypatch.chdir
    return Path(log.name)


def dot_dot(log: Path) -> Path:
    (log.parent / "sub").mkdir()
    return log.parent / "sub" / ".." / log.name


def symlinked_folder(log: Path) -> Path:
    folder = log.parent.parent / f"{log.parent.name}-link"
    folder.symlink_to(log.parent, target_is_directory=True)
    return folder / log.name


def renamed(log: Path) -> Path:
    other = log.with_name("b.dmlog")
    log.rename(other)
    return other


NAMINGS: dict[str, Callable[[Path], Path]] = {
    "symlink": symlink,
    "relative symlink": relative_symlink,
    "hard link": hard_link,
    "relative path": relative_path,
    "dot-dot": dot_dot,
    "symlinked folder": symlinked_folder,
    "renamed while held": renamed,
}


@pytest.fixture
def here(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # so relative_path's chdir is undone
    return tmp_path


@pytest.mark.parametrize("naming", NAMINGS, ids=list(NAMINGS))
def test_a_game_open_under_any_name_is_refused_while_its_writer_lives(here, capsys, naming):
    """The review's case: a second ``Game.open`` through another name raised nothing, both
    acknowledged moves, and the log ended damaged in the middle. Now it is refused, as
    are a raw writer and a repair, and the first writer's moves make a good log."""
    log = here / "a.dmlog"
    with Game.new(["A", "B"], seed=21, log=log) as game:
        other = NAMINGS[naming](log)
        for attempt in (Game.open, LogWriter.open, repair_log):
            with pytest.raises(LogLocked, match=f"pid={os.getpid()} ") as info:
                attempt(other)
            assert "another writer in this process" in str(info.value)
        for _ in range(3):
            game.issue(game.legal()[0])
    with Game.open(other) as again:  # released on close, whatever the name
        again.issue(again.legal()[0])
    code, out, _ = run_cli(capsys, "log", "verify", other)
    assert code == 0 and "ok: 5 records" in out, out


def test_a_writer_in_another_process_is_named_through_a_symlink(tmp_path: Path) -> None:
    log = tmp_path / "a.dmlog"
    LogWriter.create(log, HEADER, first=[b"opening"]).close()
    link = symlink(log)
    script = (
        "import sys\nfrom core.log import LogWriter\n"
        "w = LogWriter.open(sys.argv[1])\nprint('ready', flush=True)\nsys.stdin.read()\n"
    )
    with subprocess.Popen(
        [sys.executable, "-c", script, str(link)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        text=True,
    ) as child:
        try:
            assert child.stdout is not None and child.stdout.readline() == "ready\n"
            for attempt in (LogWriter.open, repair_log):
                with pytest.raises(LogLocked) as info:
                    attempt(log)
                assert f"is being written by another process (pid={child.pid} host=" in str(
                    info.value
                )
        finally:
            child.communicate("")
    with LogWriter.open(log):  # the lock died with its holder
        pass


def test_there_is_no_lock_file_to_remove_or_leave_behind(tmp_path: Path) -> None:
    """While a writer holds the log the folder holds the log alone; a clean close, a refused
    open and a refused repair leave nothing either."""
    log = tmp_path / "a.dmlog"
    with LogWriter.create(log, HEADER, first=[b"opening"]) as writer:
        assert [p.name for p in tmp_path.iterdir()] == ["a.dmlog"]
        with pytest.raises(LogLocked):
            LogWriter.open(log)
        writer.append(b"more")
    assert [p.name for p in tmp_path.iterdir()] == ["a.dmlog"]
    notes = tmp_path / "README.md"
    notes.write_text("# not a log\n")
    for attempt in (LogWriter.open, repair_log, Game.open):
        with pytest.raises(LogError, match="not a Dice Miner log"):
            attempt(notes)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md", "a.dmlog"]


def test_the_holder_is_unknown_where_the_system_does_not_list_locks(tmp_path, monkeypatch):
    log = tmp_path / "a.dmlog"
    monkeypatch.setattr(log_lock, "PROC_LOCKS", str(tmp_path / "no-such-file"))
    with LogWriter.create(log, HEADER), pytest.raises(LogLocked) as info:
        LogWriter.open(log)
    assert str(info.value) == f"{log} is being written by another writer (holder unknown)"


@pytest.mark.parametrize("make", ["directory", "fifo"])
def test_only_a_regular_file_is_opened_as_a_log(tmp_path: Path, make: str) -> None:
    path = tmp_path / "x.dmlog"
    path.mkdir() if make == "directory" else os.mkfifo(path)
    for attempt in (LogWriter.open, repair_log):
        with pytest.raises(LogError, match=r"is a directory|not a regular file"):
            attempt(path)
    with pytest.raises(LogError, match=r"is a directory|already exists"):
        LogWriter.create(path, HEADER)


def test_a_new_log_in_a_missing_folder_says_so(tmp_path: Path) -> None:
    with pytest.raises(LogError, match=r"the folder .*missing does not exist$"):
        LogWriter.create(tmp_path / "missing" / "x.dmlog", HEADER)
    (tmp_path / "file").write_text("")
    with pytest.raises(LogError, match=r"the folder .*file is not a folder$"):
        LogWriter.create(tmp_path / "file" / "x.dmlog", HEADER)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


# --- creating ----------------------------------------------------------------------


def test_racing_creators_make_one_log_and_leave_nothing_else(tmp_path, monkeypatch) -> None:
    """Eight threads create the same log at once (each write slowed so they overlap): one
    wins, the others are told it exists or is being created, and only the log is left."""
    log = tmp_path / "race.dmlog"
    real_write_all = log_file._write_all
    gate = threading.Barrier(8)

    def slow(fd: int, data: bytes) -> None:
        threading.Event().wait(0.05)
        real_write_all(fd, data)

    monkeypatch.setattr(log_file, "_write_all", slow)
    won: list[LogWriter] = []
    refused: list[LogError] = []

    def create(n: int) -> None:
        gate.wait()
        try:
            won.append(LogWriter.create(log, {**HEADER, "creator": n}, first=[b"%d" % n]))
        except LogError as exc:
            refused.append(exc)

    threads = [threading.Thread(target=create, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(won) == 1 and len(refused) == 7
    for exc in refused:
        assert "already exists" in str(exc) or "is being created by" in str(exc), exc
    (writer,) = won
    with writer:
        writer.append(b"after")
    scan = read_log(log)
    assert scan.payloads == (b"%d" % scan.header["creator"], b"after")
    assert [p.name for p in tmp_path.iterdir()] == ["race.dmlog"]


@pytest.mark.parametrize("links", [True, False], ids=["hard links", "no hard links"])
def test_a_name_taken_while_creating_is_never_replaced(tmp_path, monkeypatch, links) -> None:
    """Another program makes the file while the header is being written: the create is
    refused, that file is untouched, and no temporary file is left."""
    log = tmp_path / "game.dmlog"
    real_write_all = log_file._write_all

    def intruder(fd: int, data: bytes) -> None:
        log.write_bytes(b"someone else's")
        real_write_all(fd, data)

    def no_links(src: str, dst: str) -> None:
        raise OSError(log_file.errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(log_file, "_write_all", intruder)
    if not links:
        monkeypatch.setattr(os, "link", no_links)
    with pytest.raises(LogError, match="already exists"):
        LogWriter.create(log, HEADER)
    assert log.read_bytes() == b"someone else's"
    assert [p.name for p in tmp_path.iterdir()] == ["game.dmlog"]


def test_a_creation_in_progress_is_not_disturbed(tmp_path: Path) -> None:
    """A ``.new`` whose lock is held (a creator at work) is neither reused nor removed."""
    log = tmp_path / "game.dmlog"
    temp = Path(f"{log}.new")
    temp.write_bytes(b"another creator's header")
    fd = os.open(temp, os.O_RDWR)
    try:
        log_lock.lock(fd, str(log), doing="created")
        with pytest.raises(LogLocked, match=f"{log} is being created by .*pid={os.getpid()} "):
            LogWriter.create(log, HEADER)
        assert temp.read_bytes() == b"another creator's header"
    finally:
        os.close(fd)
    LogWriter.create(log, HEADER).close()  # once it lets go (it crashed), it is reused
    assert [p.name for p in tmp_path.iterdir()] == ["game.dmlog"]


def test_a_stale_temporary_naming_another_log_never_touches_it(tmp_path: Path) -> None:
    """A crash between naming a log and dropping ``.new`` leaves ``.new`` as a second
    name of that log; if the log was then renamed, the next create of the old name
    drops that name and never empties the log."""
    log = tmp_path / "game.dmlog"
    LogWriter.create(log, HEADER, first=[b"precious"]).close()
    os.link(log, f"{log}.new")  # the crash's leftover
    log.rename(tmp_path / "kept.dmlog")
    LogWriter.create(log, HEADER, first=[b"new"]).close()
    assert read_log(tmp_path / "kept.dmlog").payloads == (b"precious",)
    assert read_log(log).payloads == (b"new",)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.dmlog", "kept.dmlog"]


def test_a_symlink_planted_as_the_temporary_is_not_followed(tmp_path: Path) -> None:
    log = tmp_path / "game.dmlog"
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me")
    Path(f"{log}.new").symlink_to(precious)
    with pytest.raises(LogError, match="cannot create log"):
        LogWriter.create(log, HEADER)
    assert precious.read_text() == "keep me" and not log.exists()


def test_a_holder_that_lets_go_while_being_named_is_not_a_refusal(tmp_path, monkeypatch):
    """The lock is refused, and its holder closes before ``/proc/locks`` is read: the lock
    is free, so it is taken rather than refused with an unknown holder."""
    log = tmp_path / "a.dmlog"
    holder = LogWriter.create(log, HEADER)
    real_holder_pid = log_lock.holder_pid

    def holder_closes_meanwhile(fd: int) -> int | None:
        holder.close()
        return real_holder_pid(fd)

    monkeypatch.setattr(log_lock, "holder_pid", holder_closes_meanwhile)
    with LogWriter.open(log) as writer:
        writer.append(b"mine")
    assert read_log(log).payloads == (b"mine",)
