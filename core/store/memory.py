"""The memory store: games kept in this process, as the same bytes a log file would hold.

Bots, tests and simulations play here without a file. The bytes are the file
format's (each payload framed with its checksums), so ``export`` is the file
store's file and damage is found as a file reader finds it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from time import time as now
from typing import Any
from zlib import crc32

from core.errors import GameDamaged, GameExists, GameNotFound, StoreConflict, StoreError
from core.events.codec import Batch, decode_batch, decode_record, encode_batch
from core.log.framing import FORMAT_VERSION, encode_log
from core.store.base import GameEntry, Seating, check_batches, check_game_id


class MemoryGame:
    """The backing of one game: its header and its records, as parallel lists.

    A game of a store is ``shared``: its appends hold ``lock``, and ``changed``
    (a condition on the same lock) wakes its followers when someone waits. A
    lone game (``MemoryStream.new``: bots, simulations, a log loaded to look at)
    belongs to one thread, and appends without the lock, the clock or a checksum
    (its bytes never leave the process but framed, checksummed, by ``export``):
    a series of bot games appends millions of batches that nobody else sees.
    """

    __slots__ = (
        "changed",
        "crcs",
        "ends",
        "game_id",
        "header",
        "lock",
        "next_seq",
        "payloads",
        "requests",
        "seating",
        "shared",
        "updated",
        "waiting",
    )

    def __init__(self, game_id: str, header: Mapping[str, Any], *, shared: bool = True) -> None:
        self.game_id = game_id
        self.shared = shared
        self.header = {"format": FORMAT_VERSION, **{k: v for k, v in header.items()}}
        self.payloads: list[bytes] = []
        self.crcs: list[int] = []  # each payload's checksum, taken as it was stored
        self.ends: list[int] = []  # the seq after each batch
        self.next_seq = 0
        self.updated = now()
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        self.waiting = 0
        self.seating: Seating | None = None
        self.requests: dict[str, tuple[int, int]] = {}  # request -> (first seq, end)

    def add(self, payload: bytes, batch: Batch) -> None:
        """Append (the caller holds ``lock``)."""
        seq = self.next_seq
        if batch.seq != seq:
            raise StoreConflict(
                f"game {self.game_id}: batch starts at seq {batch.seq} but the game is at {seq}",
                batch.seq,
                seq,
            )
        self.payloads.append(payload)
        self.next_seq = end = seq + len(batch.events)
        self.ends.append(end)
        if self.shared:
            self.crcs.append(crc32(payload))
            self.updated = now()
        if self.waiting:
            self.changed.notify_all()


class MemoryStream:
    """One game of a memory store (or a lone game with no store around it)."""

    __slots__ = ("_game", "_lock", "_writable")

    def __init__(self, game: MemoryGame, *, writable: bool = True) -> None:
        self._game = game
        self._lock = game.lock
        self._writable = writable

    @classmethod
    def new(cls, header: Mapping[str, Any], first: Batch | None = None) -> MemoryStream:
        """A lone in-memory game (no catalogue), holding ``first`` if given."""
        stream = cls(MemoryGame(str(header.get("game_id", "")), header, shared=False))
        if first is not None:
            stream.append(first)
        return stream

    @classmethod
    def holding(
        cls, header: Mapping[str, Any], payloads: Iterable[bytes], batches: Iterable[Batch]
    ) -> MemoryStream:
        """A lone game holding batches just read with their payloads (nothing encoded again)."""
        game = MemoryGame(str(header.get("game_id", "")), header, shared=False)
        game.header = dict(header)  # as read, "format" included
        game.payloads = list(payloads)
        seq, ends = 0, game.ends
        for batch in batches:
            if batch.seq != seq:
                raise StoreConflict(
                    f"batch starts at seq {batch.seq}, expected {seq}", batch.seq, seq
                )
            seq = batch.seq + len(batch.events)
            ends.append(seq)
        if len(ends) != len(game.payloads):
            raise ValueError(
                "a game needs a payload for every batch, and a batch for every payload"
            )
        game.next_seq = seq
        return cls(game)

    @property
    def game_id(self) -> str:
        return self._game.game_id

    @property
    def header(self) -> Mapping[str, Any]:
        return self._game.header

    def next_seq(self) -> int:
        return self._game.next_seq

    def append(self, batch: Batch, request: str | None = None) -> None:
        if not self._writable:
            raise StoreError(f"game {self.game_id} was opened for reading only")
        payload = encode_batch(batch, request)  # kept in the record, as the file store does
        game = self._game
        if game.shared:
            with self._lock:
                game.add(payload, batch)
                if request is not None:
                    first, _ = game.requests.get(request, (batch.seq, batch.end))
                    game.requests[request] = (first, batch.end)
        else:
            game.add(payload, batch)
            if request is not None:
                first, _ = game.requests.get(request, (batch.seq, batch.end))
                game.requests[request] = (first, batch.end)

    def requested(self, request: str) -> tuple[int, int] | None:
        with self._lock:
            return self._game.requests.get(request)

    def batches(self, from_seq: int = 0) -> Iterator[Batch]:
        game = self._game
        with game.lock:
            crcs = game.crcs if game.shared else [None] * len(game.payloads)
            records = list(zip(game.payloads, crcs, game.ends, strict=True))
        for number, (payload, crc, end) in enumerate(records, start=1):
            if end > from_seq:
                yield self._decode(number, payload, crc)

    def _decode(self, number: int, payload: bytes, crc: int | None) -> Batch:
        if crc is not None and crc32(payload) != crc:
            raise self.damaged(number, "its checksum does not match")
        try:
            return decode_batch(payload)
        except ValueError as exc:
            raise self.damaged(number, str(exc)) from None

    def damaged(self, record: int, reason: str) -> GameDamaged:
        return GameDamaged(f"memory game {self.game_id or '(unnamed)'}", record, reason)

    def payloads(self) -> list[bytes]:
        with self._game.lock:
            return list(self._game.payloads)

    def follow(self, from_seq: int, timeout: float) -> list[Batch]:
        game = self._game
        with game.lock:
            game.waiting += 1
            try:
                game.changed.wait_for(lambda: game.next_seq > from_seq, max(timeout, 0.0))
            finally:
                game.waiting -= 1
        return list(self.batches(from_seq))

    def export(self) -> bytes:
        return encode_log(self.header, self.payloads())

    def close(self) -> None:
        pass


class MemoryStore:
    """A catalogue of games in memory. Two stores over one ``games`` dict see the same games."""

    def __init__(self, games: dict[str, MemoryGame] | None = None) -> None:
        self._games: dict[str, MemoryGame] = {} if games is None else games
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        return "memory:"

    @property
    def backing(self) -> dict[str, MemoryGame]:
        """The games themselves: another ``MemoryStore(store.backing)`` sees the same ones."""
        return self._games

    def create(
        self, header: Mapping[str, Any], first: Batch, seating: Seating | None = None
    ) -> MemoryStream:
        game_id = check_game_id(header.get("game_id"))
        if first.seq != 0:
            raise StoreConflict(f"a new game starts at seq 0, not at {first.seq}", first.seq, 0)
        payload = encode_batch(first)
        game = MemoryGame(game_id, header)
        game.seating = seating
        with game.lock:
            game.add(payload, first)
        with self._lock:
            if game_id in self._games:
                raise GameExists(f"{self.url} already holds a game {game_id!r}")
            self._games[game_id] = game
        return MemoryStream(game)

    def adopt(
        self,
        header: Mapping[str, Any],
        payloads: Sequence[bytes],
        batches: Sequence[Batch],
        *,
        game_id: str | None = None,
        seating: Seating | None = None,
    ) -> MemoryStream:
        """A new game holding a log's batches with the bytes they were read with (an
        import, a branch), under ``game_id`` (by default the header's), with its seating."""
        game_id = check_game_id(header.get("game_id") if game_id is None else game_id)
        check_batches(game_id, payloads, batches)
        game = MemoryGame(game_id, header)
        game.seating = seating
        with game.lock:
            for payload, batch in zip(payloads, batches, strict=True):
                game.add(bytes(payload), batch)
                request = decode_record(payload)[1]  # an adopted log's requests are known
                if request is not None:
                    first, _ = game.requests.get(request, (batch.seq, batch.end))
                    game.requests[request] = (first, batch.end)
        with self._lock:
            if game_id in self._games:
                raise GameExists(f"{self.url} already holds a game {game_id!r}")
            self._games[game_id] = game
        return MemoryStream(game)

    def _game(self, game_id: str) -> MemoryGame:
        with self._lock:
            game = self._games.get(game_id)
        if game is None:
            raise GameNotFound(f"{self.url} holds no game {game_id!r}")
        return game

    def open(self, game_id: str) -> MemoryStream:
        return MemoryStream(self._game(game_id))

    def read(self, game_id: str) -> MemoryStream:
        return MemoryStream(self._game(game_id), writable=False)

    def games(self) -> list[GameEntry]:
        with self._lock:
            games = list(self._games.values())
        return [GameEntry(g.game_id, dict(g.header), g.next_seq, g.updated) for g in games]

    def save_seating(self, game_id: str, seating: Seating) -> None:
        self._game(game_id).seating = seating

    def seating(self, game_id: str) -> Seating | None:
        return self._game(game_id).seating

    def close(self) -> None:
        pass

    def ping(self) -> None:
        pass  # memory is always there


__all__ = ["MemoryGame", "MemoryStore", "MemoryStream"]
