"""The file store: each game a log file (``core.log``), in a folder that is the catalogue.

A game's log is ``<folder>/<prefix><id>.dmlog``, byte for byte the format of
``docs/reference/log-format.md``; its seating is ``<prefix><id>.seats.json`` beside it
(``core.store.seatfile``). A stream opened for writing holds the log's writer
lock, so one process at a time appends to a game; any number may read and
follow it. This is the embedded default: it needs nothing but a disk.

A lone log file outside any folder (the terminal's games, a file named on the
command line) is a ``FileStream`` too: ``FileStream.create``, ``.open`` and
``.read`` take its path.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from core.errors import (
    EventFormatError,
    EventVersionError,
    GameExists,
    GameNotFound,
    LogDamaged,
    LogError,
    LogVersionError,
    StoreConflict,
    StoreUnavailable,
)
from core.events.codec import Batch, decode_batch, decode_record, encode_batch
from core.log import LogScan, LogWriter, follow_log, read_log, read_log_bytes
from core.log.framing import FRAME_OVERHEAD, encode_log
from core.store.base import GameEntry, Seating, check_batches, check_game_id
from core.store.seatfile import read_seating, write_seating

#: How often a follower looks at a log another process is appending to, in seconds.
POLL_SECONDS = 0.05


def decode_scan(scan: LogScan, requests: Requests | None = None) -> list[Batch]:
    """Decode a scanned log's batches, checking they run on without gaps (and, given
    ``requests``, noting there the seqs of each request a record answers).

    Content that passed its checksum but is not a valid batch is still damage:
    it is reported with the record's offset, never skipped. The first damage
    in the log is the one reported, whichever check finds it.
    """
    batches: list[Batch] = []
    failure = None
    try:  # the whole log in one pass (the hot path); the failing record is the next one
        for payload in scan.payloads:
            batch, request = decode_record(payload)
            batches.append(batch)
            if request is not None and requests is not None:
                note_request(requests, request, batch)
    except (EventVersionError, EventFormatError) as exc:
        failure = exc
    seq = 0
    for number, batch in enumerate(batches):
        if batch.seq != seq:
            reason = f"batch starts at seq {batch.seq}, expected {seq}"
            raise LogDamaged(scan.path, scan.offsets[number], number + 1, reason)
        seq = batch.end
    if failure is not None:
        number, offset = len(batches), scan.offsets[len(batches)]
        if isinstance(failure, EventVersionError):  # written by a newer program, not damaged
            where = f"{scan.path}: record {number + 1} (byte {offset})"
            raise LogVersionError(f"{where}: {failure}; upgrade dice-miner") from None
        raise LogDamaged(scan.path, offset, number + 1, str(failure)) from None
    return batches


#: Per request id, the seqs ``(first, end)`` of the batches that answered it.
Requests = dict[str, tuple[int, int]]


def note_request(requests: Requests, request: str, batch: Batch) -> None:
    """Note that ``batch`` answers ``request`` (a table's undo may be several batches)."""
    first, _ = requests.get(request, (batch.seq, batch.end))
    requests[request] = (first, batch.end)


def load_batches(
    path: str | os.PathLike[str], *, drop_torn: bool = False
) -> tuple[LogScan, list[Batch]]:
    """Read a whole log file: its scan (header, offsets) and its decoded batches."""
    scan = read_log(path, drop_torn=drop_torn)
    return scan, decode_scan(scan)


def load_batches_bytes(data: bytes, *, name: str = "<upload>") -> tuple[LogScan, list[Batch]]:
    """Like ``load_batches``, for a log held in memory (an upload, a test)."""
    scan = read_log_bytes(data, path=name)
    return scan, decode_scan(scan)


def write_log(
    path: str | os.PathLike[str],
    header: Mapping[str, Any],
    payloads: Sequence[bytes],
    *,
    sync: bool = True,
) -> None:
    """Write a whole new log file at once (a branch, a salvaged copy): ``header`` and the
    records ``payloads``, created as a game's log is, never over an existing file."""
    LogWriter.create(Path(path), dict(header), sync=sync, first=payloads).close()


# -- in-process wake-ups ------------------------------------------------------------

_conditions: dict[tuple[int, int], threading.Condition] = {}
_conditions_lock = threading.Lock()


def _condition(path: str) -> threading.Condition | None:
    """The condition this process's writer of ``path`` notifies (keyed by the file itself)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    key = (st.st_dev, st.st_ino)
    with _conditions_lock:
        found = _conditions.get(key)
        if found is None:
            found = _conditions[key] = threading.Condition()
        return found


class FileStream:
    """One game's log file: the writer (holding its lock) or a reader."""

    def __init__(
        self,
        scan: LogScan,
        batches: list[Batch],
        writer: LogWriter | None,
        game_id: str | None = None,
        requests: Requests | None = None,
    ) -> None:
        self.path = scan.path
        #: The verified scan the stream was opened with (record offsets, for damage reports).
        self.scan = scan
        self._writer = writer
        self._header = scan.header
        self._game_id = str(scan.header.get("game_id", "")) if game_id is None else game_id
        self._payloads: list[bytes] = list(scan.payloads)
        self._ends: list[int] = []
        self._offsets: list[int] = list(scan.offsets)
        self._end_offset = scan.end
        self._next_seq = 0
        for batch in batches:
            self._ends.append(batch.end)
            self._next_seq = batch.end
        self._lock = threading.Lock()
        self._wake = _condition(self.path) if writer is not None else None
        #: The requests the log's records answer (kept in them: record version 2).
        self._requests: Requests = {} if requests is None else requests

    # -- opening ---------------------------------------------------------------

    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        header: Mapping[str, Any],
        first: Batch,
        *,
        sync: bool = True,
        game_id: str | None = None,
    ) -> FileStream:
        """A new log file holding ``first`` from its atomic creation; refused if one exists."""
        if first.seq != 0:
            raise StoreConflict(f"a new log starts at seq 0, not at {first.seq}", first.seq, 0)
        writer = LogWriter.create(path, dict(header), sync=sync, first=[encode_batch(first)])
        return cls(writer.scan, [first], writer, game_id)

    @classmethod
    def open(
        cls, path: str | os.PathLike[str], *, sync: bool = True, game_id: str | None = None
    ) -> FileStream:
        """An existing log, opened for appending; damage raises before anything is written."""
        writer = LogWriter.open(path, sync=sync)
        requests: Requests = {}
        try:
            batches = decode_scan(writer.scan, requests)
        except BaseException:
            writer.close()
            raise
        return cls(writer.scan, batches, writer, game_id, requests)

    @classmethod
    def read(
        cls, path: str | os.PathLike[str], *, drop_torn: bool = False, game_id: str | None = None
    ) -> FileStream:
        """An existing log, to read and follow (no lock: a writer may be appending)."""
        scan = read_log(path, drop_torn=drop_torn)
        requests: Requests = {}
        batches = decode_scan(scan, requests)
        return cls(scan, batches, None, game_id, requests)

    # -- the stream --------------------------------------------------------------

    @property
    def game_id(self) -> str:
        return self._game_id

    @property
    def header(self) -> Mapping[str, Any]:
        return self._header

    @property
    def writable(self) -> bool:
        """True for the writer (which holds the log's lock)."""
        return self._writer is not None

    def next_seq(self) -> int:
        if self._writer is None:
            self._catch_up()
        return self._next_seq

    def append(self, batch: Batch, request: str | None = None) -> None:
        if self._writer is None:
            raise LogError(f"{self.path}: opened for reading only")
        payload = encode_batch(batch, request)
        with self._lock:
            if batch.seq != self._next_seq:
                raise StoreConflict(
                    f"{self.path}: batch starts at seq {batch.seq} but the log is at "
                    f"{self._next_seq}",
                    batch.seq,
                    self._next_seq,
                )
            self._writer.append(payload)
            self._offsets.append(self._end_offset)
            self._end_offset = self._writer.end
            self._payloads.append(payload)
            self._ends.append(batch.end)
            self._next_seq = batch.end
            if request is not None:
                note_request(self._requests, request, batch)
        if self._wake is not None:
            with self._wake:
                self._wake.notify_all()

    def requested(self, request: str) -> tuple[int, int] | None:
        if self._writer is None:
            self._catch_up()
        with self._lock:
            return self._requests.get(request)

    def batches(self, from_seq: int = 0) -> Iterator[Batch]:
        if self._writer is None:
            self._catch_up()
        with self._lock:
            pairs = list(zip(self._payloads, self._ends, strict=True))
        for payload, end in pairs:
            if end > from_seq:
                yield decode_batch(payload)

    def payloads(self) -> list[bytes]:
        if self._writer is None:
            self._catch_up()
        with self._lock:
            return list(self._payloads)

    def follow(self, from_seq: int, timeout: float) -> list[Batch]:
        deadline = time.monotonic() + max(timeout, 0.0)
        wake = _condition(self.path)
        while True:
            if self.next_seq() > from_seq:
                return list(self.batches(from_seq))
            left = deadline - time.monotonic()
            if left <= 0:
                return []
            if wake is None:
                time.sleep(min(left, POLL_SECONDS))
            else:  # woken at once by a writer in this process, else polled for another's
                with wake:
                    wake.wait(min(left, POLL_SECONDS))

    def _catch_up(self) -> None:
        """A reader: take in the whole records a writer has appended since the last look."""
        with self._lock:
            payloads, end, _record = follow_log(
                self.path, self._end_offset, len(self._payloads) + 1
            )
            seq = self._next_seq
            offset = self._end_offset
            for number, payload in enumerate(payloads, start=len(self._payloads) + 1):
                try:
                    batch, request = decode_record(payload)
                except EventVersionError as exc:
                    raise LogVersionError(f"{self.path}: record {number}: {exc}") from None
                except EventFormatError as exc:
                    raise LogDamaged(self.path, offset, number, str(exc)) from None
                if batch.seq != seq:
                    reason = f"batch starts at seq {batch.seq}, expected {seq}"
                    raise LogDamaged(self.path, offset, number, reason)
                if request is not None:
                    note_request(self._requests, request, batch)
                self._payloads.append(payload)
                self._ends.append(batch.end)
                self._offsets.append(offset)
                offset += len(payload) + FRAME_OVERHEAD
                seq = batch.end
            self._next_seq = seq
            self._end_offset = end

    def export(self) -> bytes:
        return encode_log(self._header, self.payloads())

    def damaged(self, record: int, reason: str) -> LogDamaged:
        with self._lock:
            offsets, end = list(self._offsets), self._end_offset
        offset = offsets[record - 1] if 0 < record <= len(offsets) else end
        return LogDamaged(self.path, offset, record, reason)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()


