"""A store's games become a server's tables: all of them at its start, or one when asked for.

A server that starts over a store which already holds games takes them up:
the unfinished ones to be played on (the ones played last first, as many as
fit, so an abandoned game is the one left out), then the finished ones to be
watched, in the room left. Reading a game takes no writer's lock; only a game
to be played on is opened for writing, and only if no one wrote to it
meanwhile. A game that cannot be taken up (damaged, its seating missing or
not its log's players, another process playing it) is left as it is in the
store and named in one line with the reason, so one bad game never stops a
server starting. The lobby (``core.host.lobby``) adopts what this returns.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from attrs import define, field

from core.errors import DiceMinerError, GameBusy, GameNotFound, TornRecord
from core.game import Game
from core.host.recover import reveal_stored, set_aside_torn, unrevealed
from core.host.table import Table
from core.store import GameEntry, Seating, Store

log = logging.getLogger(__name__)

#: The pace a lobby gives a table of this seating (its own, else the server's).
PaceOf = Callable[[Seating], float]


@define
class TakeUpReport:
    """What a start made of the store: the ids taken up, and a line for each game left."""

    resumed: list[str] = field(factory=list)  # unfinished games, open for play again
    finished: list[str] = field(factory=list)  # finished games, listed for watching
    skipped: list[str] = field(factory=list)  # one line each: the game and the reason
    lazy: bool = False  # a shared store's: nothing taken up at the start, a game when asked
    recovered: list[str] = field(factory=list)  # one line each: what was mended, and how

    def summary(self) -> str:
        """One line for a server's start-up message."""
        if self.lazy:
            return "each game is taken up when it is asked for"
        return (
            f"{len(self.resumed)} unfinished game(s) resumed, {len(self.finished)} finished "
            f"listed, {len(self.skipped)} skipped (named on stderr)"
        )


def open_stored(store: Store, game_id: str, seating: Seating, pace: float) -> Table | None:
    """A stored game's table: to play if unfinished (this process taking the writer's
    lock), else to watch; None while another process of a one-writer store plays it."""
    try:
        secret = _secret(seating)
        game = Game.from_stream(store.read(game_id))
        if unrevealed(game, seating):  # its end came while the store could not keep the reveal
            game.close()
            log.warning("%s", reveal_stored(store, game_id, secret, f"game {game_id}"))
            game = Game.from_stream(store.read(game_id))
        if not game.state.is_over:
            game.close()
            game = Game.resume(store, game_id, secret=secret)
    except GameBusy:
        return None
    return Table(game, seating, pace=pace, playable=not game.state.is_over)


