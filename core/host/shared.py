"""A server's part in the work a shared store hands out: statuses left, bot turns claimed.

Where many servers share a PostgreSQL store, no worker holds every game: it
loads a table when it is asked for one (``core.host.lobby``) and the database
says what is to be done (``core.store.pgwork``). This module is the worker's
side of that:

* ``status_of`` is what a table's writer leaves in the database after each of its
  moves (``Lobby`` syncs it from the table's commits): whether the game waits on a
  person or a bot, and so whether a bot turn is due.
* ``JobBotRunner`` plays the bot turns this worker claims: it loads the game's
  table, lets its bot decide on a snapshot and commits the move at the seq it was
  due at; the move's own status makes the next turn. A worker that dies holding a
  turn loses it when its lease runs out, and another worker plays it: every turn
  once, by whoever claims it (the expected-seq append makes a second attempt
  nothing).
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import socket
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from core.errors import StoreError, StoreUnavailable
from core.host.table import Table
from core.projections.steps import Commit
from core.store.pgwork import Claim, Status, WorkBoard

log = logging.getLogger(__name__)

#: Seconds a claimed bot turn is held before another worker may take it.
LEASE = 5.0
#: Seconds another worker waits past a turn's due time before playing it for its maker.
FAILOVER = 2.0
#: The longest a runner sleeps before asking the database for due turns (others' turns,
#: and ones whose holder died).
POLL = 1.0
#: Seconds before a turn is tried again after the store was away or the bot failed.
RETRY = 1.0


def worker_name() -> str:
    """This process's name in the database's claims: host, pid and a random tag."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"


def status_of(table: Table, commits: Sequence[Commit]) -> Status:
    """The status ``table``'s writer leaves after ``commits`` (``core.store.pgwork``)."""
    state = table.state
    over = state.is_over and not state.facts.secret_dice
    waits = None
    if state.is_over and not over:  # ended without its reveal: the sweep sees it made
        waits = "reveal"
    elif not over and table.playable and table.stopped is None and not table.closed:
        seat = state.to_act()
        if seat is not None:
            waits = "bot" if table.bot_kind(seat) is not None else "person"
    moved = any(table.is_person(getattr(c.batch.command, "seat", -1)) for c in commits)
    return Status(
        seq=table.seq,
        waits=waits,
        persons=len(table.persons),
        person_moved=moved,
        over=over,
        bot_due=table.pace if waits == "bot" else None,
    )


class JobBotRunner:
    """Plays the bot turns the database hands this worker (``WorkBoard.claim``).

    ``load`` finds a game's table (the lobby's, loaded if this worker does not hold it).
    It has the ``BotRunner``'s face (``add``, ``remove``, ``close``) for the lobby, but
    schedules nothing itself: a move's status makes the next turn, and ``poke`` wakes
    the runner when this worker made one."""

    def __init__(
        self,
        board: WorkBoard,
        load: Callable[[str], Table | None],
        *,
        me: str | None = None,
        workers: int = 2,
        lease: float = LEASE,
        failover: float = FAILOVER,
    ) -> None:
        self.board = board
        self.me = me or worker_name()
        self.lease = lease
        self.failover = failover
        self._load = load
        self._workers = workers
        #: Bot moves this runner played (each turn is played by one runner, once).
        self.played = 0
        self._active = 0
        self._poked = False
        self._closed = False
        self._cond = threading.Condition()
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="bot-turns")
        self._thread = threading.Thread(target=self._run, name="bot-turns", daemon=True)
        self._thread.start()

    def add(self, table: Table) -> None:
        """Nothing to do: the table's own statuses make its bot turns."""

    def remove(self, table: Table) -> None:
        """Nothing to do: a turn of a table dropped here is played by whoever claims it."""

    def poke(self) -> None:
        """A turn this worker made may be due now: look at once."""
        with self._cond:
            self._poked = True
            self._cond.notify_all()

    def close(self) -> None:
        """Stop claiming; turns being played finish (or their leases run out)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(timeout=5.0)
        self._pool.shutdown(wait=True, cancel_futures=True)

    # -- the loop ----------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._active >= self._workers and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
                self._poked = False
            wait = self._claim_some()
            with self._cond:
                if not self._poked and not self._closed:
                    self._cond.wait(wait)

    def _claim_some(self) -> float:
        """Claim due turns while a worker is free; how long to sleep before looking again."""
        try:
            while True:
                with self._cond:
                    if self._active >= self._workers or self._closed:
                        return POLL
                claim = self.board.claim(self.me, lease=self.lease, failover=self.failover)
                if claim is None:
                    break
                with self._cond:
                    self._active += 1
                self._pool.submit(self._play, claim)
            due = self.board.next_due(self.me, self.failover)
        except (StoreUnavailable, StoreError) as exc:
            log.warning("bot turns could not be claimed: %s", exc)
            return RETRY
        if due is None:
            return POLL
        return min(max(due, 0.01), POLL)

    def _play(self, claim: Claim) -> None:
        try:
            self._play_turn(claim)
        except StoreUnavailable:  # away a moment: the turn is tried again soon
            self._give_back(claim, RETRY)
        except Exception:  # a bot's bug must not pass silently, nor stop the others
            log.exception("a bot of game %s failed to move", claim.game_id)
            self._give_back(claim, RETRY * 5)
        finally:
            with self._cond:
                self._active -= 1
                self._cond.notify_all()

    def _play_turn(self, claim: Claim) -> None:
        table = self._load(claim.game_id)
        if table is None:  # not a hosted game (no seating), or gone
            self.board.done(claim, self.me)
            return
        with table.in_use():
            table.refresh()
            if table.seq != claim.seq:  # moved on: that move's status made its own turn
                self.board.done(claim, self.me)
                return
            move = table.decide_bot()
            played = [] if move is None else table.play(move)
            if played:
                with self._cond:
                    self.played += 1
                return  # its status made the next turn, or dropped this one
            if table.closed:  # dropped here meanwhile: someone plays it from the store
                self._give_back(claim, 0.0)
            else:
                self.board.done(claim, self.me)

    def _give_back(self, claim: Claim, delay: float) -> None:
        # if this fails, its lease runs out, and whoever claims it then plays it
        with contextlib.suppress(StoreUnavailable, StoreError):
            self.board.retry(claim, self.me, delay)


__all__ = ["FAILOVER", "LEASE", "JobBotRunner", "status_of", "worker_name"]