class FileStore:
    """A folder of game logs: ``<prefix><id>.dmlog``, each with its seating beside it."""

    def __init__(
        self, folder: str | os.PathLike[str], *, prefix: str = "", sync: bool = True
    ) -> None:
        self.folder = Path(folder)
        self.prefix = prefix
        self.sync = sync
        self._name = re.compile(rf"^{re.escape(prefix)}([A-Za-z0-9_-]{{1,64}})\.dmlog$")

    @property
    def url(self) -> str:
        return f"file:{self.folder}"

    def log_path(self, game_id: str) -> Path:
        """Where game ``game_id``'s log is (or would be)."""
        return self.folder / f"{self.prefix}{check_game_id(game_id)}.dmlog"

    def seating_path(self, game_id: str) -> Path:
        """Where game ``game_id``'s seating is kept."""
        return self.folder / f"{self.prefix}{check_game_id(game_id)}.seats.json"

    def create(
        self, header: Mapping[str, Any], first: Batch, seating: Seating | None = None
    ) -> FileStream:
        """The seating is written first, then the log: a crash between them leaves a
        seats file with no log, which nothing reads, and never a log without its seats."""
        game_id = check_game_id(header.get("game_id"))
        with self._new_game(game_id, seating) as path:
            return FileStream.create(path, header, first, sync=self.sync, game_id=game_id)

    def adopt(
        self,
        header: Mapping[str, Any],
        payloads: Sequence[bytes],
        batches: Sequence[Batch],
        *,
        game_id: str | None = None,
        seating: Seating | None = None,
    ) -> FileStream:
        """A new game holding a verified log's batches as they were encoded (an import, a
        branch): ``core.store.import_log`` uses it so old event versions keep their bytes.
        It is stored under ``game_id`` (by default the header's: a branch, whose first
        batch names its parent's id, needs another), its ``seating`` written first, as
        ``create`` does."""
        game_id = check_game_id(header.get("game_id") if game_id is None else game_id)
        check_batches(game_id, payloads, batches)
        with self._new_game(game_id, seating) as path:
            writer = LogWriter.create(path, dict(header), sync=self.sync, first=list(payloads))
        requests: Requests = {}
        for payload, batch in zip(payloads, batches, strict=True):
            request = decode_record(payload)[1]
            if request is not None:
                note_request(requests, request, batch)
        return FileStream(writer.scan, list(batches), writer, game_id, requests)

    @contextlib.contextmanager
    def _new_game(self, game_id: str, seating: Seating | None) -> Iterator[Path]:
        """The path a new game's log is to be made at, its seating written beforehand; if
        making the log fails, the seating goes too (no seats without their log), and a log
        another writer made there meanwhile is ``GameExists``."""
        path = self.log_path(game_id)
        self.folder.mkdir(parents=True, exist_ok=True)
        if os.path.lexists(path):
            raise GameExists(f"{path}: a game {game_id!r} is already stored there")
        seats = self.seating_path(game_id)
        if seating is not None:
            try:
                write_seating(seats, game_id, seating, new=True)
            except FileExistsError:
                raise GameExists(f"{seats}: a game {game_id!r} is being made there") from None
        try:
            yield path
        except BaseException as exc:
            if seating is not None:  # ours, written above
                with contextlib.suppress(OSError):
                    seats.unlink()
            if isinstance(exc, LogError) and os.path.lexists(path):
                raise GameExists(f"{path}: a game {game_id!r} is already stored there") from exc
            raise

    def _existing(self, game_id: str) -> Path:
        path = self.log_path(game_id)
        if not path.is_file():
            raise GameNotFound(f"{self.url} holds no game {game_id!r}")
        return path

    def open(self, game_id: str) -> FileStream:
        return FileStream.open(self._existing(game_id), sync=self.sync, game_id=game_id)

    def read(self, game_id: str) -> FileStream:
        return FileStream.read(self._existing(game_id), game_id=game_id)

    def game_ids(self) -> list[str]:
        """The ids of the folder's logs, the oldest first (by their last change, then id)."""
        try:
            names = os.listdir(self.folder)
        except FileNotFoundError:
            return []
        found = []
        for name in names:
            match = self._name.match(name)
            if match:
                try:
                    mtime = os.stat(self.folder / name).st_mtime_ns
                except OSError:
                    continue
                found.append((mtime, match.group(1)))
        return [game_id for _, game_id in sorted(found)]

    def games(self) -> list[GameEntry]:
        entries = []
        for game_id in self.game_ids():
            path = self.log_path(game_id)
            try:
                updated = os.stat(path).st_mtime
                scan = read_log(path, drop_torn=True)
                # the last batch says how far the game goes: nothing else is decoded
                events = decode_batch(scan.payloads[-1]).end if scan.payloads else 0
            except (LogError, EventFormatError, OSError) as exc:
                entries.append(GameEntry(game_id, {}, 0, 0.0, problem=str(exc)))
                continue
            entries.append(GameEntry(game_id, dict(scan.header), events, updated))
        return entries

    def save_seating(self, game_id: str, seating: Seating) -> None:
        self._existing(game_id)
        write_seating(self.seating_path(game_id), game_id, seating)

    def seating(self, game_id: str) -> Seating | None:
        self._existing(game_id)
        path = self.seating_path(game_id)
        try:
            return read_seating(path, game_id)
        except FileNotFoundError:
            return None

    def close(self) -> None:
        pass

    def ping(self) -> None:
        """The folder may be written, or made by the first game where it is missing (a disk
        unmounted, a folder made read-only or a file in its place fails every new game)."""
        folder = self.folder
        while not folder.exists() and folder.parent != folder:
            folder = folder.parent  # made, with its parents, by the first game
        if not folder.is_dir():
            raise StoreUnavailable(f"{self.url}: {folder} is not a folder")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise StoreUnavailable(f"{self.url}: {folder} cannot be written")


__all__ = [
    "FileStore",
    "FileStream",
    "decode_scan",
    "load_batches",
    "load_batches_bytes",
]
