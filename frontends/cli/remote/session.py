"""The play session for a server's game: the full-screen game, its host a ``RemoteTable``.

Everything the screen shows and every key works as in a local game (the
session, the chooser, the panels are the same); what differs is said here: the
choices are the server's, moves made elsewhere arrive through the event stream
(``follow``), a line says when the connection is lost and when it is tried
again, and a spectator (no seat) can look but not move.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import cast

from core import Choices, GameState, Table
from frontends.cli.remote.client import ServerError
from frontends.cli.remote.follow import Follower
from frontends.cli.remote.table import RemoteTable, Snapshot, fetch
from frontends.cli.tui.hints import Hint
from frontends.cli.tui.session import Session


class RemoteSession(Session):
    """A seat of a server's game played here (``remote.seat``), or the game watched."""

    def __init__(self, remote: RemoteTable, snapshot: Snapshot) -> None:
        self.remote = remote
        self.follower: Follower | None = None
        self.trouble: str | None = None  # the last fetch failed: why
        self.left = False  # the seat was left for good from here
        remote.apply(snapshot)  # the choices read with the log
        # the remote table stands in for the game host: it has every part a session uses
        super().__init__(remote.game, remote.seats, hints=False, host=cast(Table, remote))

    @property
    def watching(self) -> bool:
        """True when this terminal follows the game without a seat."""
        return self.remote.seat is None

    @property
    def spectating(self) -> bool:
        return self.watching

    @property
    def can_leave(self) -> bool:
        """A seat played here can be left for good while the game goes on."""
        state = self.state
        return self.remote.seat is not None and not state.is_over and self.remote.stopped is None

    def ask_leave(self) -> None:
        if self.watching:
            self.say("You are watching this game: q leaves it.", "error")
        elif self.state.is_over or self.remote.stopped is not None:
            self.say("The game is over: q leaves it.", "error")
        else:
            super().ask_leave()

    def leave(self) -> None:
        """Leave the game for good at the server (a bot plays the seat on, or the game
        closes with no person left); this screen then follows the game as a spectator."""
        self.overlay = None
        seat = self.remote.seat
        if seat is None:
            return
        try:
            self.remote.client.leave()
        except ServerError as failed:
            self.say(f"You could not leave the game: {failed.sentence}", "error")
            return
        self.remote.seat = None
        self.left = True
        self.chooser.reset()
        with contextlib.suppress(ServerError):  # the stream brings it otherwise
            self.remote.sync()
        self.chooser.refresh()
        self.say("You left the game: you are watching it now (q leaves).", "info")

    def read_model(self, state: GameState) -> Choices:
        return self.remote.choices(state)

    def input_seat(self) -> int:
        if self.remote.seat is not None:
            return self.remote.seat
        seat = self.state.to_act()
        return 0 if seat is None else seat

    def ask_hint(self) -> Hint | None:
        """t: no hints in a game played at a server (its other players play unaided)."""
        self.say(
            "Hints are off in a game played at a server: everyone there plays unaided.", "error"
        )
        return None

    def undo(self) -> bool:
        if self.watching:
            self.say("You are watching this game: only its players undo.", "error")
            return False
        return super().undo()

    def message(self) -> tuple[str, str]:
        """The connection's trouble first, while there is any; then the usual line."""
        follower = self.follower
        problem = self.trouble
        if follower is not None and follower.problem is not None:
            problem = follower.problem
        if problem is not None:
            if self.status and self.status_kind == "error":  # what went wrong with a move
                return f"{self.status} (Disconnected: reconnecting...)", "error"
            return f"Disconnected: {problem} Reconnecting...", "error"
        if follower is not None and follower.stopped is not None:
            return f"The game stopped at the server: {follower.stopped}. Quit with q.", "error"
        if self.watching and not self.status and not self.state.is_over:
            return f"Watching: {self.waiting()}  (q leaves)", "info"
        return super().message()

    # -- keeping up ------------------------------------------------------------

    def catch_up_with(self, snapshot: Snapshot) -> bool:
        """Fold a snapshot fetched off the loop; True if the screen must change."""
        seq = self.game.seq
        changed = self.remote.apply(snapshot)
        if self.game.seq != seq:
            self.after_change()
        elif changed:
            self.chooser.refresh()
        return changed

    async def follow(self, redraw: Callable[[], None]) -> None:
        """Follow the game's stream until the game ends (or the screen closes): each message
        wakes this task, which fetches the moves off the loop and folds them on it."""
        loop = asyncio.get_running_loop()
        woken = asyncio.Event()

        def wake() -> None:
            loop.call_soon_threadsafe(woken.set)

        self.follower = Follower(self.remote.client, self.game.seq - 1, wake).start()
        try:
            while True:
                await woken.wait()
                woken.clear()
                await self._fetch(loop, redraw)
                if self.follower.stopped is not None:
                    self.remote.stopped = self.follower.stopped
                redraw()
        finally:
            self.follower.stop()

    async def _fetch(self, loop: asyncio.AbstractEventLoop, redraw: Callable[[], None]) -> None:
        """Read the game and its choices until it works (the stream told of a change)."""
        pause = 0.5
        while True:
            try:
                snapshot = await loop.run_in_executor(None, fetch, self.remote.client)
            except ServerError as failed:
                self.trouble = failed.sentence
                redraw()
                await asyncio.sleep(pause)
                pause = min(pause * 2, 8.0)
                continue
            self.trouble = None
            self.catch_up_with(snapshot)
            return


__all__ = ["RemoteSession"]
