"""The bots of many tables, played at each table's pace by a few threads.

A table whose game waits for a bot is due ``pace`` seconds after its last
change. At that moment a worker asks the table's bot to decide on a snapshot
(``Table.decide_bot``, no lock held, so the pages stay responsive while a Monte
Carlo bot thinks) and commits the move only if the game is still where it was
(``Table.play``): a person's undo meanwhile, or another process's worker that
played the same turn first, turns it into nothing, never into a second move.
Every commit reschedules its table, so bots answer each other and people; at
pace 0 a worker whose table is due again at once plays on, as long as no other
table waits, instead of handing each move through the schedule and the pool.

Where several processes share a store, every process holding a table would play
its bots; the one whose own commit made the bot due plays at the table's pace,
the others only ``failover`` seconds later, if the game still waits then (the
process that should have played is gone, say): the turn is taken by whichever
claims it first, and the expected-seq append makes any second attempt nothing.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from core.errors import StoreUnavailable
from core.host.table import Table
from core.projections.steps import Commit

log = logging.getLogger(__name__)


class BotRunner:
    """Plays the bots of the tables added to it, each table at its own pace."""

    def __init__(
        self,
        workers: int = 2,
        clock: Callable[[], float] = time.monotonic,
        failover: float = 2.0,
    ) -> None:
        self._clock = clock
        self.failover = failover
        #: Seconds before a bot tries again when the store was out of reach.
        self.retry = 1.0
        self._due: list[tuple[float, int, Table]] = []  # (when, tie-break, table)
        self._order = itertools.count()
        self._busy: set[str] = set()  # tables a worker is playing now
        self._latest: dict[str, int] = {}  # each table's one due entry (older ones are void)
        self._again: set[str] = set()  # tables that came due while being played
        self._queued = 0  # moves handed to the pool that no worker has started yet
        self._unsubscribe: dict[str, Callable[[], None]] = {}
        self._cond = threading.Condition()
        self._closed = False
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="bots")
        self._thread = threading.Thread(target=self._schedule, name="bot-runner", daemon=True)
        self._thread.start()

    def add(self, table: Table) -> None:
        """Play this table's bots from now on (its next bot move after its pace)."""
        with self._cond:
            if self._closed or table.id in self._unsubscribe:
                return
            self._unsubscribe[table.id] = table.subscribe(
                # mypy cannot infer a lambda whose default argument binds the table
                lambda commits, table=table: self._changed(table, commits)  # type: ignore[misc]
            )
        self._changed(table, ())

    def remove(self, table: Table) -> None:
        """Stop playing this table's bots."""
        with self._cond:
            stop = self._unsubscribe.pop(table.id, None)
            self._latest.pop(table.id, None)
            self._due = [entry for entry in self._due if entry[2] is not table]
            heapq.heapify(self._due)
        if stop is not None:
            stop()

    def _changed(self, table: Table, commits: Sequence[Commit]) -> None:
        """A table changed (or was added): if a bot is to act, it is due after the pace."""
        self._later(table, self._delay(table))

    def _delay(self, table: Table) -> float:
        """Seconds from a change to the table's next bot move: its pace, and the failover
        too if the change came from another process (whose own bots go first)."""
        return table.pace + (self.failover if table.changed_elsewhere else 0.0)

    def _later(self, table: Table, delay: float) -> None:
        """The table's bot, if one is to act, is due in ``delay`` seconds."""
        if table.bot_to_act() is None:
            return
        with self._cond:
            if table.id not in self._unsubscribe:
                return
            if table.id in self._busy:  # its worker looks again when done (``_again``)
                self._again.add(table.id)
                return
            when, order = self._clock() + delay, next(self._order)
            self._latest[table.id] = order
            heapq.heappush(self._due, (when, order, table))
            self._cond.notify()

    def _schedule(self) -> None:
        while True:
            with self._cond:
                while not self._closed:
                    now = self._clock()
                    if self._due and self._due[0][0] <= now:
                        break
                    wait = self._due[0][0] - now if self._due else None
                    self._cond.wait(wait)
                if self._closed:
                    return
                _, order, table = heapq.heappop(self._due)
                if self._latest.get(table.id) != order:
                    continue  # rescheduled since
                if table.id in self._busy:
                    self._again.add(table.id)  # its worker looks again when done
                    continue
                self._busy.add(table.id)
                self._queued += 1
            self._pool.submit(self._move, table)

    def _move(self, table: Table) -> None:
        """Play the table's bot; while the next one is due at once (pace 0) and no other
        table waits, play on here rather than through the schedule and the pool."""
        with self._cond:
            self._queued -= 1
        while self._move_once(table):
            with self._cond:
                go_on = not self._closed and not self._others_wait()
                go_on = go_on and table.id in self._unsubscribe
                if go_on:
                    self._busy.add(table.id)
            if not go_on:
                self._changed(table, ())  # due again: through the schedule, after the others
                return

    def _move_once(self, table: Table) -> bool:
        """One move of the table's bot; True if it is due again at once and may go on here.
        Otherwise it has been rescheduled (or dropped, after a failure)."""
        played = []
        try:
            if table.changed_elsewhere:
                table.refresh()  # the game may have moved on elsewhere since it was due
            move = table.decide_bot()
            if move is not None:
                played = table.play(move)  # its commit schedules the next bot move
        except StoreUnavailable:  # the store is away a moment: try again a little later
            with self._cond:
                self._busy.discard(table.id)
            self._later(table, self.retry)
            return False
        except Exception:  # a bot's bug must not pass silently, nor stop the others
            log.exception("a bot of game %s failed to move", table.id)
            return False
        finally:
            with self._cond:
                self._busy.discard(table.id)
                again = table.id in self._again
                self._again.discard(table.id)
        if again or not played:
            if played and self._delay(table) <= 0 and table.bot_to_act() is not None:
                return True
            self._changed(table, ())  # due again meanwhile, or the game moved on: look again
        return False

    def _others_wait(self) -> bool:
        """True if another table's bot is due or waits for a worker (the lock is held)."""
        return self._queued > 0 or (bool(self._due) and self._due[0][0] <= self._clock())

    def close(self) -> None:
        """Stop playing every table (moves being decided are dropped)."""
        with self._cond:
            self._closed = True
            stops, self._unsubscribe = list(self._unsubscribe.values()), {}
            self._cond.notify_all()
        for stop in stops:
            stop()
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._thread.join(timeout=5.0)


__all__ = ["BotRunner"]
