"""Log files on disk: reading, tailing, the single appending writer, and repair.

The rules this module keeps, and why:

* Append only. The writer opens with ``O_APPEND`` and never seeks or rewrites;
  the only thing that ever removes bytes is ``repair_log``, and it removes only a
  torn final record, after copying it to a side file.
* Durable before acknowledged. ``append`` returns only after ``fsync`` (unless
  ``sync=False``), and ``create`` also syncs the directory so the file's name
  survives a crash.
* Whole or absent. ``create`` writes the header and first records into
  ``<path>.new`` and hard-links it into place, so a log never exists without
  them; ``link`` never replaces a name, so of two racing creators one wins.
* One writer. An exclusive ``flock`` on the log file itself, through the
  writer's own descriptor, guards every writer and repair. The lock belongs to
  the file (its inode), not to a name: a symlink, a hard link or a relative path
  leads to the same lock, and there is no lock file to delete or leave behind.
  flock belongs to an open file description, so two writers in one process
  conflict just like two processes. A new log is locked before it has its name.
* Fail stop. A write or fsync that fails leaves the writer unusable: appending
  after a half-written frame would bury garbage in the middle of the log.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from core.errors import LogChanged, LogDamaged, LogError
from core.log.framing import (
    PREAMBLE_SIZE,
    LogScan,
    encode_frame,
    encode_log,
    read_log_bytes,
    scan_frames,
)
from core.log.lock import lock

Path = str | os.PathLike[str]


def read_log(path: Path, *, drop_torn: bool = False) -> LogScan:
    """Read and verify a whole log file (one read; see ``read_log_bytes``)."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise LogError(f"{name}: cannot read log ({exc.strerror or exc})") from exc
    return read_log_bytes(data, path=name, drop_torn=drop_torn)


def follow_log(path: Path, offset: int, record: int) -> tuple[list[bytes], int, int]:
    """The complete batch records a writer has added since byte ``offset``.

    ``offset`` must be the start of batch record number ``record`` (for example
    ``scan.end`` and ``scan.records + 1`` after ``read_log``). Returns the new
    payloads, the next offset and the next record number. A frame still being
    written is simply not returned yet; damage raises ``LogDamaged``.
    """
    name = os.fspath(path)
    if record < 1 or offset < PREAMBLE_SIZE:
        raise ValueError(f"follow_log starts at a batch record, not {offset=} {record=}")
    try:
        with open(name, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size < offset:
                raise LogError(
                    f"{name}: log is {size} bytes, shorter than offset {offset}"
                    " (repaired or replaced?)"
                )
            f.seek(offset)
            data = f.read()
    except OSError as exc:
        raise LogError(f"{name}: cannot read log ({exc.strerror or exc})") from exc
    frames = scan_frames(data, 0, record, name, base=offset)
    return frames.payloads, frames.end, frames.record


# --- opening and reading through a descriptor --------------------------------------


def _open_log(name: str, flags: int, doing: str) -> int:
    """Open an existing log; a missing file, a directory or a non-file is a ``LogError``."""
    try:
        fd = os.open(name, flags)
    except IsADirectoryError:
        raise LogError(f"{name}: is a directory, not a log") from None
    except OSError as exc:
        raise LogError(f"{name}: cannot {doing} log ({exc.strerror or exc})") from exc
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise LogError(f"{name}: not a regular file, so not a log")
    return fd


def _read_fd(fd: int, name: str, *, drop_torn: bool = False) -> tuple[bytes, LogScan]:
    """The whole file ``fd`` and its scan, read through the descriptor holding the lock
    (so it is the locked file, whatever its name now leads to)."""
    chunks, offset = [], 0
    try:
        size = os.fstat(fd).st_size
        while chunk := os.pread(fd, max(size - offset, 1 << 16), offset):
            chunks.append(chunk)
            offset += len(chunk)
    except OSError as exc:
        raise LogError(f"{name}: cannot read log ({exc.strerror or exc})") from exc
    data = b"".join(chunks)
    return data, read_log_bytes(data, path=name, drop_torn=drop_torn)


# --- low-level I/O (module functions so tests can simulate failures) --------------


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _fsync(fd: int) -> None:
    os.fsync(fd)


def _publish(temp: str, name: str) -> None:
    """Give the finished file ``temp`` the name ``name``, never replacing an existing file."""
    try:
        os.link(temp, name)
    except FileExistsError:
        raise
    except OSError as exc:  # a file system without hard links: rename, safe under temp's lock
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK):
            raise
        if os.path.lexists(name):
            raise FileExistsError(errno.EEXIST, "File exists", name) from None
        os.rename(temp, name)
        return
    with contextlib.suppress(OSError):  # the log is whole and named; a leftover name is harmless
        os.unlink(temp)


