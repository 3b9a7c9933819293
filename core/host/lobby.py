"""The tables a server runs over one store: making them, finding them, taking them up.

A lobby is what a web server (or any host of many games) keeps: it starts a
table in the store with its seating (the tokens handed out once, kept hashed),
finds a table by id (opening it from the store if this process has not got it
yet), lets the bots of every table play (``core.host.bots``), and on start takes
up the games the store already holds: unfinished ones to be played on, finished
ones to be watched (``core.host.takeup``).

A lobby holds at most ``limit`` tables; when full, the oldest finished one makes
room, and with none finished a new game is refused (``LobbyFull``). One client
(an address) may hold at most ``per_client`` unfinished tables. Idle games
cannot fill it: a sweep (every few seconds) closes a game no person has moved
in for ``idle_close`` seconds (``GameClosed`` in its log, saying why: its place
is then free), and hands to a bot the seat of a person the game has waited on
for ``quiet_seat`` seconds while another person is at the table (BGA's answer
to leavers), so the others can finish; the person takes the seat back by moving.
What is due when is ``core.host.idle``'s to say; what a client may ask a new
table to be is checked by ``core.host.setups``.

Where the store is shared by several processes (PostgreSQL, whose ``work``
board hands out the work: ``core.store.pgwork``), a lobby holds only the tables
it serves: a game is loaded when this worker is asked for it (a request, a
stream, a bot turn it claimed) and dropped when no one has used it for a while
or the tables held outgrow ``hold_bytes``. The limits are the database's, for
the whole site: ``limit`` games in play and ``per_client`` for each client. Bot
turns are claimed from the database (``core.host.shared.JobBotRunner``), and the
idle sweep is done by one worker at a time. An append announced by another
process is folded only if this lobby holds that game: for the others it costs
a look-up.
"""

from __future__ import annotations

import logging
import queue
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence

from attrs import evolve

from core.branch import branch_game
from core.commands import StartRematch
from core.errors import DiceMinerError, GameNotFound, LogError, RuleError, StoreUnavailable
from core.game import Game
from core.host.bots import BotRunner
from core.host.idle import STAND_IN, IdlePolicy, in_words
from core.host.seats import seating_for
from core.host.setups import (
    branch_seed,
    parse_branch_seats,
    parse_game_setup,
    parse_pace,
    practice_person,
)
from core.host.shared import JobBotRunner, status_of, worker_name
from core.host.table import Table
from core.host.takeup import TakeUp, TakeUpReport, open_stored
from core.projections.steps import Commit
from core.rng import SECRET_BYTES
from core.store import Seating, Store, check_game_id

#: Games in play at once: one process's own (a file or memory store) ...
LOCAL_LIMIT = 32
#: ... and a whole site's, over a shared store (each worker holds only what it serves).
SHARED_LIMIT = 5000
#: What the tables a worker holds may take, about (shared stores: the least recently used
#: are dropped past it) ...
HOLD_BYTES = 256 * 1024 * 1024
#: ... reckoned at this much a table per event: a finished four-player game of 145 events
#: held with the web's records of it measured 653 KB (tracemalloc).
BYTES_PER_EVENT = 4500
#: A held table no one has used for this long is dropped (shared stores; seconds).
KEEP_IDLE = 120.0
#: How often a shared store's lobby looks for the site's idle games and stale statuses,
#: when the idle policy does not say (seconds).
SHARED_SWEEP = 5.0
#: A live game's status behind its head for this long is looked at again (its writer died
#: between the move and the status).
STALE_AFTER = 5.0

log = logging.getLogger(__name__)


class LobbyFull(DiceMinerError):
    """No room for another table: every place holds a game still being played."""

    code = "server_full"


class TooManyGames(DiceMinerError):
    """One client already holds as many unfinished games as it may."""

    code = "too_many_games"


