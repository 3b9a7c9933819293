"""The expert at a table: the analysis's win chances and ``montecarlo``'s lead, together.

``montecarlo`` plays the rest of the round out once per candidate, the rivals
greedy and itself by its own ranking, and reads its lead on sampled futures.
The valuation the analysis judges by (``core.bots.valuation``) plays the
rest out in ``variants`` ways, every seat alike taking the die worth most to it
plus a taste of its own for each die, samples this round's magic phase, scores
every seat's trove in each round left on ``samples`` futures of the unseen dice,
and reads the mover's chance of winning after the move (``multi.verdict``).

Each alone plays about as well as the other (1,000 2-player games of the
analysis's valuation against ``montecarlo``: 49.6% won). Their errors differ, so
the expert adds them (``core.bots.valuation.blend``): each scaled to the spread of
its candidates' values (the best 0, the worst -1), ``montecarlo``'s weighted
``BLEND``. That won 62.1% of 224 games on the tuning seed (each alone 57.1%) and
56.0% of 1,000 on another (docs/performance.md). Hints, reviews and the analysis
value a table's moves by the same blend, with more futures (``multi.judge_multi``).

Both valuations score the rounds left on the bag dealt out at random; the expert
corrects each seat's total there by what games taught of how much better players
do, by the dice the seat ends the round with (``core.bots.valuation.later``;
``later`` says how far). Learned from ``montecarlo``'s games, that won 62.9% of
1,000 2-player games on a seed neither the fit nor the choice saw, against the
56.0% above; learned again from the expert's own games, 66.8% of the same.

With ``replies`` (a 2-ply search) each excavation candidate is played out once per
answer of the next seat, its best, second best ... die by its own worth, and
valued after the answer that seat would choose by the same valuation (its own win
chance): in a drafting game the die another seat needs is worth taking.

The futures and tastes come from the bot's own generator (``bot_rng``): it never
sees a die the game has not shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen

from core.bots.base import seat_to_act
from core.bots.greedy import Candidate, pick_best
from core.bots.montecarlo import MonteCarloBot
from core.bots.multi_value import Future, later_rounds
from core.bots.valuation.blend import BLEND, LEAD_WEIGHT, merits
from core.bots.valuation.excavation import excavation_candidates, seat_worths, tastes
from core.bots.valuation.later import LEVEL, LaterRounds, learned
from core.bots.valuation.multi import MultiJudge, verdict
from core.commands import Command
from core.projections.state import EXCAVATION, GameState
from core.rng import DiceRng

#: Futures per decision at the expert's playing strength (median under 100 ms, one core).
SAMPLES = 64
#: Play-outs of the rest of the round per excavation candidate (the futures split among them).
VARIANTS = 16
#: The noise, in points, the expert's win chances assume on each final total.
TEMPERATURE = 8.0
#: The next seat's answers a 2-ply search weighs per excavation candidate (0: none).
REPLIES = 0
#: The largest table the 2-ply search is made at: at two players the next seat is the
#: whole opposition; at four it is one rival of three, and the search costs more there.
REPLY_PLAYERS = 2


@frozen
class ExpertSettings:
    """How hard the expert looks at a table: futures and play-outs, its noise, its
    blend with ``montecarlo``, how many of the next seat's answers it weighs and how
    far it corrects the later rounds (``later.LEVEL``'s levels)."""

    samples: int = SAMPLES
    variants: int = VARIANTS
    temperature: float = TEMPERATURE
    blend: float = BLEND
    replies: int = REPLIES
    reply_players: int = REPLY_PLAYERS
    later: int = LEVEL


def weigh_multi(
    state: GameState,
    legal: Sequence[Command],
    rng: DiceRng,
    samples: int,
    variants: int,
    temperature: float = TEMPERATURE,
    replies: int = 0,
    later: LaterRounds | None = None,
    worth_later: bool = False,
) -> list[tuple[tuple[float, float], Command]]:
    """The candidates at a multiplayer ``state`` (a weighed phase), each with the mover's
    (win chance, mean lead) on ``samples`` futures drawn from ``rng``; with ``replies``,
    each excavation candidate after the next seat's best of its ``replies`` likeliest
    answers (``excavation_candidates``)."""
    seat = seat_to_act(state)
    judge = MultiJudge(samples=samples)
    judge.later = later
    futures = [Future(state, rng, later_rounds(state), magic_now=True) for _ in range(samples)]
    if state.phase != EXCAVATION:
        weighed = judge.weighed(state, seat, legal, futures, rng, judge.verdict_of)
        return [((v[0], v[1]), c) for v, c in weighed]
    worths = seat_worths(judge, state, futures, later if worth_later else None)
    ways = [tastes(rng, state.players) for _ in range(min(variants, samples))]

    def weigh(group, gains, passed, give, to):
        return judge.finals(state, seat, group, gains, passed=passed, give=give, to=to)

    nxt = (seat + 1) % state.players

    def answer(options: list[list]) -> int:
        return max(range(len(options)), key=lambda j: verdict(options[j], nxt, temperature)[0])

    found = excavation_candidates(
        state, seat, legal, futures, worths, ways, weigh, replies=replies, answer=answer
    )
    return [((v[0], v[1]), c) for v, c in ((verdict(f, seat, temperature), c) for f, c in found)]


def choose_expert_multi(
    state: GameState,
    legal: Sequence[Command],
    rng: DiceRng,
    settings: ExpertSettings = ExpertSettings(),
    correction: LaterRounds | None = None,
) -> Command:
    """The candidate with the best win chance (its lead breaking near ties) plus
    ``blend`` times ``montecarlo``'s value of it, both scaled by their spread; the
    later rounds corrected by ``correction`` (the committed one unless told)."""
    s = settings
    replies = s.replies if state.players <= s.reply_players else 0
    later = (correction or learned()).seen_by(seat_to_act(state)) if s.later else None
    weighed = weigh_multi(
        state, legal, rng, s.samples, s.variants, s.temperature, replies, later, s.later > 2
    )
    values = {c: v[0] + LEAD_WEIGHT * v[1] for v, c in weighed}
    if s.blend > 0:
        bot = MonteCarloBot()
        bot.later = later if s.later > 1 else None
        seat = seat_to_act(state)
        futures = [Future(state, rng, later_rounds(state)) for _ in range(bot.samples)]
        theirs = {c: v for v, c in bot.candidates(state, seat, legal, futures, rng)}
        values = merits(values, theirs, s.blend)
    candidates: list[Candidate] = [(v, c) for c, v in values.items()]
    return pick_best(candidates, rng)


__all__ = [
    "BLEND",
    "LEAD_WEIGHT",
    "REPLIES",
    "REPLY_PLAYERS",
    "SAMPLES",
    "TEMPERATURE",
    "VARIANTS",
    "ExpertSettings",
    "choose_expert_multi",
    "weigh_multi",
]
