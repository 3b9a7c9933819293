"""What a store is: the contract every backend keeps, whatever keeps the bytes.

A **store** is a catalogue of games. Each game is a **stream**: its log header
and its batches (the events one command caused), appended at an expected seq
and read back from any seq. Beside each game, never inside its log, the store
keeps its **seating** (who plays each seat, bots, the hash of each person's
token), which is the table's business and not the game's.

The contract, which ``tests/store_contract.py`` checks on every backend:

* ``append`` is optimistic: a batch must start at the game's next seq *as the
  store holds it*, or ``StoreConflict`` is raised and nothing is written. Two
  writers can therefore never interleave, in one process or many.
* An append is durable before it returns (a file is fsynced, a database
  transaction committed), and the stored bytes are those the log file format
  frames (``core.events.codec.encode_batch``), checksummed, so damage is found
  the same way everywhere and reported as ``GameDamaged`` naming where it is.
* Nothing stored is ever changed or removed.
* ``follow`` waits for batches another writer (or another process) appends.
* ``export`` gives the game as a ``.dmlog`` file, byte for byte what the file
  store would have written for the same batches.

Backends: ``core.store.memory`` (tests, bots, simulations), ``core.store.file``
(the embedded default: one log file per game in a folder), ``core.store.postgres``
(games shared by several processes and machines). A store that other processes
write to as well offers ``on_append(callback)``: told of every append, by anyone
(the game's id and its next seq), so a server hears of the moves made through
another. ``adopt`` stores a whole log's batches as they were read, under the
header's id or another (an import, a what-if branch beside its parent).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol

from attrs import frozen

from core.errors import GameDamaged, StoreConflict
from core.events.codec import Batch


@frozen
class SeatRecord:
    """One seat as a store keeps it: the log's name, the bot playing it (None: a person),
    and the SHA-256 of the person's secret token (the token itself is never kept)."""

    name: str
    bot: str | None = None
    token_hash: str | None = None

    @property
    def is_person(self) -> bool:
        """True for a person's seat (no bot plays it)."""
        return self.bot is None


@frozen
class Seating:
    """A game's seats, kept beside its log; ``pace`` is the bots' seconds between moves
    (None: the server's own); ``secret`` the seed its dice come from (hex), which the log
    only commits to until the game ends, so it is kept here, never served."""

    seats: tuple[SeatRecord, ...]
    pace: float | None = None
    secret: str | None = None


@frozen
class GameEntry:
    """A game as the catalogue lists it, without replaying it.

    ``events`` is the game's next seq; ``updated`` the time of its last append
    (seconds since the epoch, from the store's clock: never in the log). A game
    the store cannot read is still listed, never hidden: ``problem`` says what
    is wrong (and opening it raises the error in full).
    """

    game_id: str
    header: Mapping[str, Any]
    events: int
    updated: float
    problem: str | None = None


class Stream(Protocol):
    """One game's batches in a store: what a ``core.game.Game`` reads and writes through."""

    @property
    def game_id(self) -> str:
        """The game's id in its store."""
        ...

    @property
    def header(self) -> Mapping[str, Any]:
        """The log header: what a reader needs before the events (``"format"`` included)."""
        ...

    def next_seq(self) -> int:
        """The seq the next event will get, as the store holds it now."""
        ...

    def append(self, batch: Batch, request: str | None = None) -> None:
        """Store ``batch`` durably; ``StoreConflict`` (nothing written) unless it starts at
        the game's next seq. ``request`` names the client's request it answers (kept
        beside the batch, never in the log), so a retried request can be recognised."""
        ...

    def requested(self, request: str) -> tuple[int, int] | None:
        """The seqs ``(first, end)`` of the batches appended for ``request``, or None: a
        request retried after its answer was lost is answered again, never played twice.
        Every store keeps the id in the batch's record (record version 2), so it is
        known after a restart and in an export."""
        ...

    def batches(self, from_seq: int = 0) -> Iterator[Batch]:
        """The stored batches whose events reach ``from_seq`` or later, in order.

        Damage raises ``GameDamaged`` at the first damaged batch, never skipping it.
        """
        ...

    def payloads(self) -> Sequence[bytes]:
        """Every stored batch's payload, exactly as encoded, in order."""
        ...

    def follow(self, from_seq: int, timeout: float) -> list[Batch]:
        """The batches whose events reach ``from_seq``, waiting up to ``timeout`` seconds
        for the first to be appended (by anyone); ``[]`` if none came."""
        ...

    def export(self) -> bytes:
        """The game as a ``.dmlog`` file's bytes (the file store's bytes for these batches)."""
        ...

    def damaged(self, record: int, reason: str) -> GameDamaged:
        """The error reporting damage found in batch record ``record`` (the first is 1),
        naming where it is in this store (a replay that fails names it this way)."""
        ...

    def close(self) -> None:
        """Release what the stream holds (a file store's writer lock); safe to call twice."""
        ...


