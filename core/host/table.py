"""A table: one live game with its seats, whose turn it is, what undo may take back,
its bots' moves, and everyone listening for what happens.

Every frontend that runs a live game (the terminal, the web) does it through a
``Table``: it says who may move (a person's seat, by token or at the keyboard),
applies the undo policy (``core.host.undo``), lets a bot decide on an immutable
snapshot and commits its move only if the game has not moved meanwhile, and
publishes each commit (``core.projections.steps.Commit``: the batch and the
states around each event) to its subscribers, in order, once.

Where several processes share a store, each has its own table for a game:
``refresh`` folds what the others appended, and a command that loses the race
to the store is retried on the new position (or refused as stale when the
caller named the position it decided from).

The table's own decisions are logged as facts (``core.modes.table.events``): closing
a game nobody plays, handing a quiet person's seat to a bot (which seats bots
play is the seating's bots plus the seats the log says were handed over; a
person who comes back and moves gets the seat back), and, once the game is
over, revealing the secret its dice came from. A store that fails to keep an
append stops the table, saying why (``stopped``), rather than play on unlogged.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator, Sequence

from attrs import frozen

from core.bots import make_bot
from core.bots.base import Bot
from core.bots.play import bot_choice
from core.commands import (
    CloseGame,
    Command,
    HandSeatToBot,
    LeaveGame,
    ReturnSeat,
    StartRematch,
    Undo,
)
from core.errors import RuleError, StaleCommand, StoreConflict, StoreError, StoreUnavailable
from core.events.chance import shows_dice
from core.game import Game
from core.host.seats import seat_for_token
from core.host.thinking import think
from core.host.undo import can_undo, undo_depth
from core.projections.state import GameState
from core.projections.steps import Commit
from core.projections.timeline import Timeline
from core.store import Seating, SeatRecord

#: Called with the commits of each change, in order, while the table's lock is held.
Subscriber = Callable[[Sequence[Commit]], None]

#: How often a command that lost the race to the store is decided again.
_RETRIES = 3


@frozen
class Moved:
    """What a person's command did: the seqs ``first`` to ``end`` it made (with the
    bots' replies an undo took back, and the reveal a game's end brought) and their
    commits; ``repeated`` if the request was answered before (its seqs then, no commits)."""

    first: int
    end: int
    commits: list[Commit]
    repeated: bool = False

    def __iter__(self) -> Iterator[Commit]:
        return iter(self.commits)

    def __len__(self) -> int:
        return len(self.commits)

    def __getitem__(self, index: int) -> Commit:
        return self.commits[index]


@frozen
class BotMove:
    """A bot's decision: the seat, the command, and the position (seq) it was made at."""

    seat: int
    command: Command
    seq: int


