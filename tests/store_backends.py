"""The stores the contract suite runs over: each backend is one ``Backend`` here.

A backend says how to make an empty store, how to open a second store object
over the same place (what another process would see), and how to damage one
stored batch's bytes where the backend keeps them (to prove damage is found).
Adding a backend to ``BACKENDS`` runs the whole of ``tests/test_store_contract.py``
on it, unchanged.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol

import pytest

from core.store import FileStore, MemoryStore, Store
from core.store.memory import MemoryGame


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


#: Each backend's name and how to make it for one test (given pytest's tmp_path).
BACKENDS: dict[str, Callable[[Path], Iterator[Backend]]] = {}


def backend(name: str):
    """Register a backend maker (a generator: set-up, yield the backend, tear-down)."""

    def register(maker: Callable[[Path], Iterator[Backend]]):
        BACKENDS[name] = maker
        return maker

    return register


@backend("memory")
def _memory(tmp_path: Path) -> Iterator[Backend]:
    yield MemoryBackend()


@backend("file")
def _file(tmp_path: Path) -> Iterator[Backend]:
    yield FileBackend(tmp_path / "games")


@pytest.fixture(params=sorted(BACKENDS))
def store_backend(request, tmp_path) -> Iterator[Backend]:
    """Each registered backend in turn."""
    maker = BACKENDS[request.param](tmp_path)
    yield next(maker)
    for _ in maker:  # tear-down
        pass
