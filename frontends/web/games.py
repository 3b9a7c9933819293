"""Live games on the server: each a logged ``Game`` with seats, secret seat tokens and bots.

A ``LiveGame`` holds one lock (a condition) around its ``Game``: commands from
browsers and moves of its bot thread take turns under it, and every committed
batch wakes the event streams waiting on it. Each event is kept as its record
in words (``event_record``), so a spectator who joins late or reconnects gets
the events from any seq on. Each human seat has a token (``secrets``), compared
in constant time; bots play from the same legal commands a person sees
(``core.bots.play.bot_command``), at a configurable pace.

Each game's seats and tokens are kept next to its log (``seatfile``), written
before any link is handed out, so a restarted server can take the game up again
(``resume``).
"""

from __future__ import annotations

import contextlib
import hmac
import logging
import os
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from core.bots import BOTS, make_bot
from core.bots.play import bot_command
from core.commands import Command, Undo
from core.errors import RuleError
from core.events.base import Event
from core.events.codec import Batch
from core.events.game import CommandUndone
from core.game import Game
from core.projections.state import GameState
from core.projections.timeline import Timeline, replay
from core.projections.views import Step, StepReader, event_record
from frontends.web.readmodel import ScoreSeries, board_view, choices
from frontends.web.seatfile import SeatInfo, Seats, log_path, seats_path, write_seats

log = logging.getLogger(__name__)

#: Longest player name accepted.
MAX_NAME = 24
#: Names given to bots left unnamed, by seat.
DWARVES = ("Ada", "Brok", "Cira", "Dain")
_NAME = re.compile(r"^[^\x00-\x1f\x7f]+$")  # any printable text; the pages escape it


def _is_name(name: object) -> bool:
    """Printable text of at most MAX_NAME characters that UTF-8 can hold (no lone surrogate)."""
    if not isinstance(name, str) or not _NAME.match(name) or len(name.strip()) > MAX_NAME:
        return False
    try:
        name.encode()
    except UnicodeEncodeError:  # "\ud800" from JSON: the log could not record it
        return False
    return True


class SetupError(ValueError):
    """Options that cannot make a game (answered as 400 with this message)."""


def parse_seats(players: object) -> list[tuple[str, str | None]]:
    """``[{"name", "bot"}]`` from a request into ``(name, bot kind or None)``; SetupError if bad."""
    if not isinstance(players, list) or not 1 <= len(players) <= 4:
        raise SetupError("players must be a list of 1 to 4 seats")
    seats = []
    for n, entry in enumerate(players, start=1):
        if not isinstance(entry, dict):
            raise SetupError(f"seat {n} must be an object with a name and a bot (or null)")
        name, bot = entry.get("name"), entry.get("bot")
        if bot is not None and (not isinstance(bot, str) or bot not in BOTS):  # [] is unhashable
            kinds = ", ".join(sorted(BOTS))
            raise SetupError(f"seat {n}: unknown bot {bot!r}; choose from {kinds}")
        if name is None or (isinstance(name, str) and not name.strip()):
            name = DWARVES[n - 1] if bot else f"Player {n}"
        if not _is_name(name):
            raise SetupError(f"seat {n}: a name is 1 to {MAX_NAME} printable characters")
        name = name.strip()
        if bot is not None and not name.endswith(f"({bot})"):
            name = f"{name} ({bot})"  # the terminal's convention: a resumed log knows its bots
        seats.append((name, bot))
    names = [name for name, _ in seats]
    if len(set(names)) != len(names):
        raise SetupError("two seats have the same name")
    return seats


