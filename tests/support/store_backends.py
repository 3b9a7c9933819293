"""The stores the contract suite runs over: each backend is one ``Backend`` here.

A backend says how to make an empty store, how to open a second store object
over the same place (what another process would see), and how to damage one
stored batch's bytes where the backend keeps them (to prove damage is found).
Adding a backend to ``BACKENDS`` runs the whole of ``tests/store/test_store_contract.py``
on it, unchanged. The PostgreSQL backend runs against a throwaway cluster
(``tests.support.pg_cluster``), each store in a schema of its own; without PostgreSQL it
is skipped locally and fails in CI.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol

import pytest

from core.store import FileStore, MemoryStore, Store
from core.store.memory import MemoryGame
from tests.support.pg_cluster import PostgresServer, missing_reason


class Backend(Protocol):
    """What the contract suite needs from a backend under test."""

    name: str

    def make(self) -> Store:
        """A new, empty store."""
        ...

    def reopen(self, store: Store) -> Store:
        """Another store object over the same games (as a second process would open it)."""
        ...

    def damage(self, store: Store, game_id: str, record: int) -> None:
        """Flip one byte of stored batch ``record`` (the first is 1) of ``game_id``."""
        ...


class MemoryBackend:
    name = "memory"

    def make(self) -> Store:
        return MemoryStore()

    def reopen(self, store: Store) -> Store:
        assert isinstance(store, MemoryStore)
        return MemoryStore(store.backing)

    def damage(self, store: Store, game_id: str, record: int) -> None:
        assert isinstance(store, MemoryStore)
        game: MemoryGame = store.backing[game_id]
        payload = bytearray(game.payloads[record - 1])
        payload[len(payload) // 2] ^= 0x40
        game.payloads[record - 1] = bytes(payload)


class FileBackend:
    name = "file"

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def make(self) -> Store:
        return FileStore(self.folder, prefix="game-")

    def reopen(self, store: Store) -> Store:
        return FileStore(self.folder, prefix="game-")

    def damage(self, store: Store, game_id: str, record: int) -> None:
        from core.log import read_log

        assert isinstance(store, FileStore)
        path = store.log_path(game_id)
        scan = read_log(path)
        offset = scan.offsets[record - 1] + 8 + len(scan.payloads[record - 1]) // 2
        with open(path, "r+b") as f:
            f.seek(offset)
            byte = f.read(1)
            f.seek(offset)
            f.write(bytes([byte[0] ^ 0x40]))
            f.flush()
            os.fsync(f.fileno())


class PostgresBackend:
    """Each store made in a new, empty schema of the session's PostgreSQL server."""

    name = "postgresql"

    def __init__(self, server: PostgresServer) -> None:
        self.server = server
        self.urls: dict[int, str] = {}
        self.stores: list[Store] = []

    def _open(self, url: str) -> Store:
        from core.store.postgres import PostgresStore

        store = PostgresStore(url)
        self.urls[id(store)] = url
        self.stores.append(store)
        return store

    def make(self) -> Store:
        return self._open(self.server.fresh_schema())

    def reopen(self, store: Store) -> Store:
        return self._open(self.urls[id(store)])

    def damage(self, store: Store, game_id: str, record: int) -> None:
        """Flip a byte as the table's owner, deliberately past the append-only trigger."""
        import psycopg

        with psycopg.connect(self.urls[id(store)], autocommit=True) as conn, conn.transaction():
            conn.execute("ALTER TABLE batches DISABLE TRIGGER batches_append_only")
            (payload,) = conn.execute(
                "SELECT payload FROM batches WHERE game = %s AND record = %s", (game_id, record)
            ).fetchone()
            payload = bytearray(payload)
            payload[len(payload) // 2] ^= 0x40
            conn.execute(
                "UPDATE batches SET payload = %s WHERE game = %s AND record = %s",
                (bytes(payload), game_id, record),
            )
            conn.execute("ALTER TABLE batches ENABLE TRIGGER batches_append_only")

    def close(self) -> None:
        for store in self.stores:
            store.close()


def postgres_or_skip() -> None:
    """Skip (locally) or fail (in CI) when no PostgreSQL can be had for the tests."""
    missing = missing_reason()
    if missing is None:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"the PostgreSQL tests must run in CI: {missing}")
    pytest.skip(f"the PostgreSQL tests need PostgreSQL: {missing}")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the session (a throwaway cluster in memory where there is
    room, stopped at the end)."""
    postgres_or_skip()
    server = PostgresServer.start(in_memory=True)
    try:
        yield server
    finally:
        server.stop()


#: Each backend's name and how to make it for one test (given pytest's tmp_path, then
#: the values of the fixtures it was registered with).
BACKENDS: dict[str, Callable[..., Iterator[Backend]]] = {}
#: The pytest fixtures each backend's maker takes after tmp_path.
FIXTURES: dict[str, tuple[str, ...]] = {}


def backend(name: str, *, fixtures: tuple[str, ...] = ()):
    """Register a backend maker (a generator: set-up, yield the backend, tear-down)."""

    def register(maker: Callable[..., Iterator[Backend]]):
        BACKENDS[name] = maker
        FIXTURES[name] = fixtures
        return maker

    return register


@backend("memory")
def _memory(tmp_path: Path) -> Iterator[Backend]:
    yield MemoryBackend()


@backend("file")
def _file(tmp_path: Path) -> Iterator[Backend]:
    yield FileBackend(tmp_path / "games")


@backend("postgresql", fixtures=("postgres_server",))
def _postgresql(tmp_path: Path, server: PostgresServer) -> Iterator[Backend]:
    found = PostgresBackend(server)
    try:
        yield found
    finally:
        found.close()


@pytest.fixture(params=sorted(BACKENDS))
def store_backend(request, tmp_path) -> Iterator[Backend]:
    """Each registered backend in turn."""
    fixtures = [request.getfixturevalue(name) for name in FIXTURES[request.param]]
    maker = BACKENDS[request.param](tmp_path, *fixtures)
    yield next(maker)
    for _ in maker:  # tear-down
        pass
