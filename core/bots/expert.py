"""The expert bot: the strongest the project has, solo and at a table.

Solo, it plays ``core.bots.expert_solo``: up to ten candidates, each played to
the end on up to sixteen imagined refills, the futures spent by successive
halving. At a table it plays ``core.bots.expert_multi``: every candidate valued
as its win chance over many play-outs of the round, every seat playing alike
(the analysis's valuation, with fewer futures), added to ``montecarlo``'s
value, both with the later rounds corrected by what games taught
(``core.bots.valuation.later``). Like every bot it decides from the projected
state, the legal commands and its own generator (keyed by the game's seed and
position), never from the game's dice.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.bots.expert_multi import ExpertSettings, choose_expert_multi
from core.bots.expert_solo import choose_expert_solo
from core.bots.montecarlo import WEIGHED_PHASES, MonteCarloBot
from core.bots.valuation.later import LaterRounds
from core.commands import Command
from core.projections.state import GameState
from core.rng import DiceRng


class ExpertBot(MonteCarloBot):
    """Plays solo by wide play-outs (``expert_solo``), at a table by win chances
    (``expert_multi``); any other phase as ``montecarlo``. ``correction`` replaces the
    committed weights of the later rounds (a fit's next generation plays with the last)."""

    name = "expert"

    def __init__(
        self, table: ExpertSettings | None = None, correction: LaterRounds | None = None
    ) -> None:
        super().__init__()
        self.table = table or ExpertSettings()
        self.correction = correction

    def choose(self, state: GameState, legal: Sequence[Command], rng: DiceRng) -> Command:
        if state.mode == "solo":
            return choose_expert_solo(state, legal, rng)
        if state.mode == "multi" and state.phase in WEIGHED_PHASES:
            return choose_expert_multi(state, legal, rng, self.table, self.correction)
        return super().choose(state, legal, rng)


__all__ = ["ExpertBot"]
