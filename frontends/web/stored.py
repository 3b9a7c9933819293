"""The server's store as the replay viewer sees it: its finished games, each named
``web-ID.dmlog`` (its log's name in the data folder), listed without replaying them.

The catalogue (``Store.games``) gives a game's header and its event count, not
whether it is over. That is decided once for each game and event count, and kept:

* a game this server's lobby holds: its table's state says (as it is now), and
  nothing is read;
* any other: its batches are read from the store once (the stores offer no
  cheaper way to its last batch: the file store reads and decodes the file,
  PostgreSQL fetches its rows), and its **last batch** decides, without folding
  a single event: the game is over if that batch ended it (``GameEnded``,
  ``SoloGameEnded``, ``GameClosed``) or revealed its secret seed (which a table
  logs only once the game is over). Any other last batch leaves it unfinished: a
  move, a table's fact, or an undo (which takes back the end, if it was one).

A game whose count changes is decided again (a finished game's count never
changes, but for a solo game with a chosen seed taken back after its end). The
listing looks at the newest ``LOOKED_AT`` games of the catalogue only, so one
listing reads at most that many games, and none it has decided before.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from attrs import frozen

from core import (
    Batch,
    GameClosed,
    GameEnded,
    GameEntry,
    GameState,
    Lobby,
    RematchStarted,
    SeedRevealed,
    SoloGameEnded,
    Store,
    StoreError,
    StoreUnavailable,
    Table,
    solo_score,
)
from frontends.web.standings import result_words

#: The newest games of the store a listing looks at (each read at most once per change).
LOOKED_AT = 200


def stored_name(game_id: str) -> str:
    """The name a stored game has in the viewer: its log's file name, ``web-ID.dmlog``."""
    return f"web-{game_id}.dmlog"


@frozen
class Ending:
    """How a stored game stands: over or not, and if over its winners by name (or why the
    table closed it)."""

    over: bool
    winners: tuple[str, ...] = ()
    closed: str = ""
    solo: str = ""  # a finished solo game's score and rating, "54 (Average)"

    @classmethod
    def of_state(cls, state: GameState) -> Ending:
        """A game's ending read off its state (a table the lobby holds)."""
        if not state.is_over:
            return cls(False)
        winners = tuple(state.names[s] for s in state.winners)
        solo = ""
        if state.mode == "solo" and not state.facts.closed and state.troves:
            score = solo_score(state)
            solo = f"{score.score} ({score.rating})"
        return cls(True, winners, state.facts.closed, solo)

    @classmethod
    def of_batches(cls, batches: Sequence[Batch], players: Sequence[str]) -> Ending:
        """A game's ending read off its last batch (and the one before a reveal), unfolded;
        the rematch a finished game names comes after its end."""
        if batches and any(isinstance(e, RematchStarted) for e in batches[-1].events):
            ending = cls.of_batches(batches[:-1], players)
            return ending if ending.over else cls(True)
        revealed = False
        for batch in reversed(batches[-2:]):
            for event in batch.events:
                if isinstance(event, GameEnded):
                    names = tuple(players[s] for s in event.winners if 0 <= s < len(players))
                    return cls(True, names)
                if isinstance(event, SoloGameEnded):
                    return cls(True, solo=f"{event.score} ({event.rating})")
                if isinstance(event, GameClosed):
                    return cls(True, closed=event.reason)
            revealed = revealed or any(isinstance(e, SeedRevealed) for e in batch.events)
            if not revealed:
                break  # the last batch neither ended the game nor revealed its seed
        return cls(revealed)