class Table:
    """A live game at a table: a ``Game`` with its seating, bots and subscribers."""

    def __init__(
        self, game: Game, seating: Seating, *, pace: float = 0.0, playable: bool = True
    ) -> None:
        if len(seating.seats) != game.state.players:
            raise ValueError(
                f"{len(seating.seats)} seats for a game of {game.state.players} players"
            )
        self.game = game
        self.seating = seating
        self.pace = pace
        self.playable = playable
        self.closed = False
        #: Why the table stopped playing (its store failed), or None while it plays.
        self.stopped: str | None = None
        #: Who opened the table (a client's address), for the lobby's per-client bound.
        self.owner: str | None = None
        #: When a person last moved, and when the game last changed (seconds, wall clock).
        self.person_moved = self.changed_at = time.time()
        #: True if the last change came from another process (``refresh``), not from here.
        self.changed_elsewhere = False
        #: Streams served and bot turns played from it now (a lobby never drops it then),
        #: and when it was last used (``time.monotonic``): the lobby drops the idle ones.
        self.users = 0
        self.used_at = time.monotonic()
        #: True if another process appended since the last fold (``refresh`` clears it).
        self.behind = False
        #: Reads of the store begun and the last one finished (``refresh``): a caller
        #: that waited while a read begun after its call ran needs no read of its own.
        self._reads_begun = self._read_done = 0
        #: Held while the game changes; notified after every change and at closing.
        self.changed = threading.Condition(threading.RLock())
        self._subscribers: list[Subscriber] = []
        self._bots: dict[tuple[int, str], Bot] = {}
        self._showed: dict[int, bool] = {}  # batch seq -> whether its events showed dice

    # -- reading -------------------------------------------------------------

    @property
    def id(self) -> str:
        """The game's id in its store."""
        return self.game.game_id

    @property
    def timeline(self) -> Timeline:
        """The game's effective history (immutable: read it once, use it whole)."""
        return self.game.timeline

    @property
    def state(self) -> GameState:
        """The current state."""
        return self.game.state

    @property
    def seq(self) -> int:
        """The seq the next event will get."""
        return self.game.seq

    @property
    def seats(self) -> tuple[SeatRecord, ...]:
        """Each seat's name, bot kind (None: a person) and token hash."""
        return self.seating.seats

    def bot_kind(self, seat: int) -> str | None:
        """The kind of bot playing ``seat`` now: the seating's, or the one the log says was
        handed a quiet person's seat; None for a person."""
        bot_seats = self.state.facts.bot_seats
        if bot_seats:  # (most games never hand a seat over: no dict to make)
            handed = dict(bot_seats).get(seat)
            if handed is not None:
                return handed
        return self.seats[seat].bot if 0 <= seat < len(self.seats) else None

    def is_person(self, seat: int) -> bool:
        """True if a person plays ``seat`` now."""
        return 0 <= seat < len(self.seats) and self.bot_kind(seat) is None

    def is_handed(self, seat: int) -> bool:
        """True if a bot plays the seat of a person who went quiet (they may come back)."""
        return seat in dict(self.state.facts.bot_seats)

    @property
    def persons(self) -> tuple[int, ...]:
        """The seats people play now."""
        return tuple(s for s in range(len(self.seats)) if self.is_person(s))

    def seat_for(self, token: str | None) -> int | None:
        """The person's seat whose secret token this is, or None."""
        return seat_for_token(self.seating, token)

    def person_to_act(self) -> int | None:
        """The person's seat the game waits for, if it waits for a person."""
        seat = self.state.to_act()
        return seat if seat is not None and self.is_person(seat) else None

    def bot_to_act(self) -> int | None:
        """The bot's seat the game waits for, if it waits for a bot (and may be played)."""
        if not self.playable or self.closed or self.stopped is not None:
            return None
        seat = self.state.to_act()
        return seat if seat is not None and self.bot_kind(seat) is not None else None

    def _bot(self, seat: int) -> Bot | None:
        kind = self.bot_kind(seat)
        if kind is None:
            return None
        bot = self._bots.get((seat, kind))
        if bot is None:
            bot = self._bots[(seat, kind)] = make_bot(kind)
        return bot

    def can_undo(self, seat: int) -> bool:
        """True if ``seat`` may undo now (the undo policy would accept it)."""
        if not self.playable or not self.is_person(seat) or self.state.facts.revealed:
            return False  # once the secret seed is out, nothing is undone (Game.undo)
        timeline = self.timeline
        shown = self._shown(timeline)
        practice = bool(timeline.state.facts.practice)
        return can_undo(timeline.commands(), seat, self.is_person, shown=shown, practice=practice)

    def _shown(self, timeline: Timeline) -> Callable[[int], bool]:
        """Whether the k-th command from the end of ``timeline`` showed dice (its batch's
        events; known from the commits told here, else read from the store once)."""
        frames = [timeline.top]  # walked down only as far as the policy asks (undo is short)

        def shown(k: int) -> bool:
            while len(frames) < k:
                below = frames[-1].below
                assert below is not None, "the policy asks only about commands that stand"
                frames.append(below)
            batch_seq = frames[k - 1].batch_seq
            known = self._showed.get(batch_seq)
            if known is None:
                batch = next(b for b in self.game.batches(batch_seq) if b.seq == batch_seq)
                known = self._showed[batch_seq] = shows_dice(batch.events)
            return known

        return shown

    # -- acting --------------------------------------------------------------

    def issue(
        self,
        seat: int,
        command: Command,
        *,
        expected_seq: int | None = None,
        request: str | None = None,
    ) -> Moved:
        """A person's command for ``seat``: the one way a move is taken, by every frontend.

        Here, in this order and under the table's lock: a ``request`` the store has
        already answered (its answer lost on the way, the client asking again, through
        this worker or another) is answered again and plays nothing; ``expected_seq``,
        the position the command was decided at, is checked (``StaleCommand`` if the
        game has moved on); an undo goes through the undo policy (``core.host.undo``);
        the batches are appended, each naming ``request``, and told. A command that lost
        the race to the store is looked at again, the request first. A refused command
        raises RuleError and changes nothing.
        """
        with self.changed:
            self._check_open()
            if command.BY_TABLE:
                raise RuleError(
                    "not_a_move", f"'{command.TAG}' is the table's to do, not a player's"
                )
            if seat in self.state.facts.left:
                raise RuleError("seat_left", "you left this game: a bot plays your seat to the end")
            if getattr(command, "seat", seat) != seat:
                raise RuleError("not_your_seat", "a seat can only move for itself")
            if expected_seq is not None and expected_seq > self.seq:
                self.refresh()  # decided on moves made elsewhere that are not folded here
            for attempt in range(_RETRIES):
                if request is not None and (done := self.answered(request)) is not None:
                    return Moved(done[0], done[1], [], repeated=True)
                self._check_position(expected_seq)
                start = self.seq
                try:
                    back = []
                    if self.is_handed(seat):  # its person is back: the seat is theirs again
                        back = [self._append(ReturnSeat(seat), request)]
                    if isinstance(command, Undo):
                        commits = back + self._undo(seat, request)
                    else:
                        commits = back + [self._append(command, request)]
                    self.person_moved = time.time()
                    commits = self._commit(commits)
                    return Moved(start, self.seq, commits)
                except StoreConflict:
                    if attempt == _RETRIES - 1:
                        raise
                    self.refresh()  # another process moved first: look again
            raise AssertionError("unreachable")

    def undo(
        self, seat: int, *, expected_seq: int | None = None, request: str | None = None
    ) -> Moved:
        """Take back ``seat``'s last move with the bots' replies (``issue`` of an Undo)."""
        return self.issue(seat, Undo(seat), expected_seq=expected_seq, request=request)

    def answered(self, request: str) -> tuple[int, int] | None:
        """The seqs ``(first, end)`` of what the request ``request`` already did, or None."""
        with self.changed:
            done = self.game.stream.requested(request)  # first: then its batches are stored
            if done is not None and done[1] > self.seq:
                self.refresh()  # answered through another process: fold what it did
            return done

    def _undo(self, seat: int, request: str | None = None) -> list[Commit]:
        names = [record.name for record in self.seats]
        timeline = self.timeline
        steps = undo_depth(
            timeline.commands(),
            seat,
            self.is_person,
            names,
            shown=self._shown(timeline),
            practice=bool(timeline.state.facts.practice),
            alone=len(self.persons) == 1,
        )
        commits = []
        try:
            for _ in range(steps):
                commits.append(self._append(Undo(seat), request))
        except BaseException:
            self._commit(commits)  # what was undone is told, even if a later step failed
            raise
        return commits

    def _append(self, command: Command, request: str | None = None) -> Commit:
        """Issue ``command`` to the game (the lock is held). A store out of reach for a
        moment (``StoreUnavailable``) is the caller's to try again later; one that failed
        to keep the append (a full disk: its writer is unusable) stops the table, since
        playing on unlogged would lose what the players did."""
        try:
            return self.game.issue(command, request)
        except (StoreConflict, StoreUnavailable, RuleError):
            raise  # a conflict is looked at again; a store away a moment is tried again
        except StoreError as exc:
            self._stop(f"the game could not be saved ({exc})")
            raise StoreUnavailable(
                f"the game stopped: its store could not keep the last move ({exc})"
            ) from exc
        except OSError as exc:
            self._stop(f"the game could not be saved ({exc.strerror or exc})")
            raise StoreUnavailable(f"the game stopped: {exc.strerror or exc}") from exc

    def _stop(self, reason: str) -> None:
        self.stopped = reason
        self.changed.notify_all()
        for subscriber in list(self._subscribers):
            subscriber([])

    def decide_bot(self) -> BotMove | None:
        """The move the bot to act chooses now, decided on a snapshot (the table is not
        locked meanwhile: a person may undo); None if no bot is to act."""
        timeline = self.timeline
        seat = timeline.state.to_act()
        if seat is None or self.bot_to_act() != seat:
            return None
        bot = self._bot(seat)
        if bot is None:
            return None
        secret = self.game.secret if timeline.state.facts.secret_dice else None
        choice = think(bot_choice, bot, timeline.state, timeline.depth, secret)  # off the loop
        return BotMove(seat, choice, timeline.seq)

    def play(self, move: BotMove) -> list[Commit]:
        """Commit a bot's move if the game is still where it was decided; [] if it moved on
        (another process's worker played it first, or a person undid meanwhile)."""
        with self.changed:
            if self.closed or not self.playable or self.stopped or self.seq != move.seq:
                return []
            try:
                return self._commit([self._append(move.command)])
            except StoreConflict:
                self.refresh()
                return []

    def play_bot(self) -> list[Commit]:
        """Decide and commit the move of the bot to act, if one is (tools, tests)."""
        move = self.decide_bot()
        return [] if move is None else self.play(move)

    def refresh(self) -> list[Commit]:
        """Fold and publish what other writers appended to this game's store.

        A crowd asking at once (a hundred spectators opening streams) costs one read:
        whoever waited while another caller's read, begun after it asked, ran has
        everything that read found folded already, and returns [] without a read."""
        asked = self._reads_begun
        with self.changed:
            if self._read_done > asked:
                return []
            self._reads_begun += 1
            read = self._reads_begun
            self.behind = False  # before reading: an append meanwhile marks it again
            commits = self.game.catch_up()
            self._read_done = read
            if commits:
                self.changed_elsewhere = True
                if any(getattr(c.batch.command, "seat", None) in self.persons for c in commits):
                    self.person_moved = time.time()
            return self._commit(commits, here=False)

    # -- the table's own decisions -------------------------------------------

    def close_game(self, reason: str) -> list[Commit]:
        """End a game nobody plays any more (logged with ``reason``; no winner)."""
        with self.changed:
            if self.state.is_over or not self.playable or self.closed:
                return []
            return self._commit([self._append(CloseGame(reason))])

    def reveal(self) -> list[Commit]:
        """Reveal the secret of a game that ended while its store could not keep the reveal
        (away a moment); [] if there is nothing to reveal here."""
        with self.changed:
            state = self.state
            if not (state.is_over and state.facts.secret_dice) or self.game.secret is None:
                return []
            if self.stopped is not None or not self.playable:
                return []
            try:
                commit = self.game.reveal()
            except StoreConflict:  # another process revealed it
                return self.refresh()
            return self._commit([commit]) if commit is not None else []

    def hand_to_bot(self, seat: int, bot: str, reason: str) -> list[Commit]:
        """Let a bot of kind ``bot`` play a quiet person's seat (logged, so everyone sees it;
        the person takes it back by moving again)."""
        with self.changed:
            if self.state.is_over or not self.is_person(seat) or not self.playable:
                return []
            return self._commit([self._append(HandSeatToBot(seat, bot, reason))])

    def leave(self, seat: int, bot: str, request: str | None = None) -> list[Commit]:
        """The person of ``seat`` leaves for good (resigns): a bot of kind ``bot`` plays
        the seat to the end; if no other person is left at the table, the game is closed
        as well. Both are logged. RuleError if the game is over or they already left."""
        with self.changed:
            self._check_open()
            if request is not None and self.answered(request) is not None:
                return []  # asked again after its answer was lost: it was done
            if not 0 <= seat < len(self.seats) or self.seats[seat].bot is not None:
                raise RuleError("not_a_person", "only a person's seat can be left")
            commits = [self._append(LeaveGame(seat, bot), request)]
            people = [s for s in self.people() if s != seat]
            if not people and not self.state.is_over:
                name = self.seats[seat].name
                reason = f"{name} left and no other person plays; its place is freed"
                commits.append(self._append(CloseGame(reason), request))
            return self._commit(commits)

    def people(self) -> tuple[int, ...]:
        """The seats of people still in the game: playing now, or gone quiet (a bot stands
        in until they move again), but not those who left for good."""
        left = self.state.facts.left
        return tuple(
            seat
            for seat, record in enumerate(self.seats)
            if record.bot is None and seat not in left
        )

    def rematch_started(self, game_id: str) -> list[Commit]:
        """Log that the rematch of this finished game is ``game_id`` (RuleError if the game
        is not over, or has its rematch already)."""
        with self.changed:
            self._check_rematch()
            return self._commit([self._append(StartRematch(game_id))])

    def _check_rematch(self) -> None:
        if not self.playable or self.closed or self.stopped is not None:
            raise RuleError("game_closed", "this game can be watched here, not played")

    # -- listening -----------------------------------------------------------

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call ``subscriber`` with the commits of every change from now on; returns the
        function that stops it."""
        with self.changed:
            self._subscribers.append(subscriber)

        def unsubscribe() -> None:
            with self.changed:
                if subscriber in self._subscribers:
                    self._subscribers.remove(subscriber)

        return unsubscribe

    @contextlib.contextmanager
    def in_use(self) -> Iterator[Table]:
        """Mark the table used for the ``with`` block (a stream, a bot's turn)."""
        with self.changed:
            self.users += 1
            self.used_at = time.monotonic()
        try:
            yield self
        finally:
            with self.changed:
                self.users -= 1
                self.used_at = time.monotonic()

    def wait(self, after_seq: int, timeout: float) -> bool:
        """Wait until the game passes ``after_seq`` events, or closes, or ``timeout`` passes;
        True if there is something new to read."""
        with self.changed:
            return self.changed.wait_for(
                lambda: self.seq > after_seq or self.closed, max(timeout, 0.0)
            ) and not (self.closed and self.seq <= after_seq)

    def _commit(self, commits: list[Commit], *, here: bool = True) -> list[Commit]:
        """Tell the subscribers and wake the waiters (the lock is held). A game that has
        just ended reveals the secret its dice came from, in the same telling."""
        if commits:
            for commit in commits:
                self._showed[commit.batch.seq] = shows_dice(commit.batch.events)
            self.changed_at = time.time()
            if here:
                self.changed_elsewhere = False
            failed: BaseException | None = None
            if self.stopped is None and self.playable:
                try:
                    revealed = self.game.reveal()
                except StoreConflict:  # another process revealed it: told with the rest
                    revealed = None
                    with contextlib.suppress(StoreUnavailable):  # else the next refresh tells
                        commits.extend(self.game.catch_up())
                except StoreUnavailable:  # the move stands; the reveal is made when the
                    revealed = None  # game is next taken up (or by the site's sweep)
                except (StoreError, OSError) as exc:  # the store cannot keep it: stop
                    revealed, failed = None, exc
                if revealed is not None:
                    commits.append(revealed)
            for subscriber in list(self._subscribers):
                subscriber(commits)
            self.changed.notify_all()
            if failed is not None:
                self._stop(f"the game's end could not be saved ({failed})")
        return commits

    def _check_open(self) -> None:
        if self.closed:
            raise RuleError("game_closed", "this game is closed on this server")
        if self.stopped is not None:
            raise StoreUnavailable(f"this game stopped: {self.stopped}")
        if not self.playable:
            raise RuleError("game_closed", "this game can be watched here, not played")

    def _check_position(self, expected_seq: int | None) -> None:
        if expected_seq is not None and expected_seq != self.seq:
            raise StaleCommand(
                f"the game has moved on (to event {self.seq}) since event {expected_seq}: "
                "look again and choose from there",
                self.seq,
            )

    def close(self) -> None:
        """Stop playing: wake every waiter, release the game's store."""
        with self.changed:
            self.closed = True
            self.changed.notify_all()
        self.game.close()


__all__ = ["BotMove", "Moved", "Subscriber", "Table"]
