"""A web table as the terminal's play session sees it: the seam between the two.

The play session (``frontends.cli.tui.session``) drives a game host: it asks
whose turn it is, issues a seat's commands and hears of every commit. For a
game kept by a server, ``RemoteTable`` answers those questions instead:

* the board is core's own ``Game``, folded here from the server's log (the same
  batches, with the same code the server folds them with: undo included), so the
  screen draws a ``GameState`` exactly as it does for a local game;
* what the seat may do comes from the server's choices (``choices.read_choices``),
  made for the same seq as the board;
* a move is POSTed with the seq it was decided at and a request id; if it could
  not be sent, the same move tried again reuses that id, so it is made once.

Network work (``fetch``) runs off the screen's loop; ``apply`` folds what it
fetched on the loop, so the screen never changes under its own feet.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Sequence
from typing import Any

from attrs import frozen

from core import (
    Batch,
    Choices,
    Command,
    CommandUndone,
    Commit,
    DiceMinerError,
    Game,
    GameState,
    MemoryStream,
    RuleError,
    SeatRecord,
    Undo,
    command_to_dict,
    load_batches_bytes,
    replay_scan,
)
from frontends.cli.remote.choices import read_choices
from frontends.cli.remote.client import Client, ServerError, new_request_id

#: Tries at reading the log and the choices at one seq (a bot may move between the two).
FETCH_TRIES = 4


@frozen
class Snapshot:
    """The server's game at one moment: its log's batches and the choices at its end
    (None if a move came between the two reads; the next snapshot brings them)."""

    batches: tuple[Batch, ...]
    seq: int
    choices: dict[str, Any] | None


def _read_log(data: bytes, name: str):
    try:
        return load_batches_bytes(data, name=name)
    except (DiceMinerError, ValueError) as exc:
        raise ServerError(f"The server's log of the game could not be read ({exc}).") from None


def fetch(client: Client) -> Snapshot:
    """The game's log and the choices at its end, read one after the other until they
    hold for the same seq (blocking: run it off the screen's loop)."""
    for _ in range(FETCH_TRIES):
        _scan, batches = _read_log(client.log(), f"{client.link.game_id}.dmlog")
        seq = batches[-1].end if batches else 0
        choices = client.choices()
        if choices.get("seq") == seq:
            return Snapshot(tuple(batches), seq, choices)
    return Snapshot(tuple(batches), seq, None)


def open_game(client: Client) -> tuple[Game, Snapshot]:
    """The game as the server's log holds it now, folded here, and the choices at its end."""
    data = client.log()
    name = f"{client.link.game_id}.dmlog"
    scan, batches = _read_log(data, name)
    try:
        game = Game(MemoryStream.holding(scan.header, scan.payloads, batches))
        game.timeline = replay_scan(scan, batches, game.stream)
    except (DiceMinerError, ValueError) as exc:
        raise ServerError(f"The server's log of the game could not be replayed ({exc}).") from None
    choices = client.choices()
    seq = game.seq
    return game, Snapshot(tuple(batches), seq, choices if choices.get("seq") == seq else None)


class RemoteTable:
    """The part of ``core.host.Table`` a play session uses, for a server's game.

    ``seat`` is the seat this terminal plays (None: it only watches). Every other seat,
    person or bot, is played elsewhere: no bot moves here.
    """

    def __init__(
        self, client: Client, game: Game, seats: Sequence[SeatRecord], seat: int | None
    ) -> None:
        self.client = client
        self.game = game
        self.seats = tuple(seats)
        self.seat = seat
        self.changed = threading.RLock()  # what the session holds while it reads commits
        self.stopped: str | None = None  # the server said the game stopped: why
        self._listeners: list[Callable[[list[Commit]], None]] = []
        self._choices: tuple[int, dict[str, Any]] | None = None
        self._model: tuple[GameState, Choices] | None = None
        #: A move that could not be sent: (seq, command, request id), reused if tried again.
        self._unsent: tuple[int, dict[str, Any], str] | None = None

    # -- who sits where ------------------------------------------------------

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def seq(self) -> int:
        return self.game.seq

    @property
    def persons(self) -> tuple[int, ...]:
        """The seats played at this keyboard: the link's, or none when watching."""
        return () if self.seat is None else (self.seat,)

    def is_person(self, seat: int) -> bool:
        return seat == self.seat

    def person_to_act(self) -> int | None:
        seat = self.game.state.to_act()
        return seat if seat is not None and seat == self.seat else None

    def bot_to_act(self) -> None:
        """No bot moves here: the server's bots play at the server."""
        return None

    def decide_bot(self) -> None:
        return None

    def play(self, move: object) -> bool:
        return False

    def can_undo(self, seat: int) -> bool:
        """Whether the server would take an undo by ``seat`` now, as its choices for this
        position say (``can_undo``, by seat); not known yet: the seat played here may ask
        (the server decides, and says why not)."""
        held = self._choices
        flags = held[1].get("can_undo") if held is not None and held[0] == self.seq else None
        if isinstance(flags, list) and 0 <= seat < len(flags):
            return bool(flags[seat])
        return seat == self.seat

    def subscribe(self, listener: Callable[[list[Commit]], None]) -> Callable[[], None]:
        """Hear of every commit folded here (as ``Table.subscribe``)."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    # -- the choices ---------------------------------------------------------

    def choices(self, state: GameState) -> Choices:
        """The server's choices for ``state`` if it is the board now and they were read for
        it; otherwise nothing to choose (until the next snapshot brings them)."""
        model = self._model
        if model is not None and model[0] is state:
            return model[1]
        held = self._choices
        if state is self.game.state and held is not None and held[0] == self.game.seq:
            found = read_choices(held[1], state)
        else:
            found = Choices(state.to_act(), state.phase, False, state)
        self._model = (state, found)
        return found

    # -- folding what the server holds ---------------------------------------

    def apply(self, snapshot: Snapshot) -> bool:
        """Fold the batches of ``snapshot`` this game lacks, and take its choices if they
        are for the board now. True if anything changed."""
        stream, before = self.game.stream, self.game.seq
        for batch in snapshot.batches:
            if batch.seq >= stream.next_seq():
                stream.append(batch)
        commits = self.game.catch_up()
        if commits:
            with self.changed:
                for listener in list(self._listeners):
                    listener(commits)
        fresh = snapshot.choices is not None and snapshot.seq == self.game.seq
        if fresh and (self._choices is None or self._choices[0] != snapshot.seq or commits):
            self._choices = (snapshot.seq, snapshot.choices)  # type: ignore[assignment]
            self._model = None
            return True
        return self.game.seq != before

    def sync(self) -> bool:
        """Fetch and fold now (blocking): after a move of our own, so it shows at once."""
        return self.apply(fetch(self.client))

    # -- acting --------------------------------------------------------------

    def issue(self, seat: int, command: Command) -> list[dict[str, Any]]:
        """Send the seat's move to the server; a refusal is a ``RuleError`` with the server's
        code and sentence (the session shows it), as is a server that cannot be reached."""
        if self.seat is None:
            raise RuleError("watching", "You are watching this game: only its players move.")
        if self.stopped is not None:
            raise RuleError("stopped", f"The game stopped at the server: {self.stopped}.")
        data = {"t": Undo.TAG} if isinstance(command, Undo) else command_to_dict(command)
        seq = self.game.seq
        unsent = self._unsent
        request = unsent[2] if unsent is not None and unsent[:2] == (seq, data) else None
        request = request or new_request_id()
        try:
            answer = self.client.send(data, seq=seq, request_id=request)
        except ServerError as failed:
            self._unsent = None if failed.reached else (seq, data, request)
            if not failed.reached:
                raise RuleError(
                    failed.code,
                    failed.sentence + " Your move was not made yet: "
                    "try it again once the server is back.",
                ) from None
            raise RuleError(failed.code, failed.sentence) from None
        self._unsent = None
        with contextlib.suppress(ServerError):  # made: else the stream brings it later
            self.sync()
        events = answer.get("events")
        return events if isinstance(events, list) else []

    def undo(self, seat: int) -> list[dict[str, Any]]:
        """Ask the server to undo the seat's last move (its undo policy decides how far);
        the events it caused, one ``CommandUndone`` per command taken back."""
        events = self.issue(seat, Undo(seat))
        return [e for e in events if e.get("type") == CommandUndone.TAG]


__all__ = ["RemoteTable", "Snapshot", "fetch", "open_game"]
