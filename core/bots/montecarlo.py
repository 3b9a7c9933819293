"""The Monte Carlo bot: plays the round out in its head, then samples the rounds left.

Greedy sees only the score a die adds now. But a die taken in round 1 stays in
the trove and is scored three times, rerolled between rounds; and which dice a
player ends a round with depends on what the others take meanwhile. For each
candidate command this bot:

1. plays the rest of the excavation out: the other players take what the greedy
   rule would, the bot takes the die with the best value of its own (below);
   no dice are rolled while digging, so this needs no sampling;
2. values where that leaves everyone (``core.bots.multi_value.standing``): on
   ``samples`` sampled futures, every seat's score this round (faces as shown)
   and in each later round (the bag dealt out, every die rerolled), added to the
   totals so far; the value is the mean lead over the best rival plus a bonus
   per future won, since a game is won by beating the best rival.

The magic phase and the cache are valued the same way: a spend on each of the
best few combinations of dice (the rerolled dice showing each future's faces),
and each legal cache of the dice a reroll would cost most (the kept dice showing
their faces in the next round). The hero is chosen by the same valuation.

Futures come from the bot's own generator (it never peeks at the game's dice)
and every candidate is scored on the same futures, so comparisons are sharp.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import TypeVar

from core.bots.base import seat_to_act
from core.bots.evaluate import reroll_gains, score_faces, tally
from core.bots.greedy import Candidate, cache_candidate, generic_candidates, pick_best
from core.bots.multi_value import Correction, Future, Gains, later_rounds, standing
from core.bots.solo_search import choose_by_play_outs
from core.commands import (
    CacheDice,
    ChooseHero,
    Command,
    EndMagicTurn,
    ShareBeer,
    SpendMagic,
    TakeDie,
)
from core.dice import ALL_FACES, BEER, DIE_COUNT, FACES, KIND_OF, gems
from core.modes.multiplayer.cache import cache_capacity, is_legal_cache
from core.modes.multiplayer.magic import magic_sources, reroll_targets, targets_needed
from core.mountain import remove, side_slots, slide_run, top_slots
from core.projections.state import EXCAVATION, MAGIC, REPLENISH, SETUP, GameState
from core.rng import DiceRng

_FACE_TABLES = tuple(FACES[KIND_OF[d]] for d in range(DIE_COUNT))
_GEM = {face: gems(face) for face in ALL_FACES}

#: What a candidate is valued as: the bot's lead (a float, ``MonteCarloBot.standing``),
#: or what the analysis reads from the same futures (``core.bots.valuation.multi``).
Value = TypeVar("Value")
#: A valuation of where a candidate leaves the game, called as
#: ``standing(state, seat, futures, gains, **given)`` (``given``: a hero, rerolled or
#: cached dice, a beer die given and to whom).
Standing = Callable[..., Value]
#: The phases whose candidates are played out on the futures (``MonteCarloBot.weighed``).
WEIGHED_PHASES = (SETUP, EXCAVATION, MAGIC, REPLENISH)


class MonteCarloBot:
    """Chooses by its round played out and its lead over the best rival on sampled futures.

    ``win_weight`` is what a future won adds to the lead (in points); the magic
    weights are what a magic symbol shown is worth this round and in later rounds;
    ``magic_choices`` how many of the best dice a spend or a cache chooses among.
    The values were tuned against greedy on seeds 7 and 11, not on the reported seed.
    """

    name = "montecarlo"

    def __init__(
        self,
        samples: int = 24,
        magic_weight: float = 0.75,
        win_weight: float = 10.0,
        magic_choices: int = 5,
        later_magic_weight: float | None = 0.3,
        solo_samples: int = 8,
        solo_candidates: int = 4,
    ) -> None:
        self.samples = samples
        self.magic_weight = magic_weight
        self.win_weight = win_weight
        self.magic_choices = magic_choices
        self.later_magic_weight = later_magic_weight
        self.solo_samples = solo_samples
        self.solo_candidates = solo_candidates
        #: A correction of the later rounds' random deal (``multi_value.Correction``);
        #: ``montecarlo`` itself has none, the expert may.
        self.later: Correction | None = None

    def choose(self, state: GameState, legal: Sequence[Command], rng: DiceRng) -> Command:
        seat = seat_to_act(state)
        if state.mode == "solo":  # its own search: core.bots.solo_search
            return choose_by_play_outs(state, legal, rng, self.solo_samples, self.solo_candidates)
        if state.mode != "multi":
            return pick_best(generic_candidates(state, seat, legal, rng), rng)
        futures = [Future(state, rng, later_rounds(state)) for _ in range(self.samples)]
        return pick_best(self.candidates(state, seat, legal, futures, rng), rng)

    def candidates(self, state, seat, legal, futures, rng) -> list[Candidate]:
        """The commands worth weighing in a multiplayer ``state``, each with the bot's
        value of it (``standing``) on ``futures`` (``weighed``); greedy's generic
        candidates in a phase with none of its own."""
        if state.phase in WEIGHED_PHASES:
            return self.weighed(state, seat, legal, futures, rng, self.standing)
        return generic_candidates(state, seat, legal, rng)

    def weighed(
        self, state, seat, legal, futures, rng, standing: Standing[Value]
    ) -> list[tuple[Value, Command]]:
        """The commands worth weighing in a ``WEIGHED_PHASES`` state, each valued by
        ``standing`` on ``futures``: every hero; every take and beer share; ending the
        magic turn or a spend on one of the best few combinations of dice; greedy's cache
        and the caches of the dice a reroll would cost most. The bot passes its own
        ``standing``; ``core.analysis`` weighs the same candidates with its verdict.
        """
        if state.phase == REPLENISH:
            return self._caches(state, seat, futures, rng, standing)
        if state.phase == MAGIC:
            return self._magic(state, seat, futures, standing)
        if state.phase == SETUP:
            heroes = [c for c in legal if isinstance(c, ChooseHero)]
            return [(standing(state, seat, futures, {}, hero=c.hero), c) for c in heroes]
        if state.phase == EXCAVATION:
            return self._excavation(state, seat, legal, futures, standing)
        raise ValueError(f"no candidates are played out in the {state.phase} phase")

    def standing(self, state, seat, futures, gains, **given) -> float:
        """The bot's lead over its best rival, with the win bonus (``multi_value.standing``)."""
        return standing(
            state,
            seat,
            futures,
            gains,
            magic_weight=self.magic_weight,
            win_weight=self.win_weight,
            later_magic_weight=self.later_magic_weight,
            later=self.later,
            **given,
        )

    # -- the magic phase ---------------------------------------------------------

    def _magic(
        self, state, seat, futures, standing: Standing[Value]
    ) -> list[tuple[Value, Command]]:
        """Ending the turn, or a spend on one of the best few combinations of dice per source,
        each valued with the rerolled dice showing the futures' faces."""
        found: list[tuple[Value, Command]] = [
            (standing(state, seat, futures, {}), EndMagicTurn(seat))
        ]
        for source in magic_sources(state, seat):
            eligible = reroll_targets(state, seat, source.die)
            k = targets_needed(state, seat, source)
            gains = reroll_gains(state, seat, eligible)
            best = sorted(eligible, key=lambda d: -gains[d])[: max(k, self.magic_choices)]
            for chosen in combinations(best, k):
                targets = tuple(d for d in eligible if d in chosen)  # the order legal.py lists
                command = SpendMagic(seat, targets, die=source.die, hero_face=source.hero_face)
                found.append((standing(state, seat, futures, {}, rerolled=targets), command))
        return found

    def _caches(
        self, state, seat, futures, rng, standing: Standing[Value]
    ) -> list[tuple[Value, Command]]:
        """Greedy's cache and every legal cache of the dice that lose most by a reroll,
        each valued with the kept dice showing their faces in the next round."""
        _, greedy = cache_candidate(state, seat, rng)
        room = cache_capacity(state, seat)
        losses = reroll_gains(state, seat, state.troves[seat])
        best = sorted(state.troves[seat], key=lambda d: losses[d])[: self.magic_choices]
        caches = {greedy.dice}
        for size in range(min(room, len(best)) + 1):
            for chosen in combinations(sorted(best), size):
                if is_legal_cache(state, seat, chosen):
                    caches.add(chosen)
        return [
            (standing(state, seat, futures, {}, cached=dice), CacheDice(seat, dice))
            for dice in sorted(caches)
        ]

    # -- the excavation ----------------------------------------------------------

    def _excavation(
        self, state, seat, legal, futures, standing: Standing[Value]
    ) -> list[tuple[Value, Command]]:
        worth = self._worth(state, seat, futures)
        found: list[tuple[Value, Command]] = []
        for command in legal:
            if not isinstance(command, TakeDie):
                continue
            k = state.mountain.index(command.die)
            mountain = remove(state.mountain, k, slide_run(state.mountain, k))
            picks = [command.die]
            if state.picks_left > 1 and any(d is not None for d in mountain):
                second = _best_pick(mountain, worth, side=True)  # the beer's second pick
                picks.append(mountain[second])
                mountain = remove(mountain, second, slide_run(mountain, second))
            gains = self._play_out(state, seat, mountain, picks, worth)
            found.append((standing(state, seat, futures, gains), command))
        shares = [c for c in legal if isinstance(c, ShareBeer)]
        if shares:
            found += self._shares(state, seat, shares, futures, worth, standing)
        return found

    def _shares(
        self, state, seat, shares, futures, worth, standing: Standing[Value]
    ) -> list[tuple[Value, Command]]:
        """Share a beer: the two best picks it buys, the round played out, the die given away."""
        mountain = state.mountain
        first = _best_pick(mountain, worth, side=True)
        mountain = remove(mountain, first, slide_run(mountain, first))
        picks = [state.mountain[first]]
        if any(d is not None for d in mountain):
            second = _best_pick(mountain, worth, side=True)
            picks.append(mountain[second])
            mountain = remove(mountain, second, slide_run(mountain, second))
        gains = self._play_out(state, seat, mountain, picks, worth, give=shares[0].die)
        return [
            (standing(state, seat, futures, gains, give=c.die, to=c.to_seat), c) for c in shares
        ]

    def _worth(self, state, seat, futures) -> Callable[[int], float]:
        """What each mountain die adds to the bot's own score on its own (with, less without)."""
        base = self.own_value(state, seat, futures, {})
        memo: dict[int, float] = {}

        def worth(die: int) -> float:
            if die not in memo:
                memo[die] = self.own_value(state, seat, futures, {seat: [die]}) - base
            return memo[die]

        return worth

    def _play_out(self, state, seat, mountain, picks, worth, give=None) -> Gains:
        """The rest of the excavation: rivals take greedily, the bot by ``worth``.

        A player with a beer-faced die shares it (as greedy always does) and takes
        two dice, top or side; where the shared die goes is left out.
        """
        n, faces = state.players, state.faces
        gains: Gains = {s: [] for s in range(n)}
        gains[seat] = list(picks)
        held = [list(state.trove_faces(s)) for s in range(n)]
        held[seat] += [faces[d] for d in picks]
        gem_counts = [_gems(h) for h in held]
        beers = [sum(faces[d] == BEER for d in state.troves[s] if d != give) for s in range(n)]
        beers[seat] += sum(faces[d] == BEER for d in picks)
        turn = (seat + 1) % n
        while any(d is not None for d in mountain):
            shared = beers[turn] > 0
            beers[turn] -= shared
            for _ in range(2 if shared else 1):
                slots = top_slots(mountain) + (side_slots(mountain) if shared else ())
                if not slots:
                    break
                if turn == seat:
                    k = max(slots, key=lambda k: (worth(mountain[k]), -k))
                else:  # greedy: the best score now, gems doubled against the most shown
                    mine = held[turn]
                    rival = max(g for s, g in enumerate(gem_counts) if s != turn)
                    k = max(
                        slots, key=lambda k: (score_faces([*mine, faces[mountain[k]]], rival), -k)
                    )
                die = mountain[k]
                held[turn].append(faces[die])
                gem_counts[turn] += _GEM[faces[die]]
                gains[turn].append(die)
                beers[turn] += faces[die] == BEER
                mountain = remove(mountain, k, slide_run(mountain, k))
            turn = (turn + 1) % n
        return gains

    def own_value(self, state: GameState, seat: int, futures, gains: Gains) -> float:
        """The bot's own score this round (faces as shown) plus the later rounds' mean,
        against the rivals' gems as they stand (how ``worth`` ranks the dice)."""
        face, mw = state.face, self.magic_weight
        heroes = [list(state.hero_faces(s)) for s in range(state.players)]
        others = [s for s in range(state.players) if s != seat]
        gained = gains.get(seat, [])
        total = 0.0
        if state.phase == EXCAVATION:
            mine = tally([face(d) for d in (*state.troves[seat], *gained)] + heroes[seat], mw)
            rival = max(
                (_gems([face(d) for d in state.troves[s]] + heroes[s]) for s in others), default=0
            )
            total += _own_score(mine, rival)
        later = 0.0
        for future in futures:
            for rolls, digits, shares in future.rounds:
                own = [*state.troves[seat], *shares[seat], *gained]
                mine = tally(
                    [_FACE_TABLES[d][digits[i]] for i, d in enumerate(own)] + heroes[seat], mw
                )
                rival = max(
                    (
                        _gems([rolls[d] for d in (*state.troves[s], *shares[s])] + heroes[s])
                        for s in others
                    ),
                    default=0,
                )
                later += _own_score(mine, rival)
        return total + later / len(futures)


def _gems(faces: list[str]) -> int:
    return sum(_GEM[f] for f in faces)


def _own_score(tallied: tuple[float, int], rival: int) -> float:
    base, gem = tallied
    return base + gem if gem > rival else base


def _best_pick(mountain, worth: Callable[[int], float], side: bool) -> int:
    """The slot of the most valuable die that can be taken (side dice too after a beer)."""
    slots = top_slots(mountain) + (side_slots(mountain) if side else ())
    return max(slots, key=lambda k: (worth(mountain[k]), -k))


__all__ = ["MonteCarloBot"]
