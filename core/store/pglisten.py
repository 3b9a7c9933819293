"""Wake-ups for the PostgreSQL store's followers: one LISTEN connection per store object.

Every append is announced by the database (``pg_notify`` on
``core.store.pgschema.NOTIFY_CHANNEL``, payload ``"<game id> <next seq>"``).
A store's ``AppendListener`` holds one connection listening on that channel, in
a background thread, and wakes only the followers waiting on the game named:
hundreds of followers share it, none holds a connection while it waits.

Notifications can be lost while the listening connection is down (a server
restart). The thread reconnects by itself, and each time it starts listening
again it wakes every follower to look for itself; until then, and at a slow
interval even while all is well, followers also look without being woken.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator

import psycopg

from core.store.pgschema import NOTIFY_CHANNEL

#: How often followers look by themselves while the listener is listening (seconds).
SLOW_POLL = 5.0
#: ... and while it is not (connecting, or reconnecting after losing the server).
FALLBACK_POLL = 1.0
#: How often the listening thread looks whether it was asked to stop.
TICK = 0.2
#: The longest pause between two attempts to connect again.
MOST_DELAY = 2.0


class _Waiters:
    """The followers of one game: a condition on the listener's lock, and a count of wake-ups."""

    __slots__ = ("count", "mark", "woken")

    def __init__(self, lock: threading.Lock) -> None:
        self.woken = threading.Condition(lock)
        self.count = 0  # followers waiting
        self.mark = 0  # notifications seen for this game


class Watch:
    """One follower's view of one game's wake-ups (made by ``AppendListener.watching``)."""

    def __init__(self, listener: AppendListener, waiters: _Waiters) -> None:
        self._listener = listener
        self._waiters = waiters

    def mark(self) -> tuple[int, int]:
        """What has happened so far: take it *before* looking at the game."""
        with self._listener._lock:
            return self._listener._epoch, self._waiters.mark

    def wait(self, seen: tuple[int, int], timeout: float) -> None:
        """Wait until something happened after ``seen`` (or ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        listener = self._listener
        with listener._lock:
            while (listener._epoch, self._waiters.mark) == seen and not listener._stop.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self._waiters.woken.wait(left)

    @property
    def poll_seconds(self) -> float:
        """How long to wait before looking anyway: notifications may have been lost."""
        return SLOW_POLL if self._listener.listening else FALLBACK_POLL


class AppendListener:
    """The LISTEN connection of one store object, in its own thread, started at once."""

    def __init__(self, conninfo: str, *, connect_timeout: float = 5.0) -> None:
        self._conninfo = conninfo
        self._connect_timeout = max(1, round(connect_timeout))
        self._lock = threading.Lock()
        self._games: dict[str, _Waiters] = {}
        self._epoch = 0  # bumped when every follower must look (listening again, stopping)
        self._stop = threading.Event()
        self._everything: list[Callable[[str | None, int], None]] = []  # told of every append
        self.listening = False
        self._thread = threading.Thread(target=self._run, name="dice-miner-listen", daemon=True)
        self._thread.start()

    @contextlib.contextmanager
    def watching(self, game_id: str) -> Iterator[Watch]:
        """Be woken by appends to ``game_id`` for the duration of the ``with`` block."""
        with self._lock:
            waiters = self._games.get(game_id)
            if waiters is None:
                waiters = self._games[game_id] = _Waiters(self._lock)
            waiters.count += 1
        try:
            yield Watch(self, waiters)
        finally:
            with self._lock:
                waiters.count -= 1
                if waiters.count == 0:
                    del self._games[game_id]

    def on_every_append(self, callback: Callable[[str | None, int], None]) -> Callable[[], None]:
        """Call ``callback(game_id, next_seq)`` after every append to any game, from the
        listening thread (keep it quick), and ``callback(None, 0)`` whenever notifications
        may have been lost (listening again after the server went away); returns how to
        stop."""
        with self._lock:
            self._everything.append(callback)

        def stop() -> None:
            with self._lock:
                if callback in self._everything:
                    self._everything.remove(callback)

        return stop

    def close(self) -> None:
        """Stop listening and wake every follower; waits briefly for the thread."""
        self._stop.set()
        self._wake_all()
        if self._thread is not threading.current_thread():
            self._thread.join(TICK + self._connect_timeout + 1.0)

    # -- the thread ------------------------------------------------------------------

    def _run(self) -> None:
        delay = 0.05
        while not self._stop.is_set():
            try:
                conn = psycopg.connect(
                    self._conninfo,
                    autocommit=True,
                    connect_timeout=self._connect_timeout,
                    keepalives=1,
                    keepalives_idle=30,
                    keepalives_interval=10,
                    keepalives_count=3,
                )
            except psycopg.Error:
                self._stop.wait(delay)
                delay = min(delay * 2, MOST_DELAY)
                continue
            delay = 0.05
            try:
                with conn:
                    conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self._set_listening(True)
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=TICK):
                            self._announce(note.payload)
            except psycopg.Error:
                pass  # the server went away: connect again, and meanwhile followers poll
            finally:
                self._set_listening(False)

    def _set_listening(self, listening: bool) -> None:
        self.listening = listening
        if listening:  # anything appended while nobody listened: every follower looks again
            self._wake_all()

    def _wake_all(self) -> None:
        with self._lock:
            self._epoch += 1
            for waiters in self._games.values():
                waiters.woken.notify_all()
            everything = list(self._everything)
        for callback in everything:
            callback(None, 0)

    def _announce(self, payload: str) -> None:
        game_id, _, next_seq = payload.rpartition(" ")
        with self._lock:
            waiters = self._games.get(game_id)
            if waiters is not None:
                waiters.mark += 1
                waiters.woken.notify_all()
            everything = list(self._everything)
        seq = int(next_seq) if next_seq.isdigit() else 0
        for callback in everything:
            callback(game_id, seq)


__all__ = ["FALLBACK_POLL", "SLOW_POLL", "AppendListener", "Watch"]
