"""What a multiplayer position is worth to one seat: its lead over the best rival, sampled.

The Monte Carlo bot plays the current excavation out in its head; this module
values where that leaves everyone. A :class:`Future` is one sampled course of
the rounds left: the bag's dice dealt out among the players and every die
rerolled each round (the dice come from the bot's own generator, never the
game's). :func:`standing` scores every seat's trove in every round left on each
future, adds the totals so far, and returns the mean lead of the bot over the
best of its rivals plus a bonus per future it wins: the game is won by beating
the best rival, not by scoring much. In the later rounds each trove's magic
rerolls its beer faces, the least a spend does.

Tried and dropped (measured worse against greedy): digging the later rounds
out on the sampled mountain with every seat greedy, and letting the bot pick its
later shares from a pool; both make the value of a die now depend on many
chaotic later choices, so the candidates stop sharing their luck.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from core.bots.evaluate import FACE_INFO, tally
from core.dice import BEER, DIE_COUNT, FACES, HEROES, KIND_OF
from core.modes.multiplayer.flow import ROUNDS
from core.projections.state import EXCAVATION, MAGIC, GameState
from core.rng import DiceRng

_DIGITS = 24  # base-6 digits in one draw below 6**24 (< 2**64)
_CHUNK_DIGITS = 4  # digits read at once, by table
_CHUNK = 6**_CHUNK_DIGITS
_CHUNKS = tuple(tuple(v // 6**k % 6 for k in range(_CHUNK_DIGITS)) for v in range(_CHUNK))
assert _DIGITS % _CHUNK_DIGITS == 0 and DIE_COUNT % _CHUNK_DIGITS == 0
_FACE_TABLES = tuple(FACES[KIND_OF[d]] for d in range(DIE_COUNT))

#: Dice a player gains this round beyond its trove, by seat.
Gains = dict[int, list[int]]


class Correction(Protocol):
    """What ``final_totals`` adds to each seat's total, the same in every future: a model
    of what the random deal of the later rounds misses (``core.bots.valuation.later``)."""

    def offsets(
        self, state: GameState, dice: Sequence[Sequence[int]], shown: Sequence[str | None]
    ) -> list[float] | None:
        """Per seat, from the dice each ends the round with and the face each die shows
        then (None: not known); None for no correction."""


class Future:
    """One sampled future: this round's roll of every die, then each later round's deal.

    With ``magic_now`` it also rolls every die once more, last: the faces this
    round's magic phase rerolls dice to (``final_totals`` with ``magic_now``).
    """

    __slots__ = ("again", "magic", "now", "rounds")

    def __init__(
        self, state: GameState, rng: DiceRng, rounds: int, magic_now: bool = False
    ) -> None:
        n = state.players
        bag = _shuffled(list(state.bag), rng)
        self.now = _roll_all(rng)  # the face a shared beer die is rerolled to
        gained: list[list[int]] = [[] for _ in range(n)]
        # per later round: (a face for every die, the bot's own rolls by place, each seat's share)
        self.rounds: list[tuple[list[str], list[int], list[list[int]]]] = []
        self.again: list[tuple[list[str], list[int]]] = []  # per later round: magic rerolls
        for r in range(rounds):
            first = rng.below(n)  # each round's deal starts at a random seat
            for i, d in enumerate(bag[20 * r : 20 * r + 20]):
                gained[(first + i) % n].append(d)
            rolls = _roll_all(rng)
            self.rounds.append((rolls, _digits(rng), [list(g) for g in gained]))
            self.again.append((_roll_all(rng), _digits(rng)))
        self.magic = _roll_all(rng) if magic_now else None


def _shuffled(items: list[int], rng: DiceRng) -> list[int]:
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def _digits(rng: DiceRng) -> list[int]:
    """One roll (0 to 5) per die, six outcomes equally likely (24 rolls per 64-bit draw,
    the lowest base-6 digit first, read four digits at a time)."""
    rolls: list[int] = []
    for start in range(0, DIE_COUNT, _DIGITS):
        word = rng.below(6**_DIGITS)
        for _ in range(min(_DIGITS, DIE_COUNT - start) // _CHUNK_DIGITS):
            word, chunk = divmod(word, _CHUNK)
            rolls += _CHUNKS[chunk]
    return rolls


def _roll_all(rng: DiceRng) -> list[str]:
    """A face for every die."""
    return [_FACE_TABLES[d][digit] for d, digit in enumerate(_digits(rng))]


def later_rounds(state: GameState) -> int:
    """Rounds still to be played after the current one (all three before the first)."""
    return ROUNDS - state.round if state.round >= 1 else ROUNDS


def round_scores(tallies: list[tuple[float, int]]) -> list[float]:
    """Each seat's round score: the single seat with strictly the most gems doubles them."""
    scores = [base for base, _ in tallies]
    gem_counts = [g for _, g in tallies]
    best = max(gem_counts)
    if best > 0 and gem_counts.count(best) == 1:
        scores[gem_counts.index(best)] += best
    return scores


