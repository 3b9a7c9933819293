"""A multiplayer decision weighed in win chances, the Monte Carlo bot's way.

The candidates are the bot's own (``MonteCarloBot.weighed``): every hero,
every take and beer share, ending the magic turn or a spend on one of the best
few combinations of dice, greedy's cache and the caches of the dice a reroll
would cost most; the move played is always weighed too. Each is valued on
sampled futures of the unseen dice (``core.bots.multi_value``): in the
excavation the rest of the round is played out in many ways
(``core.bots.valuation.excavation``), this round's magic phase is sampled (each
seat's magic rerolls its beer faces), then every seat's trove is scored in each
round left. Where the bot reads the mover's lead plus a bonus per future won,
the analysis reads every seat's final total in each future and turns them into
chances (``verdict``), so every seat's chance after a move is known. A move's
value is the expert's (``blend.on_chance_scale``): the mover's win chance with
``montecarlo``'s opinion of the move added, on the scale of the win chances, so
that a hint, a review and the analysis rank the moves as the expert plays them.

In a tie-break only the tied seats play on: each future scores the mover's
extra round (its magic spent, the rerolled dice showing the future's faces)
against the other tied seats', the gems doubled only among them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from attrs import evolve

from core.bots.evaluate import tally
from core.bots.montecarlo import MonteCarloBot
from core.bots.multi_value import Future, final_totals, later_rounds, round_scores
from core.bots.valuation.blend import BLEND, on_chance_scale
from core.bots.valuation.excavation import VARIANTS, excavation_candidates, seat_worths, tastes
from core.bots.valuation.later import LEVEL, LaterRounds, learned
from core.bots.valuation.verdict import Judgement, Valued, judgement, same_move
from core.commands import CacheDice, Command, SpendMagic
from core.projections.state import EXCAVATION, GameState
from core.rng import DiceRng
from core.rules.legal import LegalList


class Verdict(tuple):
    """A candidate's worth to the mover: (win chance, mean lead, every seat's chance)."""

    __slots__ = ()

    def __new__(cls, chance: float, lead: float, chances: tuple[float, ...]) -> Verdict:
        return super().__new__(cls, (chance, lead, chances))


#: Points of luck the model leaves out, as the scale of the noise on each final total.
#: Fitted (least Brier score, the chances at each round's start) on 4-player bot games
#: of seeds 7 and 11, where it left the chances calibrated; measured on others
#: (docs/performance.md).
TEMPERATURE = 8.0


def verdict(
    finals: Sequence[Sequence[float]], seat: int, temperature: float = TEMPERATURE
) -> Verdict:
    """Each seat's chance and ``seat``'s mean lead over its best rival.

    A future's final totals do not settle the game: the model leaves luck out
    (the magic spent as players would, the rivals' own choices), so each seat's
    chance in a future is the chance it ends first if every total had noise of
    scale ``TEMPERATURE`` points on it (Gumbel noise: the softmax of the totals
    over ``TEMPERATURE``), and its chance is the mean over the futures.
    """
    n = len(finals[0])
    wins = [0.0] * n
    lead = 0.0
    for final in finals:
        top = max(final)
        weights = [math.exp((t - top) / temperature) for t in final]
        whole = sum(weights)
        for s in range(n):
            wins[s] += weights[s] / whole
        lead += final[seat] - max(final[s] for s in range(n) if s != seat)
    count = len(finals)
    chances = tuple(w / count for w in wins)
    return Verdict(chances[seat], lead / count, chances)


class MultiJudge(MonteCarloBot):
    """The Monte Carlo bot's candidates, each valued as every seat's win chance."""

    name = "analysis"

    def verdict_of(self, state, seat, futures, gains, **given) -> Verdict:
        """Where a candidate leaves the game, as the mover's ``Verdict``: the analysis's
        valuation of the bot's candidates (``MonteCarloBot.weighed``)."""
        if state.tiebreak:
            return _tiebreak(state, seat, futures, given.get("rerolled", ()))
        return verdict(self.finals(state, seat, futures, gains, **given), seat)

    def finals(self, state, seat, futures, gains, **given) -> list[list[float]]:
        """Every seat's final total in each future (``multi_value.final_totals``), with
        this round's magic phase sampled."""
        return final_totals(
            state,
            seat,
            futures,
            gains,
            magic_weight=self.magic_weight,
            later_magic_weight=self.later_magic_weight,
            magic_now=True,
            later=self.later,
            **given,
        )


def _tiebreak(state: GameState, seat: int, futures, rerolled: Sequence[int]) -> Verdict:
    """The tie-break's extra round among the tied seats (the others cannot win)."""
    contenders = state.contenders
    n = state.players
    face = state.face  # a trove's dice show theirs
    finals = []
    for future in futures:
        tallies = []
        for s in contenders:
            shown = [
                future.now[d] if s == seat and d in rerolled else face(d) for d in state.troves[s]
            ]
            tallies.append(tally(shown + list(state.hero_faces(s))))
        scores = round_scores(tallies)  # the doubling among the tied seats alone
        final = [float("-inf")] * n
        for s, score in zip(contenders, scores, strict=True):
            final[s] = score
        finals.append(final)
    return _finite(verdict(finals, seat))


def _finite(v: Verdict) -> Verdict:
    """A lead against a seat out of the tie-break is not a number of points: report 0."""
    lead = v[1] if v[1] not in (float("inf"), float("-inf")) else 0.0
    return Verdict(v[0], lead, v[2])


def judge_multi(state: GameState, played: Command | None, rng: DiceRng, samples: int) -> Judgement:
    """The candidates at ``state`` (and the ``played`` move) valued on ``samples`` futures."""
    seat = state.to_act()
    assert seat is not None, "a position is judged only where a seat is to act (report.tasks)"
    legal = LegalList(state)
    judge = MultiJudge(samples=samples)
    later = learned().seen_by(seat) if LEVEL else None
    judge.later = later
    futures = [Future(state, rng, later_rounds(state), magic_now=True) for _ in range(samples)]
    if state.phase == EXCAVATION:
        worths = seat_worths(judge, state, futures, later if LEVEL > 2 else None)
        variants = [tastes(rng, state.players) for _ in range(min(VARIANTS, samples))]

        def weigh(group, gains, passed, give, to):
            return judge.finals(state, seat, group, gains, passed=passed, give=give, to=to)

        weighed = excavation_candidates(state, seat, legal, futures, worths, variants, weigh)
        values = [(verdict(finals, seat), command) for finals, command in weighed]
    else:
        values = judge.weighed(state, seat, legal, futures, rng, judge.verdict_of)
    found = [Valued(command, v[0], v[1], v[2]) for v, command in values]
    if played is not None and not any(same_move(v.command, played) for v in found):
        found.append(_played(judge, state, seat, futures, played))
    merited = _merited(state, seat, legal, found, rng, samples, later if LEVEL > 1 else None)
    return judgement(len(legal), merited, played)


def _merited(
    state, seat, legal, found: list[Valued], rng: DiceRng, samples: int, later: LaterRounds | None
) -> list[Valued]:
    """``found`` valued as the expert values them (``blend.on_chance_scale``): with
    ``montecarlo``'s value of the same candidates on its own futures (a quarter as many,
    at least as many as it plays on). Each seat's chances stay the win chances."""
    bot = MonteCarloBot()
    bot.samples = max(bot.samples, samples // 4)
    bot.later = later
    futures = [Future(state, rng, later_rounds(state)) for _ in range(bot.samples)]
    theirs = {c: v for v, c in bot.candidates(state, seat, legal, futures, rng)}
    valued = on_chance_scale({v.command: v.value for v in found}, theirs, BLEND)
    return [evolve(v, value=valued[v.command]) for v in found]


def _played(judge: MultiJudge, state, seat, futures, played: Command) -> Valued:
    """A move the bot would not have weighed: a spend on other dice, another cache."""
    if isinstance(played, SpendMagic):
        v = judge.verdict_of(state, seat, futures, {}, rerolled=played.targets)
    elif isinstance(played, CacheDice):
        v = judge.verdict_of(state, seat, futures, {}, cached=played.dice)
    else:
        raise ValueError(f"the analysis found no value for {played.text()!r}")
    return Valued(played, v[0], v[1], v[2])


__all__ = ["TEMPERATURE", "MultiJudge", "Verdict", "judge_multi", "verdict"]
