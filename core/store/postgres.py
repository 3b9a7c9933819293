"""The PostgreSQL store: games shared by every worker, on every machine, that reaches the database.

``PostgresStore("postgresql://user:password@host:5432/dbname")`` (or
``open_store(url)``) connects through a pool (``psycopg_pool``), creates or
migrates the schema (``core.store.pgschema``) and keeps the store contract of
``core.store.base``:

* A batch is one row keyed by (game, first seq), holding the payload exactly as
  the log file frames it and its crc32; the header is the file's header record,
  byte for byte. So ``export`` is the file store's file, and damage is found as
  a file reader finds it, reported as ``GameDamaged`` naming the database (no
  password), the game, the batch's seq and its record number.
* An append is one statement: the game's head moves from the batch's first seq
  to its end only if it is still there, and the row is inserted in the same
  transaction; otherwise ``StoreConflict`` and nothing is written. Commits are
  synchronous, so an acknowledged append is on the server's disk.
* The database refuses UPDATE, DELETE and TRUNCATE of batches (a trigger), and
  announces each append (``pg_notify``); ``follow`` waits for those through one
  listening connection per store object (``core.store.pglisten``).
* A server that cannot be reached is ``StoreUnavailable`` with a plain message;
  the pool connects again by itself once it is back.

psycopg is imported here only, so nothing else pays for it.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

import psycopg
from psycopg import errors as pg_errors
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool, PoolTimeout

from core.errors import (
    EventFormatError,
    EventVersionError,
    GameDamaged,
    GameExists,
    GameNotFound,
    LogError,
    LogVersionError,
    StoreConflict,
    StoreError,
    StoreUnavailable,
)
from core.events.codec import Batch, decode_batch, decode_record, encode_batch
from core.log.framing import FORMAT_VERSION, PREAMBLE, decode_header, encode_frame, encode_header
from core.store.base import GameEntry, Seating, SeatRecord, check_batches, check_game_id
from core.store.pganalyses import AnalysisQueue
from core.store.pglisten import FALLBACK_POLL, AppendListener
from core.store.pgschema import SchemaTooNew, migrate
from core.store.pgurl import public_url
from core.store.pgwork import WorkBoard

# The pool logs each failed connection attempt; with no logging set up, Python would print
# them all on stderr. The store reports the failure itself (StoreUnavailable), once.
logging.getLogger("psycopg.pool").addHandler(logging.NullHandler())

#: How long an operation waits for a connection before ``StoreUnavailable`` (seconds).
TIMEOUT = 5.0
#: The most connections one store object opens (followers hold none while they wait).
MAX_CONNECTIONS = 10

_APPEND = """
WITH head AS (
    UPDATE games SET next_seq = %(end)s, records = records + 1, updated = clock_timestamp()
    WHERE id = %(game)s AND next_seq = %(seq)s
    RETURNING records
)
INSERT INTO batches (game, seq, end_seq, record, payload, crc, request)
SELECT %(game)s, %(seq)s, %(end)s, records, %(payload)b, %(crc)s, %(request)s FROM head
RETURNING record
"""

_CREATE = """
WITH game AS (
    INSERT INTO games (id, header, header_crc, next_seq, records)
    VALUES (%(game)s, %(header)b, %(header_crc)s, %(end)s, 1)
    RETURNING id
)
INSERT INTO batches (game, seq, end_seq, record, payload, crc)
SELECT id, 0, %(end)s, 1, %(payload)b, %(crc)s FROM game
"""

_ROWS_AFTER = """
SELECT record, seq, end_seq, payload, crc FROM batches
WHERE game = %s AND record > %s ORDER BY record
"""

_SEATING = """
SELECT st.game IS NOT NULL, st.pace, s.name, s.bot, s.token_hash, st.secret
FROM games g
LEFT JOIN seatings st ON st.game = g.id
LEFT JOIN seats s ON s.game = st.game
WHERE g.id = %s
ORDER BY s.seat
"""


class PostgresStream:
    """One stored game: its header, and the verified batches read so far (rows never change)."""

    def __init__(
        self, store: PostgresStore, game_id: str, header: bytes, crc: int, *, writable: bool
    ) -> None:
        self._store = store
        self._game_id = game_id
        self._writable = writable
        self._header_bytes = header
        self._lock = threading.Lock()
        self._seqs: list[int] = []  # each verified record's first seq (record n at n - 1)
        self._payloads: list[bytes] = []
        self._batches: list[Batch] = []
        if zlib.crc32(header) != crc:
            raise GameDamaged(self._where(None), 0, "the header's checksum does not match")
        try:
            self._header = decode_header(header, FORMAT_VERSION, self._where(None))
        except LogError as exc:
            raise GameDamaged(self._where(None), 0, getattr(exc, "reason", str(exc))) from None

    @property
    def game_id(self) -> str:
        return self._game_id

    @property
    def header(self) -> Mapping[str, Any]:
        return self._header

    def next_seq(self) -> int:
        with self._store._connection() as conn:
            row = conn.execute(
                "SELECT next_seq FROM games WHERE id = %s", (self._game_id,)
            ).fetchone()
        if row is None:
            raise GameNotFound(f"{self._store.url} holds no game {self._game_id!r}")
        return row[0]

    def append(self, batch: Batch, request: str | None = None) -> None:
        if not self._writable:
            raise StoreError(f"{self._store.url}: game {self._game_id} was opened for reading only")
        if not batch.events:
            raise StoreError(f"{self._store.url}: game {self._game_id}: a batch without events")
        payload = encode_batch(batch, request)  # in the record too: an export keeps it
        params = {
            "game": self._game_id,
            "seq": batch.seq,
            "end": batch.end,
            "payload": payload,
            "crc": zlib.crc32(payload),
            "request": request,
        }
        with self._store._connection(appending=True) as conn:
            row = conn.execute(_APPEND, params).fetchone()
            if row is None:
                head = conn.execute(
                    "SELECT next_seq FROM games WHERE id = %s", (self._game_id,)
                ).fetchone()
        if row is None:
            if head is None:
                raise GameNotFound(f"{self._store.url} holds no game {self._game_id!r}")
            raise StoreConflict(
                f"{self._store.url}: game {self._game_id}: batch starts at seq {batch.seq} but "
                f"the game is at {head[0]}",
                batch.seq,
                head[0],
            )
        with self._lock:  # known at once, if every record before it is
            if row[0] == len(self._batches) + 1:
                self._seqs.append(batch.seq)
                self._payloads.append(payload)
                self._batches.append(batch)

    def requested(self, request: str) -> tuple[int, int] | None:
        with self._store._connection() as conn:
            row = conn.execute(
                "SELECT min(seq), max(end_seq) FROM batches WHERE game = %s AND request = %s",
                (self._game_id, request),
            ).fetchone()
        return None if row is None or row[0] is None else (row[0], row[1])

    def _refresh(self) -> int:
        """Read and verify the records appended since the last look; the number known."""
        with self._lock:
            known = len(self._batches)
        with self._store._connection() as conn:
            rows = conn.execute(_ROWS_AFTER, (self._game_id, known), binary=True).fetchall()
        with self._lock:
            for record, seq, end, payload, crc in rows:
                if record <= len(self._batches):
                    continue  # another thread took it in meanwhile
                self._take(record, seq, end, bytes(payload), crc)
            return len(self._batches)

    def _take(self, record: int, seq: int, end: int, payload: bytes, crc: int) -> None:
        """Verify one row and keep it (the caller holds the lock); damage raises."""
        expected = len(self._batches) + 1
        if record != expected:
            raise self._damaged(expected, seq, f"record {expected} is missing (found {record})")
        start = self._batches[-1].end if self._batches else 0
        if zlib.crc32(payload) != crc:
            raise self._damaged(record, seq, "payload checksum mismatch")
        if seq != start:
            raise self._damaged(record, seq, f"batch starts at seq {seq}, expected {start}")
        try:
            batch = decode_batch(payload)
        except EventVersionError as exc:
            raise LogVersionError(
                f"{self._where(seq)}: record {record}: {exc}; upgrade dice-miner"
            ) from None
        except EventFormatError as exc:
            raise self._damaged(record, seq, str(exc)) from None
        if batch.seq != seq or batch.end != end:
            reason = f"its events run from seq {batch.seq} to {batch.end}, its row says {seq}-{end}"
            raise self._damaged(record, seq, reason)
        self._seqs.append(seq)
        self._payloads.append(payload)
        self._batches.append(batch)

    def batches(self, from_seq: int = 0) -> Iterator[Batch]:
        self._refresh()
        with self._lock:
            found = [b for b in self._batches if b.end > from_seq]
        yield from found

    def payloads(self) -> Sequence[bytes]:
        self._refresh()
        with self._lock:
            return list(self._payloads)

    def follow(self, from_seq: int, timeout: float) -> list[Batch]:
        """The batches reaching ``from_seq``, waiting up to ``timeout`` for the first.

        A follower rides out a database that goes away for a while: it keeps
        waiting, and raises ``StoreUnavailable`` only if the last look before its
        timeout could not reach the database.
        """
        deadline = time.monotonic() + max(timeout, 0.0)
        if self._reaches(from_seq) is True:
            return list(self.batches(from_seq))
        with self._store._listener().watching(self._game_id) as watch:
            while True:
                seen = watch.mark()  # before looking, so an append meanwhile wakes us
                looked = self._reaches(from_seq)
                if looked is True:
                    return list(self.batches(from_seq))
                left = deadline - time.monotonic()
                if left <= 0:
                    if isinstance(looked, StoreUnavailable):
                        raise looked
                    return []
                failed = isinstance(looked, StoreUnavailable)  # look again soon: no news is no news
                watch.wait(seen, min(left, FALLBACK_POLL if failed else watch.poll_seconds))

    def _reaches(self, seq: int) -> bool | StoreUnavailable:
        """Whether the stored batches reach ``seq`` (the error, if the database is away)."""
        try:
            self._refresh()
        except StoreUnavailable as exc:
            return exc
        with self._lock:
            return bool(self._batches) and self._batches[-1].end > seq

    def export(self) -> bytes:
        payloads = self.payloads()
        return PREAMBLE + encode_frame(self._header_bytes) + b"".join(map(encode_frame, payloads))

    def _where(self, seq: int | None) -> str:
        place = "its header" if seq is None else f"batch at seq {seq}"
        return f"{self._store.url} game {self._game_id}, {place}"

    def _damaged(self, record: int, seq: int, reason: str) -> GameDamaged:
        return GameDamaged(self._where(seq), record, reason)

    def damaged(self, record: int, reason: str) -> GameDamaged:
        with self._lock:
            seq = self._seqs[record - 1] if 0 < record <= len(self._seqs) else None
        if seq is None:
            return GameDamaged(f"{self._store.url} game {self._game_id}", record, reason)
        return self._damaged(record, seq, reason)

    def close(self) -> None:
        pass


class PostgresStore:
    """A PostgreSQL database's games (the tables of ``core.store.pgschema``, made at start)."""

    def __init__(
        self,
        url: str,
        *,
        timeout: float = TIMEOUT,
        max_connections: int = MAX_CONNECTIONS,
        patient: bool = False,
    ) -> None:
        """``patient``: a server that cannot be reached now is no error yet (a web worker
        starting while the database is away answers 503 until it is back): the schema is
        migrated at the first use that reaches it. Otherwise it is ``StoreUnavailable``
        at once, as a tool run by hand wants."""
        self._conninfo = url
        self._url = public_url(url)
        try:  # a URL libpq cannot parse is a mistake to fix, not a server to wait for
            conninfo_to_dict(url)
        except psycopg.Error as exc:
            raise StoreError(f"{self._url}: not a database URL ({self._say(exc)})") from None
        self._timeout = timeout
        self._listen: AppendListener | None = None
        self._listen_lock = threading.Lock()
        self._closed = False
        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=max(1, max_connections),
            open=False,
            kwargs={"autocommit": True, "connect_timeout": max(1, round(timeout))},
            configure=_configure,
            check=ConnectionPool.check_connection,
            timeout=timeout,
            reconnect_timeout=max(timeout, 1.0),
            name=f"dice-miner {self._url}",
        )
        self._migrated = False
        self._migrate_lock = threading.Lock()
        try:
            self._migrate()  # on a connection of its own: a server away is reported at once
        except StoreUnavailable:
            if not patient:
                raise
        self._pool.open(wait=False)
        #: The work the database hands out to the servers sharing it (places, bot turns).
        self.work = WorkBoard(self._connection)
        #: The game analyses asked for through any server, run once by one worker.
        self.analyses = AnalysisQueue(self._connection, lambda: self._closed)

    def _migrate(self) -> None:
        with self._migrate_lock:
            if self._migrated:
                return
            self._migrate_now()
            self._migrated = True

    def _migrate_now(self) -> None:
        try:
            with psycopg.connect(
                self._conninfo, autocommit=True, connect_timeout=max(1, round(self._timeout))
            ) as conn:
                migrate(conn)
        except SchemaTooNew as exc:
            raise StoreError(f"{self._url}: {exc}") from None
        except psycopg.OperationalError as exc:
            raise self._unavailable(self._say(exc, connecting=True)) from None
        except psycopg.Error as exc:
            raise StoreError(f"{self._url}: the database refused: {self._say(exc)}") from None

    @property
    def url(self) -> str:
        return self._url

    # -- connections and their failures ------------------------------------------------

    @contextlib.contextmanager
    def _connection(self, *, appending: bool = False) -> Iterator[psycopg.Connection]:
        """A pooled connection; the database's failures become the store's own errors."""
        if self._closed:
            raise StoreError(f"{self._url}: the store was closed")
        if not self._migrated:  # a patient store that started while the server was away
            self._migrate()
        try:
            with self._pool.connection(timeout=self._timeout) as conn:
                yield conn
        except PoolTimeout:
            raise self._unavailable(self._why_unreachable()) from None
        except psycopg.OperationalError as exc:
            reason = self._say(exc)
            if appending:
                reason += "; the append may or may not have been stored: read the game again"
            raise self._unavailable(reason) from None
        except psycopg.Error as exc:
            raise StoreError(f"{self._url}: the database refused: {self._say(exc)}") from None

    def _say(self, exc: BaseException, *, connecting: bool = False) -> str:
        """The first line of a psycopg error, never showing the password (libpq may quote
        the whole URL)."""
        text = _connect_failure(exc) if connecting else _first_line(exc)
        text = text.replace(self._conninfo, self._url)
        with contextlib.suppress(ValueError):
            password = urlsplit(self._conninfo).password
            if password and len(password) >= 4:
                text = text.replace(password, "***")
        return text

    def _unavailable(self, reason: str) -> StoreUnavailable:
        return StoreUnavailable(
            f"{self._url}: the database cannot be reached ({reason}); try again later"
        )

    def _why_unreachable(self) -> str:
        """Why no connection came in time: a connection tried now says (refused, no such host)."""
        try:
            probe = psycopg.connect(self._conninfo, connect_timeout=max(1, round(self._timeout)))
        except psycopg.Error as exc:
            return self._say(exc, connecting=True)
        probe.close()
        return f"no connection free within {self._timeout:g} s"

    def _listener(self) -> AppendListener:
        with self._listen_lock:
            if self._closed:
                raise StoreError(f"{self._url}: the store was closed")
            if self._listen is None:
                self._listen = AppendListener(self._conninfo, connect_timeout=self._timeout)
            return self._listen

    # -- the store ---------------------------------------------------------------------

    def create(
        self, header: Mapping[str, Any], first: Batch, seating: Seating | None = None
    ) -> PostgresStream:
        game_id = check_game_id(header.get("game_id"))
        if first.seq != 0:
            raise StoreConflict(f"a new game starts at seq 0, not at {first.seq}", first.seq, 0)
        if not first.events:
            raise StoreError(f"{self._url}: game {game_id}: a batch without events")
        header_bytes = encode_header(dict(header))
        header_crc = zlib.crc32(header_bytes)
        payload = encode_batch(first)
        params: dict[str, object] = {
            "game": game_id,
            "header": header_bytes,
            "header_crc": header_crc,
            "end": first.end,
            "payload": payload,
            "crc": zlib.crc32(payload),
        }
        with self._connection(appending=True) as conn, conn.transaction():
            try:
                conn.execute(_CREATE, params)
            except pg_errors.UniqueViolation:
                raise GameExists(f"{self._url} already holds a game {game_id!r}") from None
            if seating is not None:  # in the same transaction: never a game without its seats
                self._save_seating(conn, game_id, seating)
        stream = PostgresStream(self, game_id, header_bytes, header_crc, writable=True)
        stream._seqs, stream._payloads, stream._batches = [0], [payload], [first]
        return stream

    def adopt(
        self,
        header: Mapping[str, Any],
        payloads: Sequence[bytes],
        batches: Sequence[Batch],
        *,
        game_id: str | None = None,
        seating: Seating | None = None,
    ) -> PostgresStream:
        """A new game holding a verified log's batches as they were encoded (an import, a
        branch) and its seating, in one transaction: ``core.store.import_log`` uses it so
        old event versions keep their bytes. Its key is ``game_id`` (by default the
        header's; the header keeps whichever id it names)."""
        game_id = check_game_id(header.get("game_id") if game_id is None else game_id)
        seq = check_batches(game_id, payloads, batches)
        header_bytes = encode_header(dict(header))
        header_crc = zlib.crc32(header_bytes)
        rows = [
            (game_id, b.seq, b.end, n, p, zlib.crc32(p), decode_record(p)[1])
            for n, (b, p) in enumerate(zip(batches, payloads, strict=True), start=1)
        ]
        with self._connection(appending=True) as conn, conn.transaction():
            try:
                conn.execute(
                    "INSERT INTO games (id, header, header_crc, next_seq, records) "
                    "VALUES (%s, %b, %s, %s, %s)",
                    (game_id, header_bytes, header_crc, seq, len(rows)),
                )
            except pg_errors.UniqueViolation:
                raise GameExists(f"{self._url} already holds a game {game_id!r}") from None
            with conn.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO batches (game, seq, end_seq, record, payload, crc, request) "
                    "VALUES (%s, %s, %s, %s, %b, %s, %s)",
                    rows,
                )
            if seating is not None:  # in the same transaction: never a game without its seats
                self._save_seating(conn, game_id, seating)
        stream = PostgresStream(self, game_id, header_bytes, header_crc, writable=True)
        stream._seqs = [b.seq for b in batches]
        stream._payloads, stream._batches = list(payloads), list(batches)
        return stream

    def _stream(self, game_id: str, *, writable: bool) -> PostgresStream:
        with self._connection() as conn:
            row = conn.execute(
                "SELECT header, header_crc FROM games WHERE id = %s", (game_id,), binary=True
            ).fetchone()
        if row is None:
            raise GameNotFound(f"{self._url} holds no game {game_id!r}")
        return PostgresStream(self, game_id, bytes(row[0]), row[1], writable=writable)

    def open(self, game_id: str) -> PostgresStream:
        return self._stream(game_id, writable=True)

    def read(self, game_id: str) -> PostgresStream:
        return self._stream(game_id, writable=False)

    def games(self) -> list[GameEntry]:
        with self._connection() as conn:
            rows = conn.execute(
                "SELECT id, header, header_crc, next_seq, extract(epoch FROM updated)::float8 "
                "FROM games ORDER BY number",
                binary=True,
            ).fetchall()
        entries = []
        for game_id, header, crc, next_seq, updated in rows:
            header = bytes(header)
            if zlib.crc32(header) != crc:  # listed, never hidden: opening it names the damage
                problem = f"{self._url}: game {game_id}: its header's checksum does not match"
                entries.append(GameEntry(game_id, {}, next_seq, updated, problem))
                continue
            try:
                fields = decode_header(header, FORMAT_VERSION, game_id)
            except LogError as exc:
                entries.append(GameEntry(game_id, {}, next_seq, updated, str(exc)))
                continue
            entries.append(GameEntry(game_id, fields, next_seq, updated))
        return entries

    def on_append(self, callback: Callable[[str | None, int], None]) -> Callable[[], None]:
        """Call ``callback(game_id, next_seq)`` after every append by any process (from a
        background thread: keep it quick), ``callback(None, 0)`` when some may have been
        missed; returns how to stop. A lobby uses it to follow the games it holds."""
        return self._listener().on_every_append(callback)

    def job_counts(self) -> dict[str, int]:
        """Bot turns queued and claimed, games in play, analyses waiting and running,
        site-wide (for metrics)."""
        return {**self.work.counts(), **self.analyses.counts()}

    def save_seating(self, game_id: str, seating: Seating) -> None:
        with self._connection() as conn, conn.transaction():
            self._save_seating(conn, game_id, seating)

    def _save_seating(self, conn: psycopg.Connection, game_id: str, seating: Seating) -> None:
        kept = conn.execute(
            "INSERT INTO seatings (game, pace, secret) SELECT id, %s, %s FROM games WHERE id = %s "
            "ON CONFLICT (game) DO UPDATE SET pace = EXCLUDED.pace, secret = EXCLUDED.secret, "
            "saved = clock_timestamp() RETURNING game",
            (seating.pace, seating.secret, game_id),
        ).fetchone()
        if kept is None:
            raise GameNotFound(f"{self._url} holds no game {game_id!r}")
        conn.execute("DELETE FROM seats WHERE game = %s", (game_id,))
        with conn.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO seats (game, seat, name, bot, token_hash) VALUES (%s, %s, %s, %s, %s)",
                [
                    (game_id, n, seat.name, seat.bot, seat.token_hash)
                    for n, seat in enumerate(seating.seats)
                ],
            )

    def seating(self, game_id: str) -> Seating | None:
        with self._connection() as conn:
            rows = conn.execute(_SEATING, (game_id,)).fetchall()
        if not rows:
            raise GameNotFound(f"{self._url} holds no game {game_id!r}")
        if not rows[0][0]:
            return None
        seats = tuple(SeatRecord(name, bot, digest) for _, _, name, bot, digest, _ in rows if name)
        return Seating(seats, rows[0][1], rows[0][5])

    def close(self) -> None:
        with self._listen_lock:
            self._closed = True
            listener, self._listen = self._listen, None
        if listener is not None:
            listener.close()
        self._pool.close()

    def ping(self) -> None:
        """``SELECT 1`` on a pooled connection, waiting at most ``PING_TIMEOUT`` for one."""
        if self._closed:
            raise StoreError(f"{self._url}: the store was closed")
        try:
            with self._pool.connection(timeout=PING_TIMEOUT) as conn:
                conn.execute("SELECT 1")
        except PoolTimeout:
            raise self._unavailable(self._why_unreachable()) from None
        except psycopg.Error as exc:
            raise self._unavailable(self._say(exc)) from None


#: How long ``PostgresStore.ping`` waits for a pooled connection (a readiness probe is quick).
PING_TIMEOUT = 2.0


def _configure(conn: psycopg.Connection) -> None:
    """Every pooled connection: commits wait for the server's disk, whatever its default."""
    conn.execute("SET synchronous_commit TO on")


def _connect_failure(exc: BaseException) -> str:
    """The reason libpq gave for a failed connection, without its preamble."""
    reason = _first_line(exc).rpartition("failed: ")[2]
    return reason.removeprefix("FATAL:").strip() or _first_line(exc)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


__all__ = ["PostgresStore", "PostgresStream", "public_url"]