def _fsync_dir(path: str) -> None:
    fd = os.open(os.path.dirname(path) or ".", os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# --- creating ----------------------------------------------------------------------

#: How often ``_claim_temp`` tries again when another creator changed ``<path>.new`` under it.
_CLAIM_TRIES = 100


def _refuse_taken(name: str) -> None:
    """Refuse a name already in use, before anything is written."""
    if os.path.isdir(name):
        raise LogError(f"{name}: is a directory; a new log needs a file name")
    if os.path.lexists(name):
        raise LogError(f"{name}: log already exists")


def _create_error(name: str, exc: OSError) -> LogError:
    """Why a new log cannot be made there, saying so when its folder is the problem."""
    folder = os.path.dirname(name) or "."
    if isinstance(exc, (FileNotFoundError, NotADirectoryError)) and not os.path.isdir(folder):
        what = "is not a folder" if os.path.lexists(folder) else "does not exist"
        return LogError(f"{name}: cannot create log: the folder {folder} {what}")
    return LogError(f"{name}: cannot create log ({exc.strerror or exc})")


def _claim_temp(name: str) -> int:
    """Open, lock and empty ``<name>.new``, where a new log is written before it is named.

    Its lock makes one creator of ``name`` at a time (another gets ``LogLocked``).
    A stale one, left by a crash while creating, is unlocked and reused. Every
    creator removes it, under its lock, when done, so it may vanish or be made
    again between our open and our lock: then we open it again.
    """
    temp = name + ".new"
    for _ in range(_CLAIM_TRIES):
        try:
            fd = os.open(temp, os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW, 0o644)
        except OSError as exc:
            raise _create_error(name, exc) from exc
        try:
            if _own_temp(fd, temp, name):
                return fd
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
    raise LogError(f"{name}: cannot create log (other programs keep changing {temp})")


def _own_temp(fd: int, temp: str, name: str) -> bool:
    """Lock ``fd`` (opened as ``temp``) and empty it; False if ``temp`` is no longer it."""
    lock(fd, name, doing="created")
    mine = os.fstat(fd)
    try:
        named = os.stat(temp, follow_symlinks=False)
    except FileNotFoundError:
        return False  # its creator finished with it after we opened it
    if not os.path.samestat(mine, named):
        return False
    if not stat.S_ISREG(mine.st_mode):
        raise LogError(f"{name}: cannot create log ({temp} is not a regular file)")
    try:
        if mine.st_nlink > 1:  # a crash between naming a log and dropping this name:
            os.unlink(temp)  # the name goes, the log it also names stays
            return False
        os.ftruncate(fd, 0)  # a crash's half-written leftover
    except OSError as exc:
        raise _create_error(name, exc) from exc
    return True


# --- the writer --------------------------------------------------------------------


class LogWriter:
    """The one appender of a log file. Use as a context manager, or call ``close``."""

    path: str
    #: The verified scan made by ``create`` or ``open`` (not updated by appends).
    scan: LogScan
    #: What ``open(..., drop_torn=True)`` repaired, if anything.
    repaired: RepairResult | None

    def __init__(
        self, path: str, fd: int, scan: LogScan, sync: bool, repaired: RepairResult | None
    ) -> None:
        """Use ``create`` or ``open``: ``fd`` is the log, open for appending and locked."""
        self.path = path
        self.scan = scan
        self.repaired = repaired
        self._fd: int | None = fd
        self._sync = sync
        self._end = scan.end
        self._records = scan.records
        self._failed: BaseException | None = None

    @classmethod
    def create(
        cls,
        path: Path,
        header: dict[str, Any],
        *,
        sync: bool = True,
        first: Sequence[bytes] = (),
    ) -> LogWriter:
        """Create a new log holding ``header`` (``"format"`` is added) and the records
        ``first``; fail if the name is taken.

        The preamble, header and first records are written and synced into
        ``<path>.new`` (locked, see ``_claim_temp``), which is then hard-linked to
        ``path``: a crash leaves either no log or a whole one, never a file cut
        inside its header (which no repair could keep), and the log is locked
        from the moment it has its name. A game passes its opening batch as
        ``first``, so no log ever holds a header without the game it announces.
        """
        name = os.fspath(path)
        data = encode_log(header, first)
        try:  # a header this program could not read back must never reach the disk
            scan = read_log_bytes(data, path=name)
        except LogDamaged as exc:
            raise ValueError(f"log header cannot be read back: {exc.reason}") from exc
        _refuse_taken(name)
        fd = _claim_temp(name)
        temp, named = name + ".new", False
        try:
            _write_all(fd, data)
            if sync:
                _fsync(fd)
            _publish(temp, name)
            named = True
            if sync:
                _fsync_dir(name)
        except BaseException as exc:
            if not named:  # still ours: only the holder of its lock removes it
                with contextlib.suppress(OSError):
                    os.unlink(temp)
            os.close(fd)
            if isinstance(exc, FileExistsError):
                raise LogError(f"{name}: log already exists") from None
            if isinstance(exc, OSError):
                raise _create_error(name, exc) from exc
            raise
        return cls(name, fd, scan, sync, None)

    @classmethod
    def open(cls, path: Path, *, sync: bool = True, drop_torn: bool = False) -> LogWriter:
        """Open an existing log for appending after locking it and verifying all of it.

        Any damage raises. A torn final record raises ``TornRecord`` too, unless
        ``drop_torn``, which first repairs it exactly as ``repair_log`` does (the
        torn bytes are kept in a side file) and records that in ``repaired``.
        """
        name = os.fspath(path)
        fd = _open_log(name, os.O_RDWR | os.O_APPEND, "open")
        try:
            lock(fd, name)
            repaired = _repair_locked(fd, name) if drop_torn else None
            if repaired is not None and repaired.side_file is None:
                repaired = None
            _, scan = _read_fd(fd, name)
        except BaseException:
            os.close(fd)  # which releases the lock
            raise
        return cls(name, fd, scan, sync, repaired)

    @property
    def end(self) -> int:
        """The byte offset just after the last record written."""
        return self._end

    @property
    def records(self) -> int:
        """The number of batch records in the log (the header excluded)."""
        return self._records

    @property
    def closed(self) -> bool:
        return self._fd is None

    def append(self, payload: bytes) -> int:
        """Append one batch record, durably; return its record number (the first batch is 1)."""
        self._write(encode_frame(payload), 1)
        return self._records

    def append_many(self, payloads: Iterable[bytes]) -> int:
        """Append several records with one write and one fsync; return the last record number."""
        frames = [encode_frame(p) for p in payloads]  # size errors before any I/O
        if frames:
            self._write(b"".join(frames), len(frames))
        return self._records

    def _write(self, data: bytes, count: int) -> None:
        fd = self._usable_fd()
        self._check_unchanged(fd)
        try:
            _write_all(fd, data)
            if self._sync:
                _fsync(fd)
        except BaseException as exc:
            self._failed = exc
            if not isinstance(exc, OSError):
                raise
            raise LogError(
                f"{self.path}: append at byte {self._end} failed ({exc}); this writer is now"
                " unusable, and the log may end in a torn record (see repair_log)"
            ) from exc
        self._end += len(data)
        self._records += count

    def _check_unchanged(self, fd: int) -> None:
        """Refuse to append (from now on) to a log changed under this writer: its name
        now another file's (a rename over it), no name left to it (removed), or bytes it
        did not write at its end. Appending then would lose acknowledged events, or mix
        two writers' records. (The log itself moved to another name is still the log:
        its lock and its bytes go with it.)"""
        held = os.fstat(fd)
        try:
            named = os.stat(self.path)
        except FileNotFoundError:
            named = None
        if named is not None and (named.st_dev, named.st_ino) != (held.st_dev, held.st_ino):
            how = "replaced by another file (renamed over it)"
            reason = f"{self.path}: the log was {how} while this writer held it"
        elif held.st_nlink == 0:  # no name leads to what it appends: its events would be lost
            reason = f"{self.path}: the log was removed while this writer held it"
        elif held.st_size != self._end:
            reason = (
                f"{self.path}: the log changed under its writer: it is {held.st_size} bytes, "
                f"this writer ended it at byte {self._end} (another program wrote to it)"
            )
        else:
            return
        self._failed = LogChanged(f"{reason}; nothing more is appended: reopen it to go on")
        raise self._failed

    def _usable_fd(self) -> int:
        if self._fd is None:
            raise LogError(f"{self.path}: writer is closed")
        if isinstance(self._failed, LogChanged):
            raise self._failed
        if self._failed is not None:
            raise LogError(
                f"{self.path}: writer is unusable after a failed append; reopen the log"
            ) from self._failed
        return self._fd

    def close(self) -> None:
        """Close the file, which releases the lock; safe to call twice."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else "failed" if self._failed else "open"
        return f"<LogWriter {self.path!r} {state} records={self._records} end={self._end}>"


# --- repair ------------------------------------------------------------------------


@attrs.frozen
class RepairResult:
    """What ``repair_log`` did: ``side_file`` is None when there was nothing to drop."""

    path: str
    #: Batch records in the log after repair (the header excluded).
    kept_records: int
    removed_bytes: int
    side_file: str | None


def repair_log(path: Path) -> RepairResult:
    """Drop a torn final record, keeping its bytes in ``<path>.torn-<offset>``.

    A good log is left untouched. Any other damage raises that ``LogDamaged``
    and changes nothing: only a crash's footprint is ever removed automatically.
    A log being written is refused (``LogLocked``): repair takes the writer's lock.
    """
    name = os.fspath(path)
    fd = _open_log(name, os.O_RDWR, "repair")
    try:
        lock(fd, name)
        return _repair_locked(fd, name)
    finally:
        os.close(fd)


def _repair_locked(fd: int, name: str) -> RepairResult:
    data, scan = _read_fd(fd, name, drop_torn=True)
    if scan.torn is None:
        return RepairResult(name, scan.records, 0, None)
    tail = data[scan.end :]
    try:
        side = _save_side_file(name, scan.end, tail)
        os.ftruncate(fd, scan.end)
        _fsync(fd)
    except OSError as exc:
        raise LogError(f"{name}: cannot repair log ({exc.strerror or exc})") from exc
    return RepairResult(name, scan.records, len(tail), side)


def _save_side_file(name: str, offset: int, tail: bytes) -> str:
    """Write ``tail`` to a new side file and sync it; reuse one already holding exactly it.

    A side file that cannot be written whole (a full disk) is removed again: a
    repair that fails leaves nothing half-made behind.
    """
    base = f"{name}.torn-{offset}"
    for n in range(100):
        side = base if n == 0 else f"{base}.{n}"
        try:
            fd = os.open(side, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            with open(side, "rb") as f:
                if f.read() == tail:  # an earlier repair saved it, then crashed before truncating
                    return side
            continue
        try:
            _write_all(fd, tail)
            _fsync(fd)
        except BaseException:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(side)
            raise
        os.close(fd)
        _fsync_dir(side)
        return side
    raise LogError(f"{name}: too many side files named {base}.*; clean them up")
