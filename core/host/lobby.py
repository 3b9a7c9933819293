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

Where the store is shared by several processes (PostgreSQL), the lobby follows
every append in the store (``on_append``), so a move made through another
server reaches this one's spectators and bots at once, and finds a game made
elsewhere when it is asked for.
"""

from __future__ import annotations

import logging
import queue
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from attrs import evolve

from core.branch import branch_game
from core.errors import DiceMinerError, GameNotFound, LogError, StoreUnavailable
from core.game import Game
from core.host.bots import BotRunner
from core.host.idle import STAND_IN, IdlePolicy
from core.host.seats import seating_for
from core.host.setups import branch_seed, parse_branch_seats, parse_game_setup, parse_pace
from core.host.table import Table
from core.host.takeup import TakeUp, TakeUpReport, open_stored
from core.rng import SECRET_BYTES
from core.store import Seating, Store, check_game_id

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
        limit: int = 32,
        runner: BotRunner | None = None,
        per_client: int | None = None,
        idle_close: float | None = None,
        quiet_seat: float | None = None,
        sweep_every: float | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.pace = pace
        self.limit = limit
        self.runner = runner if runner is not None else BotRunner()
        self.per_client = per_client
        self.idle = IdlePolicy(idle_close, quiet_seat)
        self._clock = clock
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._reserved = 0  # places held for tables being made, so two cannot share one
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._stop_watching: Callable[[], None] | None = None
        if sweep_every is None:
            sweep_every = self.idle.sweep_every()
        if sweep_every is not None:
            self._start(self._sweeping, sweep_every, "lobby-sweep")
        watch = getattr(store, "on_append", None)
        if watch is not None:  # a store other processes write to as well
            self._appended: queue.SimpleQueue[str | None] = queue.SimpleQueue()
            self._stop_watching = watch(self._appended.put)
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
    ) -> tuple[Table, dict[int, str]]:
        """A new table and the secret token of each person's seat (given only here, once).

        With no ``seed`` the dice come from a fresh 256-bit secret that the log only
        commits to until the game ends; a chosen ``seed`` is no secret, and the log says
        so, naming ``chosen_by`` (the game's creator by default)."""
        setup = parse_game_setup(players, seed=seed, mode=mode, pace=pace, chosen_by=chosen_by)
        secret = secrets.token_bytes(SECRET_BYTES) if setup.seed is None else None
        seating, tokens = seating_for(setup.seats, setup.pace)
        if secret is not None:
            seating = evolve(seating, secret=secret.hex())

        def make() -> Table:
            game = Game.new(
                [name for name, _ in setup.seats],
                setup.seed,
                mode=setup.mode,
                game_id=secrets.token_hex(6),
                store=self.store,
                seating=seating,
                secret=secret,
                seed_chosen_by=setup.chosen_by,
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

        def make() -> Table:
            stream = self.store.adopt(
                made.header,
                made.stream.payloads(),
                made.batches(),
                game_id=secrets.token_hex(6),
                seating=seating,
            )
            return Table(Game(stream, made.timeline), seating, pace=self._pace(seating))

        return self._open(make, client), tokens

    def _open(self, make: Callable[[], Table], client: str | None) -> Table:
        """The new table ``make`` stores, in a place held for it and owned by ``client``,
        its bots playing; a store that cannot keep it now is ``StoreUnavailable``."""
        self._hold_place(client)
        try:
            table = make()
            table.owner = client
        except (OSError, LogError) as exc:  # e.g. a full disk: try again later
            with self._lock:
                self._reserved -= 1
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise StoreUnavailable(f"the game cannot be stored now ({reason})") from exc
        except BaseException:
            with self._lock:
                self._reserved -= 1
            raise
        with self._lock:
            self._reserved -= 1
            self._tables[table.id] = table
        self.runner.add(table)
        return table

    def _pace(self, seating: Seating) -> float:
        return self.pace if seating.pace is None else seating.pace

    def _hold_place(self, client: str | None = None) -> None:
        """Hold a place for a new table, closing the oldest finished one if none is free."""
        with self._lock:
            if client is not None and self.per_client is not None:
                held = sum(
                    1 for t in self._tables.values() if t.owner == client and not t.state.is_over
                )
                if held >= self.per_client:
                    raise TooManyGames(
                        f"you already hold {held} unfinished games here (at most "
                        f"{self.per_client}); finish one or let it close"
                    )
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

    # -- finding -------------------------------------------------------------

    def get(self, game_id: str) -> Table | None:
        """The table of game ``game_id``: this lobby's, or the store's (made by another
        process sharing it, or left out at the start), taken up now; None if none."""
        with self._lock:
            table = self._tables.get(game_id)
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
        if found is not None:  # another request took it up meanwhile
            table.close()
            return found
        self.runner.add(table)
        self._evict_finished(keep=table)
        return table

    def _evict_finished(self, keep: Table) -> None:
        """Over the limit, close the oldest finished tables (never ``keep``): they stay in
        the store, and are taken up again if someone asks for them."""
        with self._lock:
            extra = len(self._tables) - self.limit
            evicted = [t for t in self._tables.values() if t.state.is_over and t is not keep]
            evicted = evicted[: max(extra, 0)]
            for table in evicted:
                del self._tables[table.id]
        for table in evicted:
            self._close(table)

    def tables(self) -> list[Table]:
        """Every table, oldest first."""
        with self._lock:
            return list(self._tables.values())

    def adopt(self, table: Table) -> None:
        """Add a table (taken up from the store) as the newest, its bots playing."""
        with self._lock:
            self._tables[table.id] = table
        self.runner.add(table)

    # -- taking up a store's games -------------------------------------------

    def take_up(self, say: Callable[[str], None] | None = None) -> TakeUpReport:
        """Take up the games the store holds: the unfinished ones played last (as many as
        fit: an abandoned game is the one to leave out), then the finished ones played last
        in the room left. A game that cannot be taken up is left as it is in the store and
        named in one line with the reason (``say`` hears each line)."""
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

    def close(self) -> None:
        """Close every table and stop the bots (the games stay in the store)."""
        self._stop.set()
        if self._stop_watching is not None:
            self._stop_watching()
            self._appended.put(None)
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
            except Exception:  # the sweep must go on; a failing table is logged
                log.exception("the lobby's sweep failed")

    def sweep(self, now: float | None = None) -> list[str]:
        """Close idle games and hand quiet seats to bots; what it did, in words."""
        now = self._clock() if now is None else now
        done = []
        for table in self.tables():
            due = self.idle.due(table, now)
            if due is not None and due.take(table):
                done.append(due.said)
        return done

    def _following(self, _every: float | None) -> None:
        """Fold the appends other processes make to the games this lobby holds."""
        while not self._stop.is_set():
            game_id = self._appended.get()
            if self._stop.is_set():
                return
            try:
                tables = self.tables() if game_id is None else [self.get(game_id)]
            except StoreUnavailable as exc:  # a game made elsewhere, not readable just now
                log.warning("game %s could not be taken up: %s", game_id, exc)
                continue
            except Exception:
                log.exception("game %s could not be taken up", game_id)
                continue
            for table in tables:
                if table is None:
                    continue
                try:
                    table.refresh()
                except StoreUnavailable as exc:  # away a moment: the next append tells again
                    log.warning("game %s could not be refreshed: %s", table.id, exc)
                except Exception:  # anything else is a bug to see whole
                    log.exception("game %s could not be refreshed", table.id)


__all__ = ["STAND_IN", "Lobby", "LobbyFull", "TakeUpReport", "TooManyGames"]