def standing(
    state: GameState,
    seat: int,
    futures: Sequence[Future],
    gains: Gains,
    *,
    magic_weight: float,
    win_weight: float,
    give: int | None = None,
    to: int | None = None,
    hero: str | None = None,
    rerolled: Sequence[int] = (),
    cached: Sequence[int] = (),
    later_magic_weight: float | None = None,
    later: Correction | None = None,
) -> float:
    """The mean over ``futures`` of the bot's final lead over its best rival, plus
    ``win_weight`` times the share of futures it wins.

    The arguments are ``final_totals``'s, which says what each means.
    """
    lead = wins = 0.0
    finals = final_totals(
        state,
        seat,
        futures,
        gains,
        magic_weight=magic_weight,
        give=give,
        to=to,
        hero=hero,
        rerolled=rerolled,
        cached=cached,
        later_magic_weight=later_magic_weight,
        later=later,
    )
    n = state.players
    for final in finals:
        own = final[seat]
        best = max(final[s] for s in range(n) if s != seat)
        lead += own - best
        wins += 1.0 if own > best else 0.5 if own == best else 0.0
    return (lead + win_weight * wins) / len(futures)


def final_totals(
    state: GameState,
    seat: int,
    futures: Sequence[Future],
    gains: Gains,
    *,
    magic_weight: float,
    give: int | None = None,
    to: int | None = None,
    hero: str | None = None,
    rerolled: Sequence[int] = (),
    cached: Sequence[int] = (),
    later_magic_weight: float | None = None,
    magic_now: bool = False,
    passed: Sequence[tuple[int, int, int]] = (),
    later: Correction | None = None,
) -> list[list[float]]:
    """Every seat's final total in each of ``futures``, after ``seat``'s move.

    ``gains`` are the dice each seat takes in the rest of this round (their faces
    count as shown); ``give`` is a beer die ``seat`` shares with seat ``to`` (rerolled
    to the future's face); ``hero`` the hero ``seat`` would choose; ``rerolled`` its
    dice a magic spend rerolls now (to the future's faces); ``cached`` the dice it
    keeps as they show into the next round. Each magic symbol shown is worth
    ``magic_weight`` this round (nothing in the magic phase, where the spends are
    the decisions valued) and ``later_magic_weight`` in later rounds, on top of the
    beer faces it rerolls there (``reroll_beers``). ``standing`` (the bot) and
    ``core.analysis`` (the win chances) read the same totals.

    With ``magic_now`` (futures made with ``magic_now``) this round's magic phase
    is sampled too, instead of a weight per symbol: the magic each seat may still
    spend rerolls its beer faces to the future's faces, as in the later rounds.
    In the excavation every seat spends; in the magic phase the seats still to
    act after ``seat`` do (``seat``'s own move is the spend valued).

    ``passed`` are the beers shared in the rest of the round, as (die, from seat,
    to seat): each die leaves its giver and joins its receiver showing the
    future's face (as ``give`` does), for this round and the rounds left.

    ``later`` corrects each seat's total by the dice it ends the round with
    (``Correction``); none by default.
    """
    n, mw = state.players, magic_weight
    later_mw = mw if later_magic_weight is None else later_magic_weight
    heroes = [list(state.hero_faces(s)) for s in range(n)]
    if hero is not None:
        heroes[seat] = list(HEROES[hero])
    kept = [d for d in state.troves[seat] if d != give]
    dice = [list(state.troves[s]) + gains.get(s, []) for s in range(n)]
    dice[seat] = kept + gains.get(seat, [])
    mine_gained = gains.get(seat, [])
    received: list[list[int]] = [[] for _ in range(n)]
    if passed:
        gone = {d for d, _, _ in passed}
        for d, _, receiver in passed:
            received[receiver].append(d)
        dice = [[d for d in held if d not in gone] for held in dice]
        kept = [d for d in kept if d not in gone]
        mine_gained = [d for d in mine_gained if d not in gone]
    totals = list(state.totals()) if state.round_scores else [0] * n
    face = state.face
    now_faces = [[face(d) for d in dice[s]] + heroes[s] for s in range(n)]
    scoring_now = state.phase in (EXCAVATION, MAGIC)
    now_weight = mw if state.phase == EXCAVATION and not magic_now else 0.0
    places = [i for i, d in enumerate(dice[seat]) if d in rerolled]
    keep = {i: face(d) for i, d in enumerate(kept) if d in cached}
    spells = _spells(state, seat, dice) if magic_now and scoring_now else {}
    fixed = None
    if scoring_now and give is None and not places and not spells and not passed:
        fixed = round_scores([tally(f, now_weight) for f in now_faces])
    offsets = _offsets(later, state, dice, received, give, to, passed, rerolled)
    found = []
    for future in futures:
        final: list[float] = list(totals)
        if offsets is not None:
            final = [t + o for t, o in zip(final, offsets, strict=True)]
        if scoring_now:
            now = fixed
            if now is None:
                shown = list(now_faces)
                if to is not None:
                    assert give is not None, "a beer is shared with its die"
                    shown[to] = [*now_faces[to], future.now[give]]
                for d, _, receiver in passed:
                    shown[receiver] = [*shown[receiver], future.now[d]]
                if places:
                    shown[seat] = list(now_faces[seat])
                    for i in places:
                        shown[seat][i] = future.now[dice[seat][i]]
                for s, symbols in spells.items():
                    assert future.magic is not None, "a future drawn for magic rolls them"
                    shown[s] = _spelled(shown[s], dice[s], symbols, future.magic)
                now = round_scores([tally(f, now_weight) for f in shown])
            for s in range(n):
                final[s] += now[s]
        _dealt(
            final, future, seat, dice, kept, mine_gained, heroes, to, give, later_mw, keep, received
        )
        found.append(final)
    return found


