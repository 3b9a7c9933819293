"""The Monte Carlo bot: plays the round out in its head, then samples the rounds left.

Greedy sees only the score a die adds now. But a die taken in round 1 stays in
the trove and is scored three times, rerolled between rounds; and which dice a
player ends a round with depends on what the others take meanwhile. For each
candidate command this bot:

1. plays the rest of the excavation out: the other players take what the greedy
   rule would, the bot takes the die with the best value of its own (below);
   no dice are rolled while digging, so this needs no sampling;
2. scores the trove it ends the round with, faces as they show, against the
   rivals' gems as they end the round;
3. adds each later round's score, averaged over ``samples`` sampled futures:
   the bag's dice dealt out among the players, every die rerolled, the gems
   doubled when they beat the rivals' sampled gems;
4. adds ``magic_weight`` per magic symbol shown, for the rerolls magic buys.

Futures come from the bot's own generator (it never peeks at the game's dice)
and every candidate is scored on the same futures, so comparisons are sharp.
The magic phase and the cache use the greedy bot's exact one-round expectations,
which is all those choices affect.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from core.bots.evaluate import score_faces
from core.bots.greedy import cache_candidate, generic_candidates, magic_candidates, pick_best
from core.bots.solo_search import choose_by_play_outs
from core.commands import ChooseHero, Command, ShareBeer, TakeDie
from core.dice import ALL_FACES, BEER, DIE_COUNT, FACES, HEROES, KIND_OF, gems, magic_symbols
from core.mountain import remove, side_slots, slide_run, top_slots
from core.projections.state import EXCAVATION, MAGIC, REPLENISH, SETUP, GameState
from core.rng import DiceRng
from core.rules.flow import ROUNDS
from core.scoring import gem_count

_DIGITS = 24  # base-6 digits in one draw below 6**24 (< 2**64)
_SYMBOLS = {face: magic_symbols(face) for face in ALL_FACES}
_GEMS = {face: gems(face) for face in ALL_FACES}
_FACE_TABLES = tuple(FACES[KIND_OF[d]] for d in range(DIE_COUNT))

#: Dice a player gains this round beyond its trove, by seat.
Gains = dict[int, list[int]]


class Future:
    """One sampled future of the later rounds: the bag dealt out, and every die's faces."""

    __slots__ = ("digits", "gems", "rolls", "shares")

    def __init__(self, state: GameState, rng: DiceRng, rounds: int) -> None:
        n = state.players
        bag = _shuffled(list(state.bag), rng)
        gained: list[list[int]] = [[] for _ in range(n)]
        self.rolls: list[list[str]] = []  # per later round: a face for every die
        self.shares: list[list[list[int]]] = []  # per later round: each seat's dice from the bag
        self.gems: list[list[int]] = []  # per later round: each seat's gems, trove and share
        self.digits: list[list[int]] = []  # per later round: the faces of the bot's own dice
        for r in range(rounds):
            first = rng.below(n)  # each round's deal starts at a random seat
            for i, d in enumerate(bag[20 * r : 20 * r + 20]):
                gained[(first + i) % n].append(d)
            rolls = _roll_all(rng)
            self.rolls.append(rolls)
            self.digits.append(_digits(rng))
            self.shares.append([list(g) for g in gained])
            self.gems.append(
                [
                    sum(_GEMS[rolls[d]] for d in (*state.troves[s], *gained[s]))
                    + gem_count(state.hero_faces(s))
                    for s in range(n)
                ]
            )


def _shuffled(items: list[int], rng: DiceRng) -> list[int]:
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def _digits(rng: DiceRng) -> list[int]:
    """One roll (0 to 5) per die, six outcomes equally likely (24 rolls per 64-bit draw)."""
    rolls: list[int] = []
    word = 0
    for i in range(DIE_COUNT):
        if i % _DIGITS == 0:
            word = rng.below(6**_DIGITS)
        word, digit = divmod(word, 6)
        rolls.append(digit)
    return rolls


def _roll_all(rng: DiceRng) -> list[str]:
    """A face for every die."""
    return [_FACE_TABLES[d][digit] for d, digit in enumerate(_digits(rng))]


def later_rounds(state: GameState) -> int:
    """Rounds still to be played after the current one (all three before the first)."""
    return ROUNDS - state.round if state.round >= 1 else ROUNDS


