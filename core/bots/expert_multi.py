"""The expert at a table: every candidate weighed in win chances over many play-outs.

``montecarlo`` plays the rest of the round out once per candidate, the rivals
greedy and itself by its own ranking, and reads its lead on sampled futures. That
one path is chaotic (a different first pick sends everyone down another path) and
it plays the rivals worse than they play. The expert weighs its candidates the
way the analysis does (``core.analysis.excavation`` and ``core.analysis.multi``):
the rest of the excavation is played out in ``variants`` ways, every seat alike
taking the die worth most to it (this round and the rounds left) plus a taste of
its own for each die; this round's magic phase is sampled; every seat's trove is
scored in each round left on ``samples`` futures of the unseen dice; and the
value of a move is the mover's chance of winning after it (``multi.verdict``),
its mean lead breaking near ties. The analysis is this valuation with more
futures, so a hint names the move the expert would play given more time.

The futures and tastes come from the bot's own generator (``bot_rng``): it never
sees a die the game has not shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.analysis.excavation import excavation_candidates, seat_worths, tastes
from core.analysis.multi import MultiJudge, Verdict, verdict
from core.bots.base import seat_to_act
from core.bots.greedy import Candidate, pick_best
from core.bots.multi_value import Future, later_rounds
from core.commands import Command
from core.projections.state import EXCAVATION, GameState
from core.rng import DiceRng

#: Futures per decision at the expert's playing strength (median under 100 ms, one core).
SAMPLES = 64
#: Play-outs of the rest of the round per excavation candidate (the futures split among them).
VARIANTS = 16
#: Points of mean lead worth one unit of win chance, to break near ties.
LEAD_WEIGHT = 1e-4


def weigh_multi(
    state: GameState, legal: Sequence[Command], rng: DiceRng, samples: int, variants: int
) -> list[tuple[Verdict, Command]]:
    """The candidates at a multiplayer ``state`` (a weighed phase), each with the mover's
    ``Verdict`` on ``samples`` futures drawn from ``rng``."""
    seat = seat_to_act(state)
    judge = MultiJudge(samples=samples)
    futures = [Future(state, rng, later_rounds(state), magic_now=True) for _ in range(samples)]
    if state.phase != EXCAVATION:
        return judge.weighed(state, seat, legal, futures, rng, judge.verdict_of)
    worths = seat_worths(judge, state, futures)
    ways = [tastes(rng, state.players) for _ in range(min(variants, samples))]

    def weigh(group, gains, passed, give, to):
        return judge.finals(state, seat, group, gains, passed=passed, give=give, to=to)

    weighed = excavation_candidates(state, seat, legal, futures, worths, ways, weigh)
    return [(verdict(finals, seat), command) for finals, command in weighed]


def choose_expert_multi(
    state: GameState,
    legal: Sequence[Command],
    rng: DiceRng,
    samples: int = SAMPLES,
    variants: int = VARIANTS,
) -> Command:
    """The candidate with the best win chance (its lead breaking near ties)."""
    weighed = weigh_multi(state, legal, rng, samples, variants)
    candidates: list[Candidate] = [(v[0] + LEAD_WEIGHT * v[1], c) for v, c in weighed]
    return pick_best(candidates, rng)


__all__ = ["LEAD_WEIGHT", "SAMPLES", "VARIANTS", "choose_expert_multi", "weigh_multi"]
