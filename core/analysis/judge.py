"""One decision weighed: the entry point the analysis calls for every position.

``judge`` draws the decision's futures from its own stream (``sampling``) and
hands the state to the multiplayer or the solo valuation. It sees the state the
mover saw and nothing else: no later event, no die the log says came next.
"""

from __future__ import annotations

from attrs import frozen

from core.analysis.sampling import decision_rng
from core.analysis.solo import judge_solo
from core.bots.expert_solo import WIDTH
from core.bots.valuation.multi import judge_multi
from core.bots.valuation.verdict import Judgement
from core.commands import Command
from core.projections.state import GameState

#: Futures per decision by default: a 4-player game is analysed in about 10 s on one
#: core (``benchmarks.analysis``); docs/performance.md says what fewer or more would change.
DEFAULT_SAMPLES = 256
#: A solo future is a whole game played out per candidate, so fewer are drawn.
DEFAULT_SOLO_SAMPLES = 64
#: Solo: greedy's best moves weighed besides the free take, the refill and the move played:
#: as many as the expert bot weighs (``core.bots.expert_solo.WIDTH``), so a hint or a
#: review judges from the candidates the strongest solo bot plays from.
SOLO_CANDIDATES = WIDTH


@frozen
class Options:
    """What changes an analysis's values (so it is part of the cache's key)."""

    samples: int
    solo_candidates: int = SOLO_CANDIDATES

    @classmethod
    def for_mode(cls, mode: str, samples: int | None = None) -> Options:
        """The options for a game of ``mode``: ``samples`` futures, or the mode's default."""
        if samples is None:
            samples = DEFAULT_SOLO_SAMPLES if mode == "solo" else DEFAULT_SAMPLES
        return cls(samples)


@frozen
class Task:
    """One position to weigh: the state, the move made from it (if any), its depth."""

    state: GameState
    played: Command | None
    depth: int


def judge(task: Task, options: Options) -> Judgement:
    """The candidates at ``task.state`` with their values, best first."""
    state = task.state
    rng = decision_rng(state.seed, task.depth)
    if state.mode == "solo":
        return judge_solo(state, task.played, rng, options.samples, options.solo_candidates)
    return judge_multi(state, task.played, rng, options.samples)


__all__ = [
    "DEFAULT_SAMPLES",
    "DEFAULT_SOLO_SAMPLES",
    "SOLO_CANDIDATES",
    "Options",
    "Task",
    "judge",
]
