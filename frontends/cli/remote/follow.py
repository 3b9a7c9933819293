"""Following a server's game: its event stream read in a thread, resumed when it drops.

The stream (``GET /api/games/ID/stream``) says when the game moved; each message
wakes the session, which reads the moves themselves (``table.fetch``) and folds
them. A stream the server ends on its own (it closes each after a while) is
opened again at once, with ``Last-Event-ID`` naming the last event seen, so no
move is missed or told twice; one that fails is tried again with a growing pause
(``BACKOFF``), and meanwhile ``problem`` says what is wrong, for the screen.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable

from frontends.cli.remote.client import Client, ServerError

#: Pauses between tries at reconnecting, in seconds; the last repeats.
BACKOFF = (0.5, 1.0, 2.0, 4.0, 8.0)
#: A stream the server ends sooner than this after opening it is reopened after a pause.
QUICK = 1.0


class Follower:
    """Reads the game's stream until the game ends (or ``stop``), calling ``wake`` for every
    message and every change of ``problem``."""

    def __init__(self, client: Client, last_id: int, wake: Callable[[], None]) -> None:
        self.client = client
        self.last_id = last_id
        self.wake = wake
        #: What is wrong with the connection, in words (None while it is fine).
        self.problem: str | None = None
        self.retry_in: float = 0.0
        #: Set once the server says the game is over (``end``) or stopped (``stopped``).
        self.ended: str | None = None
        self.stopped: str | None = None
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="dice-miner-follow", daemon=True)

    def start(self) -> Follower:
        self.thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        failures = quick = 0
        while not self._stop.is_set() and self.ended is None:
            opened = time.monotonic()
            try:
                for event, last_id, data in self.client.stream(self.last_id):
                    if self._stop.is_set():
                        return
                    if self.problem is not None:  # connected again: say so
                        self.problem, failures = None, 0
                        self.wake()
                    if event == "open":
                        failures = 0
                        continue
                    if last_id is not None and last_id.isdigit():
                        self.last_id = int(last_id)
                    if event == "end":
                        self.ended = "over"
                    elif event == "stopped":
                        self.ended, self.stopped = "stopped", _reason(data)
                    self.wake()
                    if self.ended is not None:
                        return
                # the server closed the stream, as it does now and then: resume at once,
                # unless it closes each at once (a game closed early): then pause between
                quick = quick + 1 if time.monotonic() - opened < QUICK else 0
                if quick and self._stop.wait(BACKOFF[min(quick - 1, len(BACKOFF) - 1)]):
                    return
            except ServerError as failed:
                self.retry_in = BACKOFF[min(failures, len(BACKOFF) - 1)]
                failures += 1
                self.problem = failed.sentence
                self.wake()
                if self._stop.wait(self.retry_in):
                    return


def _reason(data: str) -> str:
    """Why the server says the game stopped (its ``stopped`` message's reason)."""
    try:
        return str(json.loads(data)["reason"])
    except (ValueError, KeyError, TypeError):
        return "its server could not keep a move"


__all__ = ["BACKOFF", "Follower"]
