"""The expert bot: the strongest the project has at the solo game.

Solo, it plays ``core.bots.expert_solo``: up to ten candidates, each played to
the end on up to sixteen imagined refills, the futures spent by successive
halving. At a table it plays as the Monte Carlo bot: a deeper search there
(48 futures instead of 24) won no more often against it (docs/performance.md), so
the expert does not spend the time. Like every bot it decides from the
projected state, the legal commands and its own generator (keyed by the game's
seed and position), never from the game's dice.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.bots.expert_solo import choose_expert_solo
from core.bots.montecarlo import MonteCarloBot
from core.commands import Command
from core.projections.state import GameState
from core.rng import DiceRng


class ExpertBot(MonteCarloBot):
    """Plays solo by wide play-outs (``expert_solo``), at a table as ``montecarlo``."""

    name = "expert"

    def choose(self, state: GameState, legal: Sequence[Command], rng: DiceRng) -> Command:
        if state.mode == "solo":
            return choose_expert_solo(state, legal, rng)
        return super().choose(state, legal, rng)


__all__ = ["ExpertBot"]
