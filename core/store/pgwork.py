"""The work a PostgreSQL database hands out to the servers sharing it, once each.

Many servers, each of several workers, share one database. None of them holds
every game: a worker loads a game's table when it is asked for it, and the
database says what is to be done and who does it (the pattern of work queues on
PostgreSQL: a row per job, claimed with ``FOR UPDATE SKIP LOCKED``):

* **Places.** ``live_games`` has a row per game in play. A new game takes one
  (``hold``) only while the site holds fewer than its limit and the client fewer
  than its own, checked under one advisory lock so two servers cannot share the
  last place; the game's end gives it back.
* **Status.** After each move its writer leaves the game's status there (``sync``):
  the seq it was taken at, whether it waits on a person or a bot, when a person
  last moved. The idle sweep reads it instead of loading every game.
* **Bot turns.** A game whose bot is due has a row in ``bot_turns``; a worker
  claims it (``claim``) under a lease, plays it, and the move's own status makes
  the next turn (or removes the row). A worker that dies holding a claim loses it
  when the lease runs out, and another takes it. The worker whose move made the
  turn due (its ``home``) claims it at once; the others only ``failover`` seconds
  later, so a game stays where it is played.
* **The sweep.** ``sweeps`` says when the idle sweep is next due: the worker that
  moves that time on (``sweep_turn``) sweeps, once for the whole site.

None of this is the log: these rows change and go, and each is made again from
the log (``stale``: a status behind its game's head is looked at again).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any

from attrs import frozen

#: Opens a pooled connection for one ``with`` block (``PostgresStore._connection``): the
#: database's failures come out as the store's own errors.
Connect = Callable[[], AbstractContextManager[Any]]

#: The advisory lock key places are held under (``pg_advisory_xact_lock``): "DMplaces".
PLACES_LOCK = 0x444D706C61636573


@frozen
class Refusal:
    """Why no place was held: ``"full"`` (the site's limit) or ``"client"`` (its own)."""

    why: str
    held: int  # the places counted against the limit that refused


@frozen
class Status:
    """What a game's writer leaves after a move, for the work the database hands out."""

    seq: int  # the game's next seq when this was taken
    waits: str | None  # "person", "bot", "reveal" (ended, its secret not yet out), or None
    persons: int  # the seats people play
    person_moved: bool  # True if this move was a person's
    over: bool  # True once the game is over: its place is free
    bot_due: float | None = None  # seconds until the bot's turn is due (if it waits on one)


@frozen
class Claim:
    """A bot turn a worker holds: the game and the seq it was due at."""

    game_id: str
    seq: int


@frozen
class LiveRow:
    """A live game's status as the sweep reads it (times in seconds since the epoch)."""

    game_id: str
    seq: int
    head: int | None  # its game's next seq (None: the game is not stored: an orphan)
    waits: str | None
    persons: int
    person_moved: float
    changed: float


_HOLD_COUNTS = """
SELECT count(*), count(*) FILTER (WHERE client = %(client)s) FROM live_games
"""

_SYNC = """
WITH s AS (
    UPDATE live_games SET seq = %(seq)s, waits = %(waits)s, persons = %(persons)s,
        changed = clock_timestamp(),
        person_moved = CASE WHEN %(moved)s THEN clock_timestamp() ELSE person_moved END
    WHERE game = %(game)s AND seq <= %(seq)s
    RETURNING game
)
SELECT count(*) FROM s
"""

_DUE = """
INSERT INTO bot_turns (game, seq, due, home)
VALUES (%(game)s, %(seq)s, clock_timestamp() + %(delay)s * interval '1 second', %(home)s)
ON CONFLICT (game) DO UPDATE
    SET seq = EXCLUDED.seq, due = EXCLUDED.due, home = EXCLUDED.home,
        claimed_by = NULL, lease_until = NULL
    WHERE bot_turns.seq <= EXCLUDED.seq
"""

_CLAIM = """
UPDATE bot_turns SET claimed_by = %(me)s,
    lease_until = clock_timestamp() + %(lease)s * interval '1 second'
WHERE game = (
    SELECT game FROM bot_turns
    WHERE (claimed_by IS NULL OR lease_until < clock_timestamp())
      AND due + CASE WHEN home = %(me)s OR home IS NULL OR claimed_by IS NOT NULL
                     THEN interval '0' ELSE %(failover)s * interval '1 second' END
          <= clock_timestamp()
    ORDER BY due
    FOR UPDATE SKIP LOCKED
    LIMIT 1
)
RETURNING game, seq
"""

_NEXT_DUE = """
SELECT extract(epoch FROM min(due + CASE WHEN home = %(me)s OR home IS NULL
                                         THEN interval '0'
                                         ELSE %(failover)s * interval '1 second' END
                              - clock_timestamp()))::float8
FROM bot_turns WHERE claimed_by IS NULL OR lease_until < clock_timestamp()
"""

_LIVE_ROWS = """
SELECT l.game, l.seq, g.next_seq, l.waits, l.persons,
       extract(epoch FROM l.person_moved)::float8, extract(epoch FROM l.changed)::float8
FROM live_games l LEFT JOIN games g ON g.id = l.game
"""


class WorkBoard:
    """The work a PostgreSQL store's database hands out (``PostgresStore.work``)."""

    def __init__(self, connect: Connect) -> None:
        self._connect = connect

    # -- places --------------------------------------------------------------

    def hold(
        self, game_id: str, client: str | None, limit: int, per_client: int | None
    ) -> Refusal | None:
        """Hold a place for the new game ``game_id`` (before it is stored), for ``client``;
        the refusal if the site (``limit``) or the client (``per_client``) has no room."""
        with self._connect() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (PLACES_LOCK,))
            row = conn.execute(_HOLD_COUNTS, {"client": client}).fetchone()
            total, mine = (row[0], row[1]) if row is not None else (0, 0)
            if client is not None and per_client is not None and mine >= per_client:
                return Refusal("client", mine)
            if total >= limit:
                return Refusal("full", total)
            conn.execute("INSERT INTO live_games (game, client) VALUES (%s, %s)", (game_id, client))
        return None

    def release(self, game_id: str) -> None:
        """Give back a game's place, and drop its bot turn (it is over, or never was)."""
        with self._connect() as conn, conn.transaction():
            conn.execute("DELETE FROM bot_turns WHERE game = %s", (game_id,))
            conn.execute("DELETE FROM live_games WHERE game = %s", (game_id,))

    def disown(self, game_id: str, client: str) -> None:
        """``client`` left ``game_id``: if it made the game, the game plays on no longer
        counted among its places."""
        with self._connect() as conn:
            conn.execute(
                "UPDATE live_games SET client = NULL WHERE game = %s AND client = %s",
                (game_id, client),
            )

    def live(self) -> int:
        """How many places are held (games in play, site-wide)."""
        with self._connect() as conn:
            row = conn.execute("SELECT count(*) FROM live_games").fetchone()
        return row[0] if row is not None else 0

    def live_ids(self, limit: int) -> list[str]:
        """The games in play that changed last, at most ``limit``, newest first."""
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT l.game FROM live_games l JOIN games g ON g.id = l.game "
                "ORDER BY l.changed DESC LIMIT %s",
                (limit,),
            ).fetchall()
        return [row[0] for row in rows]

    # -- status and bot turns ------------------------------------------------

    def sync(self, game_id: str, status: Status, home: str) -> None:
        """Leave the game's status after a move, and make (or drop) its bot turn, in one
        transaction; an older status never overwrites a newer one. A game over gives its
        place back. A game with no place (taken up from before places existed, or
        adopted) gets one: it is in play."""
        with self._connect() as conn, conn.transaction():
            if status.over:
                conn.execute("DELETE FROM bot_turns WHERE game = %s", (game_id,))
                conn.execute("DELETE FROM live_games WHERE game = %s", (game_id,))
                return
            params = {
                "game": game_id,
                "seq": status.seq,
                "waits": status.waits,
                "persons": status.persons,
                "moved": status.person_moved,
            }
            row = conn.execute(_SYNC, params).fetchone()
            if row is not None and row[0] == 0:  # no row, or a newer status already there
                conn.execute(
                    "INSERT INTO live_games (game, seq, waits, persons) "
                    "VALUES (%(game)s, %(seq)s, %(waits)s, %(persons)s) "
                    "ON CONFLICT (game) DO NOTHING",
                    params,
                )
            if status.waits == "bot" and status.bot_due is not None:
                conn.execute(
                    _DUE,
                    {"game": game_id, "seq": status.seq, "delay": status.bot_due, "home": home},
                )
            else:
                conn.execute(
                    "DELETE FROM bot_turns WHERE game = %s AND seq <= %s", (game_id, status.seq)
                )

    def claim(self, me: str, *, lease: float, failover: float) -> Claim | None:
        """Claim the bot turn due first that no one holds (``me`` gets those it made at
        once, the others' only ``failover`` seconds late), for ``lease`` seconds."""
        params = {"me": me, "lease": lease, "failover": failover}
        with self._connect() as conn:
            row = conn.execute(_CLAIM, params).fetchone()
        return None if row is None else Claim(row[0], row[1])

    def done(self, claim: Claim, me: str) -> None:
        """Drop a claimed turn that was not played (no bot to act there any more); a turn
        made again since (a later seq) stays."""
        with self._connect() as conn:
            conn.execute(
                "DELETE FROM bot_turns WHERE game = %s AND seq = %s AND claimed_by = %s",
                (claim.game_id, claim.seq, me),
            )

    def retry(self, claim: Claim, me: str, delay: float) -> None:
        """Give a claimed turn back, due again in ``delay`` seconds (the store was away)."""
        with self._connect() as conn:
            conn.execute(
                "UPDATE bot_turns SET claimed_by = NULL, lease_until = NULL, "
                "due = clock_timestamp() + %s * interval '1 second' "
                "WHERE game = %s AND seq = %s AND claimed_by = %s",
                (delay, claim.game_id, claim.seq, me),
            )

    def next_due(self, me: str, failover: float) -> float | None:
        """Seconds until the next turn ``me`` may claim is due (0 or less: now); None if
        none is waiting."""
        with self._connect() as conn:
            row = conn.execute(_NEXT_DUE, {"me": me, "failover": failover}).fetchone()
        return None if row is None or row[0] is None else float(row[0])

    # -- the sweep -------------------------------------------------------------

    def sweep_turn(self, every: float) -> bool:
        """True if it is this caller's turn to sweep (the time is moved on ``every``
        seconds, so no one else sweeps until then)."""
        with self._connect() as conn:
            row = conn.execute(
                "UPDATE sweeps SET next_at = clock_timestamp() + %s * interval '1 second' "
                "WHERE name = 'lobby' AND next_at <= clock_timestamp() RETURNING name",
                (every,),
            ).fetchone()
        return row is not None

    def rows(
        self, *, stale_after: float, idle: float | None, quiet: float | None, limit: int = 200
    ) -> list[LiveRow]:
        """The live games the sweep must look at: a status behind its game's head for
        ``stale_after`` seconds (its writer died between the two), a game ended without
        its reveal (its store away at that moment) or a place with no game,
        a game no person moved in for ``idle`` seconds, a person waited on for ``quiet``."""
        where = [
            "g.id IS NULL AND l.opened < clock_timestamp() - %(stale)s * interval '1 second'",
            "l.seq < g.next_seq AND "
            "g.updated < clock_timestamp() - %(stale)s * interval '1 second'",
            "l.waits = 'reveal' AND "
            "l.changed < clock_timestamp() - %(stale)s * interval '1 second'",
        ]
        if idle is not None:
            where.append(
                "l.waits = 'person' AND "
                "l.person_moved < clock_timestamp() - %(idle)s * interval '1 second'"
            )
        if quiet is not None:
            where.append(
                "l.waits = 'person' AND l.persons > 1 AND "
                "l.changed < clock_timestamp() - %(quiet)s * interval '1 second'"
            )
        sql = f"{_LIVE_ROWS} WHERE ({') OR ('.join(where)}) ORDER BY l.changed LIMIT %(limit)s"
        params = {"stale": stale_after, "idle": idle, "quiet": quiet, "limit": limit}
        with self._connect() as conn:
            found = conn.execute(sql, params).fetchall()
        return [LiveRow(*row) for row in found]

    def counts(self) -> dict[str, int]:
        """Bot turns waiting and claimed, and the places held: for a server's metrics."""
        with self._connect() as conn:
            row = conn.execute(
                "SELECT count(*) FILTER (WHERE claimed_by IS NULL OR lease_until < now()), "
                "count(*) FILTER (WHERE claimed_by IS NOT NULL AND lease_until >= now()), "
                "(SELECT count(*) FROM live_games) FROM bot_turns"
            ).fetchone()
        queued, claimed, live = row if row is not None else (0, 0, 0)
        return {"queued": queued, "claimed": claimed, "live": live}


def orphans(rows: Sequence[LiveRow]) -> list[str]:
    """The places that hold no stored game (its maker died before storing it)."""
    return [row.game_id for row in rows if row.head is None]


__all__ = ["Claim", "LiveRow", "Refusal", "Status", "WorkBoard", "orphans"]
