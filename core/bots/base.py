"""The interface every bot implements, and the generator each decision uses."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from core.commands import Command
from core.projections.state import GameState
from core.rng import DiceRng

#: Bot streams live far from the game's own streams (which count commands from 0).
_BOT_STREAMS = 1 << 62


def bot_rng(state: GameState, depth: int, seat: int, secret: bytes | None = None) -> DiceRng:
    """The generator for ``seat``'s decision at history depth ``depth`` of this game.

    In a game whose dice come from a secret, its host passes that ``secret``: the bots'
    choices then come from it too, so no one can foresee them from the public log
    before the game ends and reveals it, and anyone can check them after."""
    stream = _BOT_STREAMS | (depth << 3) | seat
    if secret is not None:
        return DiceRng.secret(secret, stream)
    return DiceRng(state.seed, stream)


def seat_to_act(state: GameState) -> int:
    """The seat a bot decides for: a bot is asked only while the game waits for a seat."""
    seat = state.to_act()
    if seat is None:
        raise ValueError("no seat is to act now: there is nothing for a bot to decide")
    return seat


class Bot(Protocol):
    """Chooses one of the legal commands of the player to act."""

    name: str

    def choose(self, state: GameState, legal: Sequence[Command], rng: DiceRng) -> Command:
        """The command to issue; ``legal`` is never empty."""
