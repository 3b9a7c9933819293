"""Game analyses queued in PostgreSQL: asked for through any server, run once by one worker.

An analysis weighs every decision of a game (about 12 s of one core for four
players), so the web never runs one in a request: it queues it, and a worker
(any web worker that runs analyses, or a ``dice-miner worker`` process) claims it
with ``FOR UPDATE SKIP LOCKED`` under a lease, writes its progress as it goes and
its document when done. A worker that dies holding one loses it when its lease
runs out, and another runs it again. The limits are the site's, kept here: how
many analyses one client may have waiting or running, and how many in all.

The row keeps the log's bytes, since the game may be an upload that only the
server that took it holds in memory.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from attrs import frozen

#: Opens a pooled connection for one ``with`` block (``PostgresStore._connection``): the
#: database's failures come out as the store's own errors.
Connect = Callable[[], AbstractContextManager[Any]]

#: The advisory lock key a queueing holds while it counts (``pg_advisory_xact_lock``).
QUEUE_LOCK = 0x444D616E616C7973  # "DManalys"


@frozen
class Queued:
    """An analysis as the queue holds it."""

    sha: str
    state: str  # "queued", "running", "done" or "failed"
    done: int
    total: int
    document: str | None  # the analysis as JSON, once done
    error: str | None


@frozen
class Claimed:
    """An analysis a worker holds: what it weighs."""

    sha: str
    name: str
    log: bytes


_CLAIM = """
UPDATE analyses SET state = 'running', claimed_by = %(me)s, done = 0,
    lease_until = clock_timestamp() + %(lease)s * interval '1 second'
WHERE sha = (
    SELECT sha FROM analyses
    WHERE state = 'queued' OR (state = 'running' AND lease_until < clock_timestamp())
    ORDER BY queued
    FOR UPDATE SKIP LOCKED
    LIMIT 1
)
RETURNING sha, name, log
"""


class AnalysisQueue:
    """The analyses a PostgreSQL store's database keeps (``PostgresStore.analyses``)."""

    def __init__(self, connect: Connect, closed: Callable[[], bool]) -> None:
        self._connect = connect
        self._closed = closed

    @property
    def closed(self) -> bool:
        """True once its store is closed: nothing more is claimed."""
        return self._closed()

    def get(self, sha: str) -> Queued | None:
        """The analysis of the log whose SHA-256 is ``sha``, if one was asked for."""
        with self._connect() as conn:
            row = conn.execute(
                "SELECT sha, state, done, total, document, error FROM analyses WHERE sha = %s",
                (sha,),
            ).fetchone()
        return None if row is None else Queued(*row)

    def add(
        self, sha: str, name: str, log: bytes, client: str | None, per_client: int, limit: int
    ) -> Queued | str:
        """Queue an analysis (or find it queued, running or done); ``"client"`` if the
        client already has ``per_client`` waiting or running, ``"full"`` if ``limit`` are,
        site-wide. A failed one is queued again."""
        with self._connect() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (QUEUE_LOCK,))
            row = conn.execute(
                "SELECT sha, state, done, total, document, error FROM analyses WHERE sha = %s",
                (sha,),
            ).fetchone()
            if row is not None and row[1] != "failed":
                return Queued(*row)
            counts = conn.execute(
                "SELECT count(*), count(*) FILTER (WHERE client = %s) FROM analyses "
                "WHERE state IN ('queued', 'running')",
                (client,),
            ).fetchone()
            total, mine = counts if counts is not None else (0, 0)
            if client is not None and mine >= per_client:
                return "client"
            if total >= limit:
                return "full"
            conn.execute(
                "INSERT INTO analyses (sha, name, client, log, state) "
                "VALUES (%s, %s, %s, %s, 'queued') ON CONFLICT (sha) DO UPDATE SET "
                "state = 'queued', client = EXCLUDED.client, done = 0, total = 0, "
                "error = NULL, claimed_by = NULL, lease_until = NULL, queued = clock_timestamp()",
                (sha, name[:200], client, log),
            )
        return Queued(sha, "queued", 0, 0, None, None)

    def claim(self, me: str, lease: float) -> Claimed | None:
        """The analysis waiting longest (or one whose worker's lease ran out), now ``me``'s."""
        with self._connect() as conn:
            row = conn.execute(_CLAIM, {"me": me, "lease": lease}).fetchone()
        return None if row is None else Claimed(row[0], row[1], bytes(row[2]))

    def progress(self, sha: str, me: str, done: int, total: int, lease: float) -> bool:
        """Note how far ``me`` has got and hold the lease on; False if it is no longer
        ``me``'s (its lease ran out and another worker took it)."""
        with self._connect() as conn:
            row = conn.execute(
                "UPDATE analyses SET done = %s, total = %s, "
                "lease_until = clock_timestamp() + %s * interval '1 second' "
                "WHERE sha = %s AND claimed_by = %s AND state = 'running' RETURNING sha",
                (done, total, lease, sha, me),
            ).fetchone()
        return row is not None

    def finish(self, sha: str, me: str, document: str | None, error: str | None) -> None:
        """Keep the document (or why it failed) of the analysis ``me`` ran."""
        state = "done" if document is not None else "failed"
        with self._connect() as conn:
            conn.execute(
                "UPDATE analyses SET state = %s, document = %s, error = %s, done = total, "
                "claimed_by = NULL, lease_until = NULL WHERE sha = %s AND claimed_by = %s",
                (state, document, error, sha, me),
            )

    def counts(self) -> dict[str, Any]:
        """Analyses waiting and running, site-wide (for metrics)."""
        with self._connect() as conn:
            row = conn.execute(
                "SELECT count(*) FILTER (WHERE state = 'queued'), "
                "count(*) FILTER (WHERE state = 'running') FROM analyses"
            ).fetchone()
        queued, running = row if row is not None else (0, 0)
        return {"analyses_queued": queued, "analyses_running": running}


__all__ = ["AnalysisQueue", "Claimed", "Queued"]