class MonteCarloBot:
    """Chooses by its round played out plus the mean of the later rounds over sampled futures."""

    name = "montecarlo"

    def __init__(
        self,
        samples: int = 24,
        magic_weight: float = 0.75,
        solo_samples: int = 8,
        solo_candidates: int = 4,
    ) -> None:
        self.samples = samples
        self.magic_weight = magic_weight
        self.solo_samples = solo_samples
        self.solo_candidates = solo_candidates

    def choose(self, state: GameState, legal: Sequence[Command], rng: DiceRng) -> Command:
        seat = state.to_act()
        if state.mode == "solo":  # its own search: core.bots.solo_search
            return choose_by_play_outs(state, legal, rng, self.solo_samples, self.solo_candidates)
        if state.mode != "multi":
            return pick_best(generic_candidates(state, seat, legal, rng), rng)
        if state.phase == MAGIC:
            return pick_best(magic_candidates(state, seat, rng), rng)
        if state.phase == REPLENISH:
            return pick_best([cache_candidate(state, seat, rng)], rng)
        futures = [Future(state, rng, later_rounds(state)) for _ in range(self.samples)]
        if state.phase == SETUP:
            heroes = [c for c in legal if isinstance(c, ChooseHero)]
            values = [(self.value(state, seat, futures, {}, hero=c.hero), c) for c in heroes]
            return pick_best(values, rng)
        if state.phase == EXCAVATION:
            return pick_best(self._excavation(state, seat, legal, futures), rng)
        return pick_best(generic_candidates(state, seat, legal, rng), rng)

    # -- the excavation ----------------------------------------------------------

    def _excavation(self, state, seat, legal, futures):
        worth = self._worth(state, seat, futures)
        found = []
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
            found.append((self.value(state, seat, futures, gains), command))
        shares = [c for c in legal if isinstance(c, ShareBeer)]
        if shares:
            found += self._shares(state, seat, shares, futures, worth)
        return found

    def _shares(self, state, seat, shares, futures, worth):
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
        totals = state.totals()
        poorest = min(totals[s] for s in range(state.players) if s != seat)
        found = []
        for beer in sorted({c.die for c in shares}):
            value = self.value(state, seat, futures, gains, give=beer)
            found += [(value, c) for c in shares if c.die == beer and totals[c.to_seat] == poorest]
        return found

    def _worth(self, state, seat, futures) -> Callable[[int], float]:
        """What each mountain die adds on its own (its value with, less without, it)."""
        base = self.value(state, seat, futures, {})
        memo: dict[int, float] = {}

        def worth(die: int) -> float:
            if die not in memo:
                memo[die] = self.value(state, seat, futures, {seat: [die]}) - base
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
        held = {s: list(state.trove_faces(s)) for s in range(n)}
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
                else:
                    mine = held[turn]
                    k = max(slots, key=lambda k: (score_faces([*mine, faces[mountain[k]]], 99), -k))
                    mine.append(faces[mountain[k]])
                die = mountain[k]
                gains[turn].append(die)
                beers[turn] += faces[die] == BEER
                mountain = remove(mountain, k, slide_run(mountain, k))
            turn = (turn + 1) % n
        return gains

    # -- the valuation -----------------------------------------------------------

    def value(
        self,
        state: GameState,
        seat: int,
        futures: list[Future],
        gains: Gains,
        give: int | None = None,
        hero: str | None = None,
    ) -> float:
        """This round's score with ``gains`` (faces as shown), plus the later rounds' mean."""
        hero_faces = list(HEROES[hero]) if hero else list(state.hero_faces(seat))
        kept = [d for d in state.troves[seat] if d != give]
        own = kept + gains.get(seat, [])
        total = 0.0
        if state.phase == EXCAVATION:
            rival = max(
                (
                    gem_count(state.trove_faces(s)) + sum(_GEMS[state.faces[d]] for d in got)
                    for s in range(state.players)
                    if s != seat
                    for got in (gains.get(s, ()),)
                ),
                default=0,
            )
            total += self._score([state.faces[d] for d in own] + hero_faces, rival)
        later = 0.0
        for future in futures:
            for rolls, digits, shares, seat_gems in zip(
                future.rolls, future.digits, future.shares, future.gems, strict=True
            ):
                # The bot's own dice roll by their place in its trove, not by their id, so
                # candidates of the same kind meet the same luck (common random numbers).
                mine = kept + shares[seat] + gains.get(seat, [])
                faces = [_FACE_TABLES[d][digits[i]] for i, d in enumerate(mine)] + hero_faces
                rival = max(
                    (
                        g + sum(_GEMS[rolls[d]] for d in gains.get(s, ()))
                        for s, g in enumerate(seat_gems)
                        if s != seat
                    ),
                    default=0,
                )
                later += self._score(faces, rival)
        return total + later / len(futures)

    def _score(self, faces: list[str], rival: int) -> float:
        symbols = _SYMBOLS
        return score_faces(faces, rival) + self.magic_weight * sum(symbols[f] for f in faces)


def _best_pick(mountain, worth: Callable[[int], float], side: bool) -> int:
    """The slot of the most valuable die that can be taken (side dice too after a beer)."""
    slots = top_slots(mountain) + (side_slots(mountain) if side else ())
    return max(slots, key=lambda k: (worth(mountain[k]), -k))


__all__ = ["Future", "MonteCarloBot", "later_rounds"]
