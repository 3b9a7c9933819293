"""The random bot: uniform over the legal commands.

Given the lazy ``LegalList`` (as ``core.bots.play`` passes it), picking an index
builds only the chosen command, so a turn with tens of thousands of possible
magic spends costs no more than one with three.
"""

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
