"""Event stores: where a game's batches are kept, behind one small interface.

``append(batch)`` writes a batch whose first seq must be the store's next one
(an optimistic check, so two writers can never interleave); ``batches(from_seq)``
reads them back. ``FileStore`` keeps them in the framed, checksummed, fsynced
log file (``core.log``); ``MemoryStore`` keeps the same payload bytes in memory
for bots, tests and simulations that do not need a file. A database-backed store
would implement the same three methods.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Any, Protocol

from core.errors import (
    EventFormatError,
    EventVersionError,
    LogConflict,
    LogDamaged,
    LogVersionError,
)
from core.events.codec import Batch, decode_batch, encode_batch
from core.log import LogScan, LogWriter, read_log, read_log_bytes


class EventStore(Protocol):
    """What the game needs from a place that keeps its events."""

    header: dict[str, Any]

    def append(self, batch: Batch) -> None:
        """Write ``batch`` durably; it must start at the store's next seq."""

    def batches(self, from_seq: int = 0) -> Iterator[Batch]:
        """The stored batches whose events reach ``from_seq`` or later, in order."""

    def close(self) -> None:
        """Release whatever the store holds."""


class _Payloads:
    """Shared bookkeeping: the encoded batches and the next seq."""

    def __init__(self, header: dict[str, Any]) -> None:
        self.header = header
        self.payloads: list[bytes] = []
        self._ends: list[int] = []  # seq after each batch
        self.next_seq = 0

    def _check(self, batch: Batch) -> bytes:
        if batch.seq != self.next_seq:
            raise LogConflict(f"batch starts at seq {batch.seq} but the log is at {self.next_seq}")
        return encode_batch(batch)

    def _record(self, payload: bytes, batch: Batch) -> None:
        self.payloads.append(payload)
        self._ends.append(batch.end)
        self.next_seq = batch.end

    def batches(self, from_seq: int = 0) -> Iterator[Batch]:
        for payload, end in zip(self.payloads, self._ends, strict=True):
            if end > from_seq:
                yield decode_batch(payload)

    def close(self) -> None:
        pass


class MemoryStore(_Payloads):
    """Batches kept in memory as the same bytes a log file would hold."""

    @classmethod
    def holding(
        cls, header: dict[str, Any], payloads: Iterable[bytes], batches: Iterable[Batch]
    ) -> MemoryStore:
        """A store holding batches just read with their payloads (nothing encoded again)."""
        store = cls(header)
        store.payloads = list(payloads)
        seq = 0
        for batch in batches:
            if batch.seq != seq:
                raise LogConflict(f"batch starts at seq {batch.seq} but the log is at {seq}")
            seq = batch.end
            store._ends.append(seq)
        if len(store._ends) != len(store.payloads):
            raise ValueError(
                "a store needs a payload for every batch, and a batch for every payload"
            )
        store.next_seq = seq
        return store

    def append(self, batch: Batch) -> None:
        self._record(self._check(batch), batch)


class FileStore(_Payloads):
    """Batches in a log file: each append is framed, checksummed and fsynced first."""

    def __init__(self, writer: LogWriter, scan: LogScan, batches: list[Batch]) -> None:
        super().__init__(scan.header)
        self.path = scan.path
        #: The verified scan the store was opened with (record offsets, for damage reports).
        self.scan = scan
        self._writer = writer
        for payload, batch in zip(scan.payloads, batches, strict=True):
            self._record(payload, batch)

    @classmethod
    def create(
        cls,
        path: str | os.PathLike,
        header: dict[str, Any],
        first: Batch | None = None,
        *,
        sync: bool = True,
    ):
        """A new log file (refused if one exists there), holding ``first`` from the start.

        The opening batch is written in the same atomic create as the header, so a
        crash can never leave a log that names a game but holds none of it.
        """
        batches = [] if first is None else [first]
        if first is not None and first.seq != 0:
            raise LogConflict(f"a new log starts at seq 0, not at {first.seq}")
        payloads = [encode_batch(batch) for batch in batches]
        writer = LogWriter.create(path, header, sync=sync, first=payloads)
        return cls(writer, writer.scan, batches)

    @classmethod
    def open(cls, path: str | os.PathLike, *, sync: bool = True):
        """An existing log, opened for appending; damage raises before anything is written."""
        writer = LogWriter.open(path, sync=sync)
        try:
            batches = decode_scan(writer.scan)
        except BaseException:
            writer.close()
            raise
        return cls(writer, writer.scan, batches)

    def append(self, batch: Batch) -> None:
        payload = self._check(batch)
        self._writer.append(payload)
        self._record(payload, batch)

    def close(self) -> None:
        self._writer.close()


def decode_scan(scan: LogScan) -> list[Batch]:
    """Decode a scanned log's batches, checking they run on without gaps.

    Content that passed its checksum but is not a valid batch is still damage:
    it is reported with the record's offset, never skipped. The first damage
    in the log is the one reported, whichever check finds it.
    """
    batches: list[Batch] = []
    failure = None
    try:  # the whole log in one pass (the hot path); the failing record is the next one
        for payload in scan.payloads:
            batches.append(decode_batch(payload))
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


def load_batches(
    path: str | os.PathLike, *, drop_torn: bool = False
) -> tuple[LogScan, list[Batch]]:
    """Read a whole log file: its scan (header, offsets) and its decoded batches."""
    scan = read_log(path, drop_torn=drop_torn)
    return scan, decode_scan(scan)


def load_batches_bytes(data: bytes, *, name: str = "<upload>") -> tuple[LogScan, list[Batch]]:
    """Like ``load_batches``, for a log held in memory (an upload, a test)."""
    scan = read_log_bytes(data, path=name)
    return scan, decode_scan(scan)
