"""The analysis's own random streams: sampled futures that never meet the game's dice.

The game rolls the dice of the command at history depth ``d`` from stream ``d``
of its seed (``core.game``); bots draw from streams above ``1 << 62``
(``core.bots.bot_rng``). The analysis of the decision at depth ``d`` draws its
futures from stream ``ANALYSIS_STREAMS | d`` of the same seed: a stream no
command ever rolls from, so a sampled future is never the roll that came, and
the same log always gets the same futures (no wall-clock time, no global
generator). Two logs that share their first commands share these streams too,
which is what makes a decision's values independent of what the log holds later.
"""

from __future__ import annotations

from core.rng import DiceRng

#: Far above the game's streams (a command count) and apart from the bots' (``1 << 62``
#: plus the depth shifted by 3, plus the seat) and the series' (``1 << 63``).
ANALYSIS_STREAMS = 3 << 61


def decision_rng(seed: int, depth: int) -> DiceRng:
    """The generator of the analysis of the decision at history depth ``depth``."""
    return DiceRng(seed, ANALYSIS_STREAMS | depth)


__all__ = ["ANALYSIS_STREAMS", "decision_rng"]