class TakeUp:
    """One start's reading of ``store`` into at most ``limit`` tables, and its report.

    ``say`` hears each game left out, in its line, as it is left out."""

    def __init__(
        self,
        store: Store,
        *,
        limit: int,
        pace_of: PaceOf,
        say: Callable[[str], None] | None = None,
    ) -> None:
        self.store = store
        self.limit = limit
        self.report = TakeUpReport()
        self._pace_of = pace_of
        self._say = say

    def tables(self, room: int) -> list[Table]:
        """The tables to adopt, least recently played first, in ``room`` places: the
        unfinished games played last (as many as fit), then the finished ones played last
        in the room left. Finished games are in the report already; the lobby adds the
        resumed ones as it adopts them."""
        found = []
        for entry in self.store.games():
            item = self._read(entry)
            if item is not None:
                found.append(item)
        unfinished = [item for item in found if not item[1].state.is_over]
        finished = [item for item in found if item[1].state.is_over]
        taken: list[Table] = []
        for entry, game, seating in unfinished[::-1]:  # the games played last come first
            game.close()
            if room <= 0:
                limit = f"the server's limit of {self.limit} games is reached"
                self._skip(self._where(entry), limit)
                continue
            table = self._reopen(entry, game.seq, seating)
            if table is not None:
                taken.append(table)
                room -= 1
        shown = finished[::-1][: max(room, 0)]  # the newest finished games, as many as fit
        left = len(finished) - len(shown)
        if left:
            self._skip(
                self.store.url,
                f"{left} finished game(s) not listed (the limit of {self.limit} games is "
                "reached); they stay in the store",
            )
        for _, game, seating in shown:
            taken.append(Table(game, seating, pace=0.0, playable=False))
            self.report.finished.append(game.game_id)
        order = {entry.game_id: n for n, (entry, _, _) in enumerate(found)}
        return sorted(taken, key=lambda t: order[t.id])

    def _skip(self, what: str, reason: str) -> None:
        line = f"{what}: not resumed: {reason}"
        self.report.skipped.append(line)
        if self._say is not None:
            self._say(line)

    def _where(self, entry: GameEntry) -> str:
        where = getattr(self.store, "log_path", None)
        return str(where(entry.game_id)) if where is not None else f"game {entry.game_id}"

    def _read(self, entry: GameEntry) -> tuple[GameEntry, Game, Seating] | None:
        """A stored game read (no writer's lock) with its seating, or None after saying why."""
        what = self._where(entry)
        if entry.problem is not None:
            self._skip(what, _reason(ValueError(entry.problem), what))
            return None
        try:
            seating = self.store.seating(entry.game_id)
        except ValueError as exc:  # e.g. a malformed seats file
            self._skip(what, f"its seating is malformed: {exc}")
            return None
        except (DiceMinerError, OSError) as exc:
            self._skip(what, f"its seating cannot be read: {_reason(exc, what)}")
            return None
        if seating is None:
            self._skip(what, "it has no seating (who plays each seat) beside it")
            return None
        try:
            game = self._read_game(entry, seating, what)
        except (DiceMinerError, OSError, ValueError) as exc:
            self._skip(what, _reason(exc, what))
            return None
        except Exception as exc:  # one bad game must not stop the server starting
            self._skip(what, f"cannot be read ({type(exc).__name__}: {exc})")
            return None
        names = [record.name for record in seating.seats]
        if names != list(game.state.names):
            game.close()
            self._skip(
                what, f"its seats {names!r} are not the log's players {list(game.state.names)!r}"
            )
            return None
        return entry, game, seating

    def _read_game(self, entry: GameEntry, seating: Seating, what: str) -> Game:
        """The stored game, read, with no person needed for a crash's footprints: a torn
        final record is set aside (as ``log repair`` does, its bytes kept beside the log)
        and a game that ended without revealing its secret reveals it (``core.host.recover``)."""
        try:
            game = Game.from_stream(self.store.read(entry.game_id))
        except TornRecord:
            self._note(set_aside_torn(self.store, entry.game_id, what))
            game = Game.from_stream(self.store.read(entry.game_id))
        if unrevealed(game, seating):
            game.close()
            self._note(reveal_stored(self.store, entry.game_id, _secret(seating), what))
            game = Game.from_stream(self.store.read(entry.game_id))
        return game

    def _note(self, line: str) -> None:
        self.report.recovered.append(line)
        if self._say is not None:
            self._say(line)

    def _reopen(self, entry: GameEntry, seq: int, seating: Seating) -> Table | None:
        """An unfinished game opened for play (the writer's lock taken), or None."""
        what = self._where(entry)
        try:
            game = Game.resume(self.store, entry.game_id, secret=_secret(seating))
        except (DiceMinerError, OSError, ValueError) as exc:
            self._skip(what, _reason(exc, what))
            return None
        if game.state.is_over or game.seq != seq:  # written to since it was read
            game.close()
            self._skip(what, "the game changed while the server was starting")
            return None
        try:
            table = Table(game, seating, pace=self._pace_of(seating))
            table.person_moved = table.changed_at = entry.updated or table.changed_at
            return table
        except Exception as exc:  # one bad game must not stop the server starting
            game.close()
            self._skip(what, f"cannot be taken up ({type(exc).__name__}: {exc})")
            return None


def _secret(seating: Seating) -> bytes | None:
    """The secret a live game's dice come from, kept beside it until the game reveals it."""
    return bytes.fromhex(seating.secret) if seating.secret else None


def _reason(exc: BaseException, what: str) -> str:
    """The error's message without the game's place in front (the line names it already)."""
    text = str(exc) or type(exc).__name__
    for prefix in (f"{what}: ", f"{what} "):
        if text.startswith(prefix):
            text = text[len(prefix) :]
    if isinstance(exc, GameNotFound):
        text = "it is no longer in the store"
    elif isinstance(exc, TornRecord):
        text += f"; `dice-miner log repair {what}` drops the torn record"
    elif isinstance(exc, GameBusy):
        text = f"the log {text}"
    return text


__all__ = ["TakeUp", "TakeUpReport", "open_stored"]