def _offsets(later, state, dice, received, give, to, passed, rerolled) -> list[float] | None:
    """``later``'s correction of each seat's total, from the dice it ends the round with;
    a die given, passed or rerolled shows a face not known yet."""
    if later is None:
        return None
    ends = [list(held) + received[s] for s, held in enumerate(dice)]
    if give is not None and to is not None:
        ends[to].append(give)
    shown = list(state.faces)
    for d in (give, *rerolled, *(d for d, _, _ in passed)):
        if d is not None:
            shown[d] = None
    return later.offsets(state, ends, shown)


def _spells(state: GameState, seat: int, dice: list[list[int]]) -> dict[int, int]:
    """The magic symbols each seat may still spend this round, by seat (none left out)."""
    if state.phase == EXCAVATION:
        spenders = list(range(state.players))
    else:
        spenders = [s for s in state.pending if s != seat]
    found = {}
    face = state.face
    for s in spenders:
        symbols = sum(FACE_INFO[face(d)][6] for d in dice[s] if d not in state.spent)
        spent = state.hero_spent[s] if state.hero_spent else ()
        hero = state.hero_faces(s)
        symbols += sum(FACE_INFO[f][6] for i, f in enumerate(hero) if i not in spent)
        if symbols:
            found[s] = symbols
    return found


def _spelled(shown: list[str], ids: list[int], symbols: int, rolls: list[str]) -> list[str]:
    """``shown`` with up to ``symbols`` beer faces rerolled to ``rolls`` (never a hazard die's)."""
    held = list(shown)
    for i, d in enumerate(ids):
        if not symbols:
            break
        if held[i] == BEER and KIND_OF[d] != "hazard":
            held[i] = rolls[d]
            symbols -= 1
    return held


def _dealt(
    final, future, seat, dice, kept, mine_gained, heroes, to, give, mw, keep, received=None
) -> None:
    """Adds each later round's scores to ``final``, the bag dealt out at random; the dice
    at the places in ``keep`` show its faces in the first of them (a cache); ``received``
    are the dice each seat was given by others' beers (none by default)."""
    for r, (rolls, digits, shares) in enumerate(future.rounds):
        again_rolls, again_digits = future.again[r]
        tallies = []
        for s in range(len(final)):
            if s == seat:  # own dice roll by their place (common luck across candidates)
                ids = kept + shares[s] + mine_gained
                if received and received[s]:
                    ids = ids + received[s]
                held = [_FACE_TABLES[d][digits[i]] for i, d in enumerate(ids)]
                if keep and r == 0:
                    for i, face in keep.items():
                        held[i] = face
                reroll_beers(
                    held, ids, heroes[s], lambda i, d, a=again_digits: _FACE_TABLES[d][a[i]]
                )
            else:
                ids = dice[s] + shares[s] + ([give] if s == to else [])
                if received and received[s]:
                    ids = ids + received[s]
                held = [rolls[d] for d in ids]
                reroll_beers(held, ids, heroes[s], lambda _i, d, a=again_rolls: a[d])
            tallies.append(tally(held + heroes[s], mw))
        for s, score in enumerate(round_scores(tallies)):
            final[s] += score


def reroll_beers(held: list[str], ids: list[int], hero, rerolled) -> None:
    """The magic a trove shows (its dice's and its hero's) rerolls its beer faces, one die
    a symbol, never a hazard die (rule D6): the least a spend can do, which the model can
    afford; ``rerolled(i, die)`` is the face the die in place ``i`` is rerolled to."""
    symbols = sum(FACE_INFO[f][6] for f in held) + sum(FACE_INFO[f][6] for f in hero)
    for i, face in enumerate(held):
        if not symbols:
            return
        if face == BEER and KIND_OF[ids[i]] != "hazard":
            held[i] = rerolled(i, ids[i])
            symbols -= 1


__all__ = [
    "Correction",
    "Future",
    "Gains",
    "final_totals",
    "later_rounds",
    "reroll_beers",
    "round_scores",
    "standing",
    "tally",
]