class StoredGames:
    """The store's games for the viewer: which are over (decided once per change), and
    their logs, through the lobby's table where it holds one, else straight from the
    store (a game is never taken up as a table just to be viewed)."""

    def __init__(self, store: Store, lobby: Lobby) -> None:
        self.store = store
        self.lobby = lobby
        self._endings: dict[str, tuple[int, Ending]] = {}  # game id -> (events, ending)
        self._shas: dict[str, tuple[int, str]] = {}  # game id -> (events, its log's SHA-256)
        self._lock = threading.Lock()
        self.reads = 0  # games read from the store to decide their ending (for the tests)

    def held(self, game_id: str) -> Table | None:
        """The lobby's table of ``game_id`` if it holds one now (none is taken up)."""
        return next((t for t in self.lobby.tables() if t.id == game_id), None)

    def ending(self, entry: GameEntry) -> Ending:
        """Whether the catalogue's game is over (kept for its event count)."""
        with self._lock:
            kept = self._endings.get(entry.game_id)
        if kept is not None and kept[0] == entry.events:
            return kept[1]
        table = self.held(entry.game_id)
        if table is not None:  # the lobby's table is the game as it is now
            with table.changed:
                events, found = table.seq, Ending.of_state(table.state)
        else:
            events, found = entry.events, self._read_ending(entry.game_id, entry.header)
        self._keep(entry.game_id, events, found)
        return found

    def ending_or_none(self, entry: GameEntry) -> Ending | None:
        """``ending``, or None for a game the store cannot read (damaged, written by a newer
        program, gone meanwhile); a store out of reach is still ``StoreUnavailable``."""
        try:
            return self.ending(entry)
        except StoreUnavailable:
            raise
        except (StoreError, ValueError):
            return None

    def _read_ending(self, game_id: str, header: Mapping[str, Any]) -> Ending:
        batches = list(self.store.read(game_id).batches())
        self.reads += 1
        return Ending.of_batches(batches, _players(header))

    def _keep(self, game_id: str, events: int, ending: Ending) -> None:
        with self._lock:
            self._endings[game_id] = (events, ending)

    def newest(self) -> tuple[list[GameEntry], int]:
        """The newest ``LOOKED_AT`` readable games of the catalogue, newest first, and how
        many older ones are not looked at."""
        entries = [e for e in self.store.games() if e.problem is None and e.events > 0]
        newest = entries[::-1][:LOOKED_AT]
        return newest, len(entries) - len(newest)

    def finished(self) -> tuple[list[dict[str, Any]], int]:
        """The finished games among the newest of the store, as the replay list shows them,
        newest first; and how many older games of the store were not looked at."""
        newest, older = self.newest()
        found = []
        for entry in newest:
            ending = self.ending_or_none(entry)
            if ending is None:
                continue  # damaged, or gone: opening it by its name says which
            if ending.over:
                found.append(listing_entry(entry, ending))
        return found, older

    def log(self, game_id: str) -> StoredLog:
        """A stored game's log and how it stands; GameNotFound if the store has no such game."""
        table = self.held(game_id)
        if table is not None:
            with table.changed:
                return StoredLog(table.game.export(), Ending.of_state(table.state), table.seq)
        stream = self.store.read(game_id)
        try:
            batches = list(stream.batches())
            data = stream.export()
        finally:
            stream.close()
        events = batches[-1].end if batches else 0
        ending = Ending.of_batches(batches, _players(stream.header))
        self._keep(game_id, events, ending)
        return StoredLog(data, ending, events)

    def sha256(self, entry: GameEntry) -> str:
        """The SHA-256 of a stored game's log (what a branch of it names), kept for its count."""
        with self._lock:
            kept = self._shas.get(entry.game_id)
        if kept is not None and kept[0] == entry.events:
            return kept[1]
        found = self.log(entry.game_id)
        digest = hashlib.sha256(found.data).hexdigest()
        with self._lock:
            self._shas[entry.game_id] = (found.events, digest)
        return digest


@frozen
class StoredLog:
    """A stored game's log as read: its bytes, how it stands, and how many events it holds."""

    data: bytes
    ending: Ending
    events: int


def listing_entry(entry: GameEntry, ending: Ending) -> dict[str, Any]:
    """A finished stored game as ``GET /api/replays`` lists it, beside the folder's logs."""
    header = entry.header
    answer: dict[str, Any] = {
        "name": stored_name(entry.game_id),
        "source": "store",
        "game_id": entry.game_id,
        "mode": header.get("mode"),
        "players": _players(header),
        "events": entry.events,
        "over": True,
        "winners": list(ending.winners),
        "result": result_words(True, ending.winners, ending.closed, ending.solo),
        "updated": entry.updated,
    }
    if ending.closed:
        answer["closed"] = ending.closed
    branch = branch_of(header)
    if branch is not None:
        answer["branch"] = {"at": branch[1]}
    return answer


def branch_of(header: Mapping[str, Any]) -> tuple[str, int] | None:
    """The parent's SHA-256 and the branch point a log's header names, if it is a branch
    (a header from an upload may hold anything: only a well-formed one counts)."""
    named = header.get("branch")
    if not isinstance(named, Mapping):
        return None
    parent, at = named.get("parent"), named.get("at")
    if not isinstance(parent, str) or type(at) is not int:
        return None
    return parent, at


def _players(header: Mapping[str, Any]) -> list[str]:
    players = header.get("players")
    if not isinstance(players, list):
        return []
    return [str(p) for p in players]


__all__ = [
    "LOOKED_AT",
    "Ending",
    "StoredGames",
    "StoredLog",
    "branch_of",
    "listing_entry",
    "stored_name",
]
