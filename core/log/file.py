"""Log files on disk: reading, tailing, the single appending writer, and repair.

The rules this module keeps, and why:

* Append only. The writer opens with ``O_APPEND`` and never seeks or rewrites;
  the only thing that ever removes bytes is ``repair_log``, and it removes only a
  torn final record, after copying it to a side file.
* Durable before acknowledged. ``append`` returns only after ``fsync`` (unless
  ``sync=False``), and ``create`` also syncs the directory so the file's name
  survives a crash.
* Whole or absent. ``create`` writes the header under a temporary name and links
  it into place, so a log never exists without its complete header.
* One writer. An exclusive ``flock`` on ``<path>.lock`` (a sidecar, so readers
  never need it) guards every writer and repair. flock belongs to an open file
  description, so two writers in one process conflict just like two processes.
* Fail stop. A write or fsync that fails leaves the writer unusable: appending
  after a half-written frame would bury garbage in the middle of the log.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import socket
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from core.errors import LogDamaged, LogError, LogLocked
from core.log.framing import (
    PREAMBLE_SIZE,
    LogScan,
    encode_frame,
    encode_log,
    read_log_bytes,
    scan_frames,
)

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


# --- the writer lock ---------------------------------------------------------------


def _lock(path: str) -> int:
    """Take the exclusive writer lock on ``<path>.lock``; return its descriptor."""
    lock_path = path + ".lock"
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise LogError(f"{path}: cannot open lock file ({exc.strerror or exc})") from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _read_holder(fd)
        os.close(fd)
        mine = f"pid={os.getpid()} host={socket.gethostname()}"
        who = "another writer in this process" if holder == mine else "another process"
        holder = holder or "holder unknown"
        raise LogLocked(f"{path} is being written by {who} ({holder})") from None
    except BaseException:
        os.close(fd)
        raise
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid={os.getpid()} host={socket.gethostname()}\n".encode(), 0)
    except OSError:
        pass  # the lock is what matters; the holder note is only for error messages
    return fd


def _read_holder(fd: int) -> str:
    try:
        return os.pread(fd, 512, 0).decode("utf-8", "replace").strip()
    except OSError:
        return ""


def _unlock(fd: int) -> None:
    """Release the lock. The lock file stays: deleting it would race a new locker."""
    with contextlib.suppress(OSError):
        os.ftruncate(fd, 0)
    os.close(fd)  # closing the last descriptor releases the flock


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
    except OSError as exc:  # a file system without hard links: rename, safe under the lock
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK):
            raise
        if os.path.lexists(name):
            raise FileExistsError(errno.EEXIST, "File exists", name) from None
        os.rename(temp, name)
        return
    os.unlink(temp)


def _fsync_dir(path: str) -> None:
    fd = os.open(os.path.dirname(path) or ".", os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# --- the writer --------------------------------------------------------------------


class LogWriter:
    """The one appender of a log file. Use as a context manager, or call ``close``."""

    path: str
    #: The verified scan made by ``create`` or ``open`` (not updated by appends).
    scan: LogScan
    #: What ``open(..., drop_torn=True)`` repaired, if anything.
    repaired: RepairResult | None

    def __init__(
        self,
        path: str,
        fd: int,
        lock_fd: int,
        scan: LogScan,
        sync: bool,
        repaired: RepairResult | None,
    ) -> None:
        """Use ``create`` or ``open``."""
        self.path = path
        self.scan = scan
        self.repaired = repaired
        self._fd: int | None = fd
        self._lock_fd: int | None = lock_fd
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
        ``first``; fail if it exists.

        The preamble, header and first records are written and synced under the
        temporary name ``<path>.new`` first, then linked to ``path``: a crash leaves
        either no log or a whole one, never a file cut inside its header (which no
        repair could keep). A game passes its opening batch as ``first``, so no log
        ever holds a header without the game it announces. A stale ``.new`` from
        such a crash is reused, under the lock.
        """
        name = os.fspath(path)
        data = encode_log(header, first)
        try:  # a header this program could not read back must never reach the disk
            scan = read_log_bytes(data, path=name)
        except LogDamaged as exc:
            raise ValueError(f"log header cannot be read back: {exc.reason}") from exc
        lock_fd = _lock(name)
        try:
            if os.path.lexists(name):
                raise LogError(f"{name}: log already exists")
            temp = name + ".new"
            try:
                fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o644)
            except OSError as exc:
                raise LogError(f"{name}: cannot create log ({exc.strerror or exc})") from exc
            try:
                _write_all(fd, data)
                if sync:
                    _fsync(fd)
                _publish(temp, name)
                if sync:
                    _fsync_dir(name)
            except BaseException as exc:
                os.close(fd)
                with contextlib.suppress(OSError):
                    os.unlink(temp)
                if isinstance(exc, FileExistsError):
                    raise LogError(f"{name}: log already exists") from None
                if isinstance(exc, OSError):
                    raise LogError(f"{name}: cannot create log ({exc.strerror or exc})") from exc
                raise
        except BaseException:
            _unlock(lock_fd)
            raise
        return cls(name, fd, lock_fd, scan, sync, None)

    @classmethod
    def open(cls, path: Path, *, sync: bool = True, drop_torn: bool = False) -> LogWriter:
        """Open an existing log for appending after verifying all of it.

        Any damage raises. A torn final record raises ``TornRecord`` too, unless
        ``drop_torn``, which first repairs it exactly as ``repair_log`` does (the
        torn bytes are kept in a side file) and records that in ``repaired``.
        """
        name = os.fspath(path)
        try:  # opened before locking, so a wrong path leaves no stray lock file behind
            fd = os.open(name, os.O_WRONLY | os.O_APPEND)
        except OSError as exc:
            raise LogError(f"{name}: cannot open log ({exc.strerror or exc})") from exc
        try:
            lock_fd = _lock(name)
        except BaseException:
            os.close(fd)
            raise
        try:
            repaired = _repair_locked(name) if drop_torn else None
            if repaired is not None and repaired.side_file is None:
                repaired = None
            scan = read_log(name)
            if os.fstat(fd).st_size != scan.size:
                raise LogError(f"{name}: log changed while being opened (another program writing?)")
        except BaseException:
            os.close(fd)
            _unlock(lock_fd)
            raise
        return cls(name, fd, lock_fd, scan, sync, repaired)

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

    def _usable_fd(self) -> int:
        if self._fd is None:
            raise LogError(f"{self.path}: writer is closed")
        if self._failed is not None:
            raise LogError(
                f"{self.path}: writer is unusable after a failed append; reopen the log"
            ) from self._failed
        return self._fd

    def close(self) -> None:
        """Close the file and release the lock; safe to call twice."""
        fd, self._fd = self._fd, None
        lock_fd, self._lock_fd = self._lock_fd, None
        try:
            if fd is not None:
                os.close(fd)
        finally:
            if lock_fd is not None:
                _unlock(lock_fd)

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
    """
    name = os.fspath(path)
    if not os.path.isfile(name):  # checked first, so a wrong path leaves no stray lock file
        raise LogError(f"{name}: cannot repair log (no such file)")
    lock_fd = _lock(name)
    try:
        return _repair_locked(name)
    finally:
        _unlock(lock_fd)


def _repair_locked(name: str) -> RepairResult:
    scan = read_log(name, drop_torn=True)
    torn = scan.torn
    if torn is None:
        return RepairResult(name, scan.records, 0, None)
    with open(name, "rb") as f:
        f.seek(scan.end)
        tail = f.read()
    if len(tail) != scan.size - scan.end:
        raise LogError(f"{name}: log changed during repair (another program writing?)")
    try:
        side = _save_side_file(name, scan.end, tail)
        fd = os.open(name, os.O_WRONLY)
        try:
            if os.fstat(fd).st_size != scan.size:
                raise LogError(f"{name}: log changed during repair (another program writing?)")
            os.ftruncate(fd, scan.end)
            _fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise LogError(f"{name}: cannot repair log ({exc.strerror or exc})") from exc
    return RepairResult(name, scan.records, len(tail), side)


def _save_side_file(name: str, offset: int, tail: bytes) -> str:
    """Write ``tail`` to a new side file and sync it; reuse one already holding exactly it."""
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
        finally:
            os.close(fd)
        _fsync_dir(side)
        return side
    raise LogError(f"{name}: too many side files named {base}.*; clean them up")
