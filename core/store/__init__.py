"""Stores: where games' batches live, behind one contract (``core.store.base``).

``open_store(url)`` picks a backend from a URL: ``memory:``, ``file:/folder``
(or a bare folder path), ``postgresql://...`` (or ``postgres://...``), and the
others registered in ``BACKENDS``. Every backend passes the same contract suite
(``tests/test_store_contract.py``). The file store's own tools (a log's scan,
``repair_log``) are here too, so nothing above the store reaches into ``core.log``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from core.errors import StoreError
from core.events.codec import Batch, encode_batch
from core.log import LogScan, RepairResult, repair_log
from core.store.base import GameEntry, Seating, SeatRecord, Store, Stream, check_game_id
from core.store.file import (
    FileStore,
    FileStream,
    decode_scan,
    load_batches,
    load_batches_bytes,
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


def import_log(store: Store, scan: LogScan, batches: Sequence[Batch]) -> Stream:
    """Store a verified log's game (``load_batches``' scan and batches) under its header's id.

    The batches keep the bytes they were read with: a store that can take them as
    they are (``adopt``: the file and PostgreSQL stores) does; any other must encode
    them back to the same bytes, or the log is refused (an older log's events would
    be rewritten at their new versions). ``GameExists`` if the id is taken.
    """
    if len(scan.payloads) != len(batches) or not batches:
        raise ValueError("a log to import needs its batches, one for each payload")
    adopt = getattr(store, "adopt", None)
    if adopt is not None:
        return adopt(scan.header, scan.payloads, batches)
    if any(encode_batch(b) != p for b, p in zip(batches, scan.payloads, strict=True)):
        raise StoreError(
            f"{scan.path}: its events would be stored re-encoded (an older version wrote them), "
            f"and {store.url} keeps only what it is given as it is"
        )
    stream = store.create(scan.header, batches[0])
    for batch in batches[1:]:
        stream.append(batch)
    return stream


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
]
