"""Stores: where games' batches live, behind one contract (``core.store.base``).

``open_store(url)`` picks a backend from a URL: ``memory:``, ``file:/folder``
(or a bare folder path), ``postgresql://...`` (or ``postgres://...``), and the
others registered in ``BACKENDS``. Every backend passes the same contract suite
(``tests/store/test_store_contract.py``). The file store's own tools (a log's scan,
``repair_log``) are here too, so nothing above the store reaches into ``core.log``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import core.modes  # noqa: F401  (installs the modes: a log holds their events)
from core.events.codec import Batch
from core.log import LogScan, RepairResult, repair_log
from core.store.base import GameEntry, Seating, SeatRecord, Store, Stream, check_game_id
from core.store.file import (
    FileStore,
    FileStream,
    decode_scan,
    load_batches,
    load_batches_bytes,
    write_log,
)
from core.store.memory import MemoryStore, MemoryStream
from core.store.seatfile import token_hash


def _postgres(url: str) -> Store:
    """A PostgreSQL store (psycopg is imported only when a database is named)."""
    from core.store.postgres import PostgresStore

    return PostgresStore(url)


#: URL scheme -> a function that opens a store of that kind from the whole URL.
BACKENDS: dict[str, Callable[[str], Store]] = {
    "memory": lambda url: MemoryStore(),
    "file": lambda url: FileStore(url.removeprefix("file:").removeprefix("//") or "."),
    "postgresql": _postgres,
    "postgres": _postgres,
}


def open_store(url: str) -> Store:
    """The store a URL names (``memory:``, ``file:/folder``, or a folder path)."""
    scheme, colon, _rest = url.partition(":")
    if colon and scheme in BACKENDS:
        return BACKENDS[scheme](url)
    if colon and "/" not in scheme and len(scheme) > 1:
        kinds = ", ".join(f"{name}:" for name in sorted(BACKENDS))
        raise ValueError(f"unknown store {url!r}: a store URL starts with {kinds}")
    return FileStore(url)


def import_log(
    store: Store, scan: LogScan, batches: Sequence[Batch], *, game_id: str | None = None
) -> Stream:
    """Store a verified log's game (``load_batches``' scan and batches) under its header's id,
    or under ``game_id`` (the header keeps the id it names).

    The batches keep the bytes they were read with: every store takes them as they are
    (``Store.adopt``), so an older log's events are never rewritten at their new
    versions. ``GameExists`` if the id is taken.
    """
    if len(scan.payloads) != len(batches) or not batches:
        raise ValueError("a log to import needs its batches, one for each payload")
    return store.adopt(scan.header, scan.payloads, batches, game_id=game_id)


__all__ = [
    "BACKENDS",
    "FileStore",
    "FileStream",
    "GameEntry",
    "LogScan",
    "MemoryStore",
    "MemoryStream",
    "RepairResult",
    "SeatRecord",
    "Seating",
    "Store",
    "Stream",
    "check_game_id",
    "decode_scan",
    "import_log",
    "load_batches",
    "load_batches_bytes",
    "open_store",
    "repair_log",
    "token_hash",
    "write_log",
]