class LiveGame:
    """A game being played on the server, its seats, its event records and its bot thread.

    A game that was already over when the server restarted is taken up for
    watching only (``playable`` False): no bots, and every move is refused.
    """

    def __init__(
        self,
        game_id: str,
        game: Game,
        seats: Sequence[SeatInfo],
        pace: float,
        *,
        playable: bool = True,
    ) -> None:
        self.id = game_id
        self.game = game
        self.seats = list(seats)
        self.pace = pace
        self.playable = playable
        self.cond = threading.Condition()
        self.records: list[dict[str, Any]] = []
        self.totals: list[list[int]] = []  # each player's total after each event
        self.scores = ScoreSeries()
        self.closed = False
        self.bots = {s: make_bot(info.bot) for s, info in enumerate(seats) if info.bot and playable}
        self._batch_records: dict[int, range] = {}  # batch seq -> its events' seqs
        self._reader = StepReader()  # the log's events as far as the records have read
        self._record(game.batches())
        self._thread: threading.Thread | None = None
        if self.bots:
            self._thread = threading.Thread(
                target=self._run_bots, daemon=True, name=f"bots-{game_id}"
            )
            self._thread.start()

    # -- reading -------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The current projected state."""
        return self.game.state

    @property
    def seq(self) -> int:
        """The number of events so far."""
        return self.game.seq

    def summary(self) -> dict[str, Any]:
        """The game as the lists and the game page show it."""
        state = self.state
        return {
            "id": self.id,
            "mode": state.mode,
            "seats": [info.public(s) for s, info in enumerate(self.seats)],
            "players": list(state.names),
            "seq": self.seq,
            "phase": state.phase,
            "round": state.round,
            "over": state.is_over,
            "to_act": state.to_act(),
            "winners": [state.names[s] for s in state.winners],
            "scores": self.scores.data(),
        }

    def board(self, at: int | None = None) -> dict[str, Any]:
        """The board after ``at`` events (now, by default).

        The timeline is read once: it is immutable, so its state and seq agree
        even if a bot moves meanwhile.
        """
        timeline = self.game.timeline
        if at is None or at == timeline.seq:
            return board_view(timeline.state, timeline.seq)
        if not 1 <= at <= timeline.seq:
            raise ValueError(f"at must be 1 to {timeline.seq}, not {at}")
        return board_view(replay(self.game.batches(), upto=at).state, at)

    def choices(self) -> dict[str, Any]:
        """What the player to act may do now, with the seq it holds for."""
        timeline = self.game.timeline
        seat = timeline.state.to_act()
        if seat is None:
            return {"seat": None, "turn": False, "seq": timeline.seq}
        return {**choices(timeline.state, seat), "seq": timeline.seq}

    def events_from(self, start: int, limit: int | None = None) -> list[dict[str, Any]]:
        """The event records from seq ``start`` on."""
        with self.cond:
            stop = None if limit is None else start + limit
            return list(self.records[start:stop])

    def seat_for(self, token: str | None) -> int | None:
        """The human seat whose token this is, or None (compared in constant time)."""
        if not token:
            return None
        found = None
        given = token.encode(errors="surrogatepass")  # JSON may carry a lone surrogate
        for seat, info in enumerate(self.seats):
            if info.token is not None and hmac.compare_digest(given, info.token.encode()):
                found = seat
        return found

    # -- acting --------------------------------------------------------------

    def issue(self, seat: int, command: Command) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Issue a person's command for ``seat``: its event records and the board after it.

        A refused command raises RuleError and changes nothing.

        An undo takes back the seat's own last move with the bots' replies after
        it (``Game.undo_turn``), and only while no other person has moved since.
        """
        with self.cond:
            if not self.playable:
                raise RuleError(
                    "game_closed",
                    "this game was over when the server restarted: it can be watched, not played",
                )
            start = self.seq
            if isinstance(command, Undo):
                self._undo_turn(seat)
            else:
                before = self.game.timeline
                events = self.game.issue(command).events
                self._after(before, command, events)
            return list(self.records[start:]), self.board()

    def _undo_turn(self, seat: int) -> None:
        for command in reversed(self.game.timeline.commands()):
            other = getattr(command, "seat", None)
            if other == seat:
                break
            if other is not None and other not in self.bots:
                raise RuleError(
                    "undo_blocked",
                    f"{self.seats[other].name} has moved since your last move; "
                    "you can only undo while no other person has played",
                )
        else:
            raise RuleError("nothing_to_undo", "you have no move to undo")
        while True:
            before = self.game.timeline
            undone = before.top.command
            events = self.game.undo(seat).events
            self._after(before, Undo(seat), events)
            if getattr(undone, "seat", None) == seat:
                return

    def _after(self, before: Timeline, command: Command, events: tuple[Event, ...]) -> None:
        """Record a batch just committed on top of ``before`` and wake the streams."""
        self._record([Batch(before.seq, command, events)])
        self.cond.notify_all()

    def _record(self, batches: Sequence[Batch]) -> None:
        """Add the records of newly logged batches, each event with the state before it."""
        for step in self._reader.read(batches):
            if isinstance(step.event, CommandUndone):
                self._mark_undone(step.event.seq)
            elif not isinstance(step.batch.command, Undo):
                self._batch_records[step.batch.seq] = range(step.batch.seq, step.batch.end)
            self._keep(step)

    def _keep(self, step: Step) -> None:
        self.records.append(event_record(step))
        self.totals.append(list(step.after.totals()))
        self.scores.add(step.seq, step.event, step.after)

    def _mark_undone(self, batch_seq: int) -> None:
        undone = self._batch_records.get(batch_seq, range(0))
        for seq in undone:
            self.records[seq]["undone"] = True
        self.scores.unmark(undone)

    # -- bots ----------------------------------------------------------------

    def _run_bots(self) -> None:
        """Let the bots play their turns, ``pace`` seconds apart, until the game ends or closes."""
        try:
            self._bot_loop()
        except Exception:  # a bot's bug must not pass silently, nor take the server down
            log.exception("the bots of game %s stopped", self.id)

    def _bot_loop(self) -> None:
        while True:
            with self.cond:
                while not self.closed and not self.state.is_over and self._bot_to_act() is None:
                    self.cond.wait(timeout=5.0)
                if self.closed or self.state.is_over:
                    return
                depth = self.game.timeline.depth
            if self.pace:
                time.sleep(self.pace)
            with self.cond:
                seat = self._bot_to_act()
                if self.closed or seat is None or self.game.timeline.depth != depth:
                    continue  # someone undid meanwhile: look again
                before = self.game.timeline
                command = bot_command(self.game, self.bots[seat])
                self._after(before, command, self.game.issue(command).events)

    def _bot_to_act(self) -> int | None:
        seat = self.state.to_act()
        return seat if seat in self.bots else None

    def close(self) -> None:
        """Stop the bots, wake every stream, release the log."""
        with self.cond:
            self.closed = True
            self.cond.notify_all()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5.0)
        self.game.close()


class GameRegistry:
    """The server's live games, by id; the oldest finished ones make room for new ones."""

    def __init__(self, data_dir: str | os.PathLike, *, pace: float = 0.6, limit: int = 32):
        self.data_dir = Path(data_dir)
        self.pace = pace
        self.limit = limit
        self._games: OrderedDict[str, LiveGame] = OrderedDict()
        self._reserved = 0  # places held for games being created, so two cannot share one
        self._lock = threading.Lock()

    def create(
        self,
        players: object,
        *,
        seed: int | None = None,
        mode: str = "multi",
        pace: float | None = None,
    ) -> tuple[LiveGame, dict[int, str]]:
        """Start a game; returns it and the secret token of each human seat."""
        seats = parse_seats(players)
        if mode not in ("multi", "solo"):
            raise SetupError(f"mode must be 'multi' or 'solo', not {mode!r}")
        if mode == "solo" and (len(seats) != 1 or seats[0][1] is not None):
            raise SetupError("the solo game has exactly one seat, played by a person")
        if mode == "multi" and not 2 <= len(seats) <= 4:
            raise SetupError("a game has 2 to 4 players")
        if seed is None:
            seed = secrets.randbelow(1 << 32)
        elif not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 64:
            raise SetupError("seed must be a whole number from 0 to 2**64 - 1")
        asked_pace = pace
        pace = self.pace if pace is None else pace
        if not isinstance(pace, int | float) or not 0 <= pace <= 10:
            raise SetupError("pace must be 0 to 10 seconds between bot moves")
        self._make_room()  # a place is held for this game from here until it is added
        try:
            live, tokens = self._start(seats, seed, mode, pace, asked_pace)
        except BaseException:
            with self._lock:
                self._reserved -= 1
            raise
        with self._lock:
            self._reserved -= 1
            self._games[live.id] = live
        return live, tokens

    def _start(self, seats, seed: int, mode: str, pace: float, asked_pace: float | None):
        """The new game's log, seats file and live game, with the human seats' tokens."""
        game_id = secrets.token_hex(6)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log = log_path(self.data_dir, game_id)
        game = Game.new([name for name, _ in seats], seed, mode=mode, game_id=game_id, log=log)
        infos = tuple(
            SeatInfo(name, bot, None if bot else secrets.token_urlsafe(18)) for name, bot in seats
        )
        kept_pace = None if asked_pace is None else float(asked_pace)  # None: the server's pace
        try:  # the tokens are on disk before any link is handed out, and never in the log
            write_seats(seats_path(log), Seats(game_id, mode, kept_pace, infos))
        except BaseException:
            game.close()  # and no game is left that no link can reach, nor a restart resume
            for path in (seats_path(log), log):
                with contextlib.suppress(OSError):
                    path.unlink()
            raise
        live = LiveGame(game_id, game, infos, float(pace))
        tokens = {s: info.token for s, info in enumerate(infos) if info.token is not None}
        return live, tokens

    def adopt(self, live: LiveGame) -> None:
        """Add a game (a new one, or one taken up again after a restart) as the newest."""
        with self._lock:
            self._games[live.id] = live

    def _make_room(self) -> None:
        """Hold a place for a new game, closing the oldest finished one if none is free."""
        with self._lock:
            if len(self._games) + self._reserved < self.limit:
                self._reserved += 1
                return
            finished = [g for g in self._games.values() if g.state.is_over]
            if not finished:
                raise SetupError(f"the server already runs {self.limit} games; try again later")
            oldest = finished[0]
            del self._games[oldest.id]
            self._reserved += 1
        oldest.close()

    def get(self, game_id: str) -> LiveGame | None:
        """The live game with this id, if any."""
        with self._lock:
            return self._games.get(game_id)

    def all(self) -> list[LiveGame]:
        """Every live game, oldest first."""
        with self._lock:
            return list(self._games.values())

    def close(self) -> None:
        """Stop every game (the logs stay on disk)."""
        with self._lock:
            games, self._games = list(self._games.values()), OrderedDict()
        for game in games:
            game.close()


__all__ = ["GameRegistry", "LiveGame", "SeatInfo", "SetupError", "parse_seats"]
