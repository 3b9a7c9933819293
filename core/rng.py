"""The game's own random generator, stable across machines and Python versions.

Python does not promise that ``random.randint``, ``choice`` or ``shuffle`` keep
their outputs across versions, so the engine never uses them. Instead every
random number is derived from BLAKE2b:

    block_k = blake2b(key=b"dice-miner/v1", data=u64le(seed) || u64le(stream) || u64le(k))

Each 64-byte block gives eight little-endian unsigned 64-bit words, used in
order. ``below(n)`` takes words and rejects those at or above the largest
multiple of ``n`` below 2**64, so every result in ``0..n-1`` is equally likely.

The rules open a new stream for each command, keyed by how many commands stand
in the game's history before it. Undoing a command and issuing it again therefore
draws exactly the same dice: undo can never be used to fish for better luck.

A game whose dice come from a 256-bit secret (``DiceRng.secret``) keys BLAKE2b
with the secret itself:

    block_k = blake2b(key=secret, person=b"dice-miner/s1", data=u64le(stream) || u64le(k))

so nobody without the secret can tell a roll before it is made, and anyone given
the secret afterwards can derive every roll again (``core.verify``).
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_KEY = b"dice-miner/v1"
_WORDS = struct.Struct("<8Q")
_HEADER = struct.Struct("<QQQ")
_STREAM = struct.Struct("<QQ")
_SECRET_PERSON = b"dice-miner/s1"
#: The size of a secret seed, in bytes (256 bits).
SECRET_BYTES = 32
_MASK64 = (1 << 64) - 1


class DiceRng:
    """A deterministic stream of random numbers for one seed and one stream id."""

    __slots__ = ("_block", "_key", "_next", "_seed", "_stream", "_words")

    def __init__(self, seed: int, stream: int = 0) -> None:
        self._seed = seed & _MASK64
        self._stream = stream & _MASK64
        self._key: bytes | None = None  # a secret seed, for ``secret`` streams
        self._block = 0
        self._words: tuple[int, ...] = ()
        self._next = 0  # index of the next unused word of the current block

    @classmethod
    def secret(cls, secret: bytes, stream: int = 0) -> DiceRng:
        """A stream of a game whose dice come from a 32-byte secret (see the module doc)."""
        if len(secret) != SECRET_BYTES:
            raise ValueError(f"a secret seed is {SECRET_BYTES} bytes, not {len(secret)}")
        rng = cls(0, stream)
        rng._key = bytes(secret)
        return rng

    def next_u64(self) -> int:
        """The next 64-bit word of the stream."""
        i = self._next
        if i == len(self._words):
            if self._key is None:
                data = _HEADER.pack(self._seed, self._stream, self._block)
                digest = _blake2b(data, key=_KEY)
            else:
                data = _STREAM.pack(self._stream, self._block)
                digest = _blake2b(data, key=self._key, person=_SECRET_PERSON)
            self._words = _WORDS.unpack(digest.digest())
            self._block += 1
            i = 0
        self._next = i + 1
        return self._words[i]

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1`` (unbiased, by rejection)."""
        limit = _LIMITS.get(n)
        if limit is None:
            if n <= 0:
                raise ValueError("below() needs a positive bound")
            limit = (1 << 64) - (1 << 64) % n
            if len(_LIMITS) < _LIMITS_KEPT:
                _LIMITS[n] = limit
        while True:  # next_u64, its common case inlined (a game draws hundreds of words)
            i = self._next
            if i < len(self._words):
                self._next = i + 1
                word = self._words[i]
            else:
                word = self.next_u64()
            if word < limit:
                return word % n

    def pick(self, items: Sequence[T]) -> T:
        """One item chosen uniformly."""
        return items[self.below(len(items))]

    def roll(self, faces: Sequence[str]) -> str:
        """The face a die shows after a roll."""
        return faces[self.below(len(faces))]


#: ``below(n)`` rejects words at or above the largest multiple of ``n`` below 2**64;
#: the bounds a game uses are few and small, so each limit is worked out once.
_LIMITS: dict[int, int] = {}
_LIMITS_KEPT = 4096
_blake2b = hashlib.blake2b


def derive_seed(seed: int, index: int) -> int:
    """The seed of the ``index``-th game of a series started from ``seed``."""
    return DiceRng(seed, (1 << 63) | index).next_u64()