class Store(Protocol):
    """A catalogue of games, each a ``Stream``, with their seating kept beside them."""

    @property
    def url(self) -> str:
        """Where the store is (``memory:``, ``file:/path``, ``postgresql://...``), for messages."""
        ...

    def create(
        self, header: Mapping[str, Any], first: Batch, seating: Seating | None = None
    ) -> Stream:
        """A new game, ``header["game_id"]`` its id, holding its opening batch ``first``
        (and ``seating``, if given) from the start: a game never exists without them,
        so a table is never found without its seats. ``GameExists`` if the id is taken."""
        ...

    def adopt(
        self,
        header: Mapping[str, Any],
        payloads: Sequence[bytes],
        batches: Sequence[Batch],
        *,
        game_id: str | None = None,
        seating: Seating | None = None,
    ) -> Stream:
        """A new game holding a whole log's batches as they were read, each with its
        ``payloads`` bytes kept as they are (never encoded again: an older event version
        keeps its bytes), and its ``seating``, at once, as ``create`` holds its first.

        It is stored under ``game_id``, by default ``header["game_id"]``: the catalogue's
        key may differ from the id the header and the first batch name (a what-if branch
        keeps its parent's, byte for byte, and is stored beside it). ``GameExists`` if
        the key is taken; ``StoreConflict`` if the batches do not run on from seq 0."""
        ...

    def open(self, game_id: str) -> Stream:
        """A stored game, to read and append to; ``GameNotFound`` if there is none,
        ``GameBusy`` if the store allows one writer and another holds it."""
        ...

    def read(self, game_id: str) -> Stream:
        """A stored game to read and follow only (no writer's lock; ``append`` refused)."""
        ...

    def games(self) -> list[GameEntry]:
        """Every stored game, the oldest first."""
        ...

    def save_seating(self, game_id: str, seating: Seating) -> None:
        """Keep (or replace) a stored game's seating, durably; never in its log."""
        ...

    def seating(self, game_id: str) -> Seating | None:
        """A stored game's seating, or None if none was kept."""
        ...

    def close(self) -> None:
        """Release what the store holds (connections, locks)."""
        ...

    def ping(self) -> None:
        """Check cheaply that the store can be used now (a server's readiness):
        ``StoreUnavailable`` saying why if not; nothing is read or written."""
        ...


def check_batches(game_id: str, payloads: Sequence[bytes], batches: Sequence[Batch]) -> int:
    """The end seq of a whole log's batches for ``adopt``: they run on from seq 0, each
    with events and its payload; ``StoreConflict`` (nothing stored) otherwise."""
    if not batches or len(payloads) != len(batches):
        raise StoreConflict(f"game {game_id}: a game needs its batches, each with its payload")
    seq = 0
    for batch in batches:
        if batch.seq != seq or not batch.events:
            raise StoreConflict(
                f"game {game_id}: a batch starts at seq {batch.seq}, expected {seq}", batch.seq, seq
            )
        seq = batch.end
    return seq


def check_game_id(game_id: object) -> str:
    """A game id every store can keep as a name: 1 to 64 of ``[A-Za-z0-9_-]``."""
    if (
        not isinstance(game_id, str)
        or not 1 <= len(game_id) <= 64
        or not all(c.isascii() and (c.isalnum() or c in "_-") for c in game_id)
    ):
        raise ValueError(f"a game id is 1 to 64 letters, digits, '_' or '-', not {game_id!r}")
    return game_id


__all__ = [
    "GameEntry",
    "SeatRecord",
    "Seating",
    "Store",
    "Stream",
    "check_batches",
    "check_game_id",
]