class Lobby:
    """The live tables of one server over ``store``, their bots played by ``runner``."""

    def __init__(
        self,
        store: Store,
        *,
        pace: float = 0.6,
        limit: int | None = None,
        runner: BotRunner | None = None,
        per_client: int | None = None,
        idle_close: float | None = None,
        quiet_seat: float | None = None,
        sweep_every: float | None = None,
        clock: Callable[[], float] = time.time,
        hold_bytes: int = HOLD_BYTES,
        keep_idle: float = KEEP_IDLE,
    ) -> None:
        self.store = store
        self.pace = pace
        #: The work a shared store's database hands out, or None (this process has it all).
        self.board = getattr(store, "work", None)
        self.shared = self.board is not None
        self.limit = limit if limit is not None else SHARED_LIMIT if self.shared else LOCAL_LIMIT
        self.per_client = per_client
        self.idle = IdlePolicy(idle_close, quiet_seat)
        self.hold_bytes = hold_bytes
        self.keep_idle = keep_idle
        #: How many tables this lobby has taken up from the store (for tests and metrics).
        self.taken_up = 0
        #: Called with each table dropped from memory (its game goes on in the store).
        self.on_drop: list[Callable[[Table], None]] = []
        self._clock = clock
        self._tables: OrderedDict[str, Table] = OrderedDict()  # least recently used first
        self._reserved = 0  # places held for tables being made, so two cannot share one
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._stop_watching: Callable[[], None] | None = None
        self.me = worker_name()
        if runner is not None:
            self.runner: BotRunner | JobBotRunner = runner
        elif self.board is not None:
            self.runner = JobBotRunner(self.board, self.get, me=self.me)
        else:
            self.runner = BotRunner()
        if sweep_every is None:
            sweep_every = self.idle.sweep_every()
            if self.shared:
                sweep_every = min(sweep_every or SHARED_SWEEP, SHARED_SWEEP)
        self.sweep_every = sweep_every
        if sweep_every is not None:
            self._start(self._sweeping, sweep_every, "lobby-sweep")
        watch = getattr(store, "on_append", None)
        if watch is not None:  # a store other processes write to as well
            self._appended: queue.SimpleQueue[tuple[str | None, int]] = queue.SimpleQueue()
            self._stop_watching = watch(lambda game_id, seq: self._appended.put((game_id, seq)))
            self._start(self._following, None, "lobby-follow")

    # -- making --------------------------------------------------------------

    def create(
        self,
        players: object,
        *,
        seed: object = None,
        mode: object = "multi",
        pace: object = None,
        chosen_by: object = None,
        client: str | None = None,
        practice: object = False,
    ) -> tuple[Table, dict[int, str]]:
        """A new table and the secret token of each person's seat (given only here, once).

        ``practice``: a game of one person against bots (or the solo game) in which they
        may undo even what the dice have shown; its log says so (``PracticeChosen``).

        With no ``seed`` the dice come from a fresh 256-bit secret that the log only
        commits to until the game ends; a chosen ``seed`` is no secret, and the log says
        so, naming ``chosen_by`` (the game's creator by default)."""
        setup = parse_game_setup(players, seed=seed, mode=mode, pace=pace, chosen_by=chosen_by)
        practice_for = practice_person(setup.seats, practice)
        secret = secrets.token_bytes(SECRET_BYTES) if setup.seed is None else None
        seating, tokens = seating_for(setup.seats, setup.pace)
        if secret is not None:
            seating = evolve(seating, secret=secret.hex())

        def make(game_id: str) -> Table:
            game = Game.new(
                [name for name, _ in setup.seats],
                setup.seed,
                mode=setup.mode,
                game_id=game_id,
                store=self.store,
                seating=seating,
                secret=secret,
                seed_chosen_by=setup.chosen_by,
                practice=practice_for or "",
            )
            return Table(game, seating, pace=self._pace(seating))

        return self._open(make, client), tokens

    def branch(
        self,
        parent: bytes,
        at: int,
        luck: str,
        players: object,
        *,
        seed: int | None = None,
        pace: object = None,
        client: str | None = None,
        name: str = "<log>",
    ) -> tuple[Table, dict[int, str]]:
        """A new table playing a what-if branch of the log ``parent`` (its bytes; ``name``
        names it in messages) after its first ``at`` events, with the ``"same"`` luck or
        ``"fresh"`` (from ``seed``, or a random one: recorded, no secret), and the secret
        token of each person's seat (given only here, once).

        ``players`` says who plays each of the game's seats, in order: ``{"bot": kind}``,
        or ``{"bot": None}`` for a person; a seat keeps the name its game logged (a
        ``"name"`` given must be that one), as the branch's first events are the game's
        own. ``core.branch.branch_game`` makes the branch (``BranchError`` saying why
        not: a point inside a command's events, a game over there, the same luck of a
        secret seed not revealed); it is stored under an id of its own beside its parent
        (``Store.adopt``), holding the lobby's places and per-client bound as ``create``."""
        seed = branch_seed(luck, seed)
        kept_pace = parse_pace(pace)
        made = branch_game(parent, at, luck, seed, name=name)
        state = made.state
        seats = parse_branch_seats(players, state.names, state.mode)
        seating, tokens = seating_for(seats, kept_pace)

        def make(game_id: str) -> Table:
            stream = self.store.adopt(
                made.header,
                made.stream.payloads(),
                made.batches(),
                game_id=game_id,
                seating=seating,
            )
            return Table(Game(stream, made.timeline), seating, pace=self._pace(seating))

        return self._open(make, client), tokens

    def _open(self, make: Callable[[str], Table], client: str | None) -> Table:
        """The new table ``make`` stores under a new id, in a place held for it and owned
        by ``client``, its bots playing; a store that cannot keep it now is
        ``StoreUnavailable``."""
        game_id = secrets.token_hex(6)
        self._hold_place(game_id, client)
        try:
            table = make(game_id)
            table.owner = client
        except BaseException as exc:
            self._give_place_back(game_id)
            if isinstance(exc, OSError | LogError):  # e.g. a full disk: try again later
                why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
                raise StoreUnavailable(f"the game cannot be stored now ({why})") from exc
            raise
        with self._lock:
            if not self.shared:
                self._reserved -= 1
            self._tables[table.id] = table
        self._added(table, new=True)
        return table

    def _pace(self, seating: Seating) -> float:
        return self.pace if seating.pace is None else seating.pace

    def _hold_place(self, game_id: str, client: str | None = None) -> None:
        """Hold a place for a new table: the database's, for the whole site, over a shared
        store; else one of this lobby's, closing the oldest finished table if none is free."""
        if self.board is not None:
            refused = self.board.hold(game_id, client, self.limit, self.per_client)
            if refused is not None and refused.why == "client":
                raise TooManyGames(self._too_many(refused.held))
            if refused is not None:
                raise LobbyFull(f"the site already runs {self.limit} games; try again later")
            return
        with self._lock:
            if client is not None and self.per_client is not None:
                held = sum(
                    1 for t in self._tables.values() if t.owner == client and not t.state.is_over
                )
                if held >= self.per_client:
                    raise TooManyGames(self._too_many(held))
            needed = len(self._tables) + self._reserved + 1 - self.limit
            finished = [t for t in self._tables.values() if t.state.is_over]
            room = needed <= len(finished)
            evicted = finished[: max(needed, 0)] if room else []  # the oldest finished ones
            for table in evicted:
                del self._tables[table.id]
            if room:
                self._reserved += 1
        for table in evicted:
            self._close(table)
        if not room:
            raise LobbyFull(f"the server already runs {self.limit} games; try again later")

    def _too_many(self, held: int) -> str:
        closes = (
            f"; a game no one moves in closes after {in_words(self.idle.close_after)}"
            if self.idle.close_after is not None
            else ""
        )
        return (
            f"you already hold {held} unfinished games here (at most {self.per_client}): "
            f"finish one, or leave one (a bot plays your seat, or the game closes){closes}"
        )

    def _give_place_back(self, game_id: str) -> None:
        if self.board is None:
            with self._lock:
                self._reserved -= 1
            return
        try:
            self.board.release(game_id)
        except (StoreUnavailable, DiceMinerError) as exc:  # the sweep frees it (an orphan)
            log.warning("the place of game %s could not be given back: %s", game_id, exc)

    # -- leaving and playing again -------------------------------------------

    def leave(self, table: Table, seat: int, client: str | None = None) -> list[Commit]:
        """The person of ``seat`` leaves ``table`` for good (``Table.leave``: a bot plays
        on, or the game closes with no person left); the place it held for ``client``, if
        they made it, is theirs again."""
        commits = table.leave(seat, STAND_IN)
        if client is None:
            return commits
        if self.board is not None:  # the site's places: whichever worker made the game
            self.board.disown(table.id, client)
        elif table.owner == client:
            table.owner = None
        return commits

    def rematch(self, table: Table, client: str | None = None) -> Table:
        """A new game with the seats and settings of the finished ``table``, logged in the
        finished game (``RematchStarted``) so its people find it. Each person's seat keeps
        its secret token: the link that played a seat of the game plays it in the rematch,
        and nothing new is handed out (or kept). RuleError if the game is not over or has
        its rematch already."""
        state = table.state
        if not state.is_over:
            raise RuleError("game_not_over", "a rematch is made once the game is over")
        if state.facts.rematch:
            raise RuleError(
                "rematch_made",
                f"a rematch of this game was already made: game {state.facts.rematch}",
            )
        secret = secrets.token_bytes(SECRET_BYTES)
        seating = Seating(table.seating.seats, table.seating.pace, secret.hex())
        practice = state.facts.practice

        def make(game_id: str) -> Table:
            game = Game.new(
                list(state.names),
                None,
                mode=state.mode,
                game_id=game_id,
                store=self.store,
                seating=seating,
                secret=secret,
                practice=practice,
            )
            return Table(game, seating, pace=self._pace(seating))

        new = self._open(make, client)
        if table.playable:
            table.rematch_started(new.id)
        else:  # a finished game taken up to be watched: its log is written once more here
            with Game.resume(self.store, table.id) as game:
                game.issue(StartRematch(new.id))
            table.refresh()
        return new

    # -- finding -------------------------------------------------------------

    def get(self, game_id: str) -> Table | None:
        """The table of game ``game_id``: this lobby's, or the store's (made by another
        process sharing it, dropped here, or left out at the start), taken up now; None
        if none."""
        with self._lock:
            table = self._tables.get(game_id)
            if table is not None:
                self._tables.move_to_end(game_id)  # the most recently used last
                table.used_at = time.monotonic()
        if table is not None and table.behind:
            table.refresh()  # another process moved there since it was last used
        if table is not None or self._stop.is_set():
            return table
        try:
            check_game_id(game_id)
            seating = self.store.seating(game_id)
        except (ValueError, GameNotFound):
            return None
        if seating is None:
            return None
        return self._take(game_id, seating)

    def _take(self, game_id: str, seating: Seating) -> Table | None:
        """A stored game taken up (``core.host.takeup.open_stored``), added as the newest."""
        table = open_stored(self.store, game_id, seating, self._pace(seating))
        if table is None:  # another process of a one-writer store plays it
            return None
        with self._lock:
            found = self._tables.get(game_id)
            if found is None:
                self._tables[game_id] = table
                self.taken_up += 1
        if found is not None:  # another request took it up meanwhile
            table.close()
            return found
        self._added(table)
        self._drop_some(keep=table)
        return table

    def _added(self, table: Table, *, new: bool = False) -> None:
        """A table new here: its bots play, and over a shared store its moves leave their
        status in the database (the first now, for a game that starts with a bot's turn)."""
        if self.board is not None and table.playable:
            table.subscribe(
                lambda commits, table=table: self._synced(table, commits)  # type: ignore[misc]
            )
            if new:
                self._sync(table, ())  # its first status (a game taken up: the sweep's)
        self.runner.add(table)

    def _synced(self, table: Table, commits: Sequence[Commit]) -> None:
        """A table's commits: those made here leave the game's status in the database."""
        if commits and not table.changed_elsewhere:
            self._sync(table, commits)

    def _sync(self, table: Table, commits: Sequence[Commit]) -> None:
        if self.board is None:
            return
        status = status_of(table, commits)
        try:
            self.board.sync(table.id, status, self.me)
        except DiceMinerError as exc:  # the sweep finds the status behind and makes it again
            log.warning("game %s: its status could not be left: %s", table.id, exc)
            return
        if status.waits == "bot" and isinstance(self.runner, JobBotRunner):
            self.runner.poke()

    def _drop_some(self, keep: Table | None = None) -> None:
        """Drop tables no one uses: over a shared store, the ones idle for ``keep_idle``
        seconds and, past ``hold_bytes``, the least recently used (all stay in the store,
        taken up again when asked for); else, over the limit, the oldest finished ones."""
        now = time.monotonic()
        with self._lock:
            if self.shared:
                held = sum(t.seq for t in self._tables.values()) * BYTES_PER_EVENT
                dropped = []
                for table in self._tables.values():  # least recently used first
                    if table is keep or table.users:
                        continue
                    if held > self.hold_bytes or now - table.used_at >= self.keep_idle:
                        dropped.append(table)
                        held -= table.seq * BYTES_PER_EVENT
            else:
                extra = len(self._tables) - self.limit
                dropped = [t for t in self._tables.values() if t.state.is_over and t is not keep]
                dropped = dropped[: max(extra, 0)]
            for table in dropped:
                del self._tables[table.id]
        for table in dropped:
            self._close(table)

    def tables(self) -> list[Table]:
        """Every table held here, least recently used first."""
        with self._lock:
            return list(self._tables.values())

    def listed(self, limit: int = 100) -> list[Table]:
        """The games in play to list: over a shared store the site's that changed last
        (taken up here to be shown), else every table held here."""
        if self.board is None:
            return self.tables()
        tables = [self.get(game_id) for game_id in self.board.live_ids(limit)]
        return [table for table in tables if table is not None]

    def held_bytes(self) -> int:
        """About what the tables held here take (``BYTES_PER_EVENT`` each event)."""
        with self._lock:
            return sum(t.seq for t in self._tables.values()) * BYTES_PER_EVENT

    def adopt(self, table: Table) -> None:
        """Add a table (taken up from the store) as the newest, its bots playing."""
        with self._lock:
            self._tables[table.id] = table
        self._added(table)

    # -- taking up a store's games -------------------------------------------

    def take_up(self, say: Callable[[str], None] | None = None) -> TakeUpReport:
        """Take up the games the store holds: the unfinished ones played last (as many as
        fit: an abandoned game is the one to leave out), then the finished ones played last
        in the room left. A game that cannot be taken up is left as it is in the store and
        named in one line with the reason (``say`` hears each line). Over a shared store
        nothing is taken up at the start: a game is, when it is asked for."""
        if self.shared:
            return TakeUpReport(lazy=True)
        taking = TakeUp(self.store, limit=self.limit, pace_of=self._pace, say=say)
        for table in taking.tables(room=self.limit - len(self.tables())):
            self.adopt(table)  # the least recently played first
            if table.playable:
                taking.report.resumed.append(table.id)
        return taking.report

    # -- closing -------------------------------------------------------------

    def _close(self, table: Table) -> None:
        self.runner.remove(table)
        table.close()
        for hook in list(self.on_drop):
            hook(table)

    def close(self) -> None:
        """Close every table and stop the bots (the games stay in the store)."""
        self._stop.set()
        if self._stop_watching is not None:
            self._stop_watching()
            self._appended.put((None, 0))
        for thread in self._threads:
            thread.join(timeout=5.0)
        with self._lock:
            tables, self._tables = list(self._tables.values()), OrderedDict()
        self.runner.close()
        for table in tables:
            table.close()

    # -- keeping the lobby ---------------------------------------------------

    def _start(self, loop: Callable[[float | None], None], every: float | None, name: str):
        thread = threading.Thread(target=loop, args=(every,), name=name, daemon=True)
        self._threads.append(thread)
        thread.start()

    def _sweeping(self, every: float | None) -> None:
        while not self._stop.wait(every):
            try:
                self.sweep()
            except StoreUnavailable as exc:  # away a moment: the next sweep looks again
                log.warning("the lobby's sweep could not reach the store: %s", exc)
            except Exception:  # the sweep must go on; a failing table is logged
                log.exception("the lobby's sweep failed")

    def sweep(self, now: float | None = None) -> list[str]:
        """Close idle games and hand quiet seats to bots; what it did, in words. Over a
        shared store, the site's games are swept by one worker at a time (its turn comes
        from the database), and each worker drops the tables it no longer uses."""
        now = self._clock() if now is None else now
        if self.board is not None:
            self._drop_some()
            if not self.board.sweep_turn(self.sweep_every or SHARED_SWEEP):
                return []
            return self._sweep_site(now)
        done = []
        for table in self.tables():
            due = self.idle.due(table, now)
            if due is not None and due.take(table):
                done.append(due.said)
        return done

    def _sweep_site(self, now: float) -> list[str]:
        """The site's sweep (this worker's turn): places with no game freed, statuses left
        behind made again, idle games closed and quiet seats handed to bots."""
        assert self.board is not None
        rows = self.board.rows(
            stale_after=STALE_AFTER, idle=self.idle.close_after, quiet=self.idle.quiet_after
        )
        done = []
        for row in rows:
            if row.head is None:  # its maker died before storing it
                self.board.release(row.game_id)
                done.append(f"{row.game_id}: a place with no game freed")
                continue
            table = self.get(row.game_id)
            if table is None:  # no seating: not a game a server plays
                self.board.release(row.game_id)
                continue
            with table.in_use():
                table.refresh()
                if row.waits == "reveal" and table.reveal():
                    done.append(f"{row.game_id}: its secret revealed after its end")
                if row.seq < table.seq or table.state.is_over:
                    self._sync(table, ())
                table.person_moved = max(table.person_moved, row.person_moved)
                table.changed_at = max(table.changed_at, row.changed)
                due = self.idle.due(table, now)
                if due is not None and due.take(table):
                    done.append(due.said)
        return done

    def _following(self, _every: float | None) -> None:
        """Keep up with the appends other processes make to the games held here: a table
        in use (streamed, a bot's turn) folds them at once; any other is marked behind and
        folds them when it is next asked for (``get``), so a worker folds only the moves
        of the games it serves. An append to a game not held here costs a look-up."""
        while not self._stop.is_set():
            game_id, seq = self._appended.get()
            if self._stop.is_set():
                return
            if game_id is None:  # some may have been missed: every table looks again
                tables = self.tables()
                for table in tables:
                    table.behind = True
            else:
                with self._lock:
                    held = self._tables.get(game_id)
                if held is None or held.seq >= seq:  # not held here, or known already
                    continue
                held.behind = True
                tables = [held]
            for table in tables:
                if table.users:
                    self._refresh(table)

    def _refresh(self, table: Table) -> None:
        try:
            table.refresh()
        except StoreUnavailable as exc:  # away a moment: looked at again when next used
            log.warning("game %s could not be refreshed: %s", table.id, exc)
        except Exception:  # anything else is a bug to see whole
            log.exception("game %s could not be refreshed", table.id)


__all__ = ["STAND_IN", "Lobby", "LobbyFull", "TakeUpReport", "TooManyGames"]
