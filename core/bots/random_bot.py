"""The random bot: uniform over the legal commands."""

from __future__ import annotations

from collections.abc import Sequence

from core.commands import Command
from core.projections.state import GameState
from core.rng import DiceRng


class RandomBot:
    """Picks any legal command, each equally likely."""

    name = "random"

    def choose(self, state: GameState, legal: Sequence[Command], rng: DiceRng) -> Command:
        return rng.pick(legal)
