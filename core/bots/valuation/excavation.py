"""The excavation's candidates valued over many play-outs of the rest of the round.

The Monte Carlo bot plays the rest of the excavation out once per candidate: its
own picks by its valuation, the others' greedily. That single path makes a fine
comparison for a bot, but as a win chance it is overconfident (late in a round
one path decides everything), it favours whoever is to move (they play better
than the others in their own head), and it is chaotic: a different first pick
sends everyone down another path, so two candidates' values differ by more than
the moves do. The analysis plays the rest out in ``VARIANTS`` ways instead,
every seat alike: each seat takes the die worth most to it (what the die adds
to its own score this round and in the rounds left, ``worth.SeatWorth``: the
bot's ``own_value``, on the first ``WORTH_FUTURES`` futures) plus a taste of
its own for that die in that variant, drawn once from 0 to ``NOISE`` points
(players are good, not clairvoyant). A taste belongs to a die, not to a moment,
so every candidate meets the same players in a variant: where two candidates
leave the same dice, the players take the same ones. The futures are split
among the variants and every candidate meets the same variants and futures:
common luck throughout.

A player holding a beer die shares it and takes two dice, giving the die to the
rival with the lowest total (the bot's own play-out leaves the giving out; here
the die leaves its giver and counts for its receiver, rerolled, in every round
left, so a beer die is worth the extra pick less the die).

The move itself is fixed: a take is that die, a beer share is that die given
away. What the mover does next in the same turn (the second pick after a beer,
the two picks a share buys) is part of the play-out, by worth and taste like
every other pick: a near tie between two follow-ups must not flip a
candidate's value for every variant at once. The tastes are drawn with integer
arithmetic and scaled by a power of two, so they are the same on every machine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from core.bots.montecarlo import MonteCarloBot
from core.bots.multi_value import Future, Gains
from core.bots.valuation.later import LaterRounds
from core.bots.valuation.worth import SeatWorth
from core.commands import Command, ShareBeer, TakeDie
from core.dice import BEER, DIE_COUNT
from core.mountain import Mountain, remove, side_slots, slide_run, top_slots
from core.projections.state import GameState
from core.rng import DiceRng

#: Play-outs of the rest of the round per candidate (the futures are split among them).
VARIANTS = 64
#: Futures each seat's valuation of the mountain's dice is read on.
WORTH_FUTURES = 128
#: The largest taste a player has for a die, in points of its valuation (a value that
#: keeps the tastes exact: 6 / 2**21 is 3 / 2**20).
NOISE = 6.0
_TASTE_BITS = 21  # three tastes per 64-bit word

Worth = Callable[[int], float]
#: A taste per die, per seat: ``tastes[seat][die]``.
Tastes = list[list[float]]
#: Which of a candidate's play-outs, one per answer of the next seat (each future's final
#: totals), the next seat would choose: its index.
Answer = Callable[[list[list]], int]
#: Values the futures of one variant: (futures, gains, beers passed, the mover's shared
#: beer die, to whom) -> each future's final totals.
Weigh = Callable[..., list]


def tastes(rng: DiceRng, seats: int) -> Tastes:
    """Each seat's taste for each die in one variant, from 0 to ``NOISE`` points."""
    scale = NOISE / (1 << _TASTE_BITS)
    mask = (1 << _TASTE_BITS) - 1
    found = []
    for _ in range(seats):
        row: list[float] = []
        while len(row) < DIE_COUNT:
            word = rng.next_u64()
            for _ in range(3):
                row.append((word & mask) * scale)
                word >>= _TASTE_BITS
        found.append(row[:DIE_COUNT])
    return found


def seat_worths(
    bot: MonteCarloBot,
    state: GameState,
    futures: Sequence[Future],
    later: LaterRounds | None = None,
) -> list[Worth]:
    """Per seat: what a mountain die adds to that seat's own value (``worth.SeatWorth``),
    with ``later``'s bonus for the die where given."""
    some = futures[:WORTH_FUTURES]
    return [SeatWorth(state, seat, some, bot.magic_weight, later) for seat in range(state.players)]


def play_out(
    state: GameState,
    seat: int,
    mountain: Mountain,
    picks: list[int],
    worths: Sequence[Worth],
    taste: Tastes,
    give: int | None = None,
    more: int = 0,
    reply: int | None = None,
) -> tuple[Gains, list[tuple[int, int, int]]]:
    """One way the rest of the excavation may go after ``seat`` took ``picks`` (and
    ``more`` dice still, top or side, this turn): each seat takes the die with the
    highest worth plus taste (the lowest slot on a tie). With ``reply`` the next
    seat's first pick is instead its ``reply``-th best die by worth alone (0 the
    best): one of the answers a 2-ply search weighs (``excavation_candidates``).

    A player holding a beer-faced die shares it at the start of its turn and takes
    two dice, top or side. The die goes to the rival with the lowest total (the
    next one clockwise on a tie): the least dangerous one to give a die to.
    Returns the dice each seat takes and the beers shared, as (die, from, to).
    """
    n, faces = state.players, state.faces
    totals = state.totals() if state.round_scores else (0,) * n
    gains: Gains = {s: [] for s in range(n)}
    gains[seat] = list(picks)
    beers = [[d for d in state.troves[s] if faces[d] == BEER and d != give] for s in range(n)]
    beers[seat] += [d for d in picks if faces[d] == BEER]
    passed: list[tuple[int, int, int]] = []
    turn, first = seat, True
    answer = (seat + 1) % n if reply is not None else None
    while any(d is not None for d in mountain):
        if first:  # the rest of the mover's own turn
            shared, count, first = True, more, False
        else:
            shared = bool(beers[turn])
            count = 2 if shared else 1
            if shared:
                to = min(
                    (s for s in range(n) if s != turn), key=lambda s: (totals[s], (s - turn) % n)
                )
                passed.append((beers[turn].pop(0), turn, to))
        worth, mine = worths[turn], taste[turn]
        for _ in range(count):
            slots = top_slots(mountain) + (side_slots(mountain) if shared else ())
            if not slots:
                break
            if turn == answer:
                ranked = sorted(slots, key=lambda k: (-worth(mountain[k]), k))
                k, answer = ranked[min(reply or 0, len(ranked) - 1)], None
            else:
                k = max(slots, key=lambda k: (worth(mountain[k]) + mine[mountain[k]], -k))
            die = mountain[k]
            gains[turn].append(die)
            if faces[die] == BEER:
                beers[turn].append(die)
            mountain = remove(mountain, k, slide_run(mountain, k))
        turn = (turn + 1) % n
    return gains, passed


def excavation_candidates(
    state: GameState,
    seat: int,
    legal: Sequence[Command],
    futures: Sequence[Future],
    worths: Sequence[Worth],
    variants: Sequence[Tastes],
    weigh: Weigh,
    replies: int = 0,
    answer: Answer | None = None,
) -> list[tuple[list, Command]]:
    """Every take and beer share with the finals of its play-outs: ``weigh(futures,
    gains, passed, give, to)`` gives each future's final totals; ``variants`` the tastes.

    With ``replies`` (a 2-ply search), each candidate is played out ``replies`` times,
    the next seat's first pick forced to its best, second best ... die by worth
    (``play_out``'s ``reply``), and ``answer`` picks which of those finals the
    candidate gets: the next seat's answer to the move (its best by the valuation)."""
    groups = [futures[k :: len(variants)] for k in range(len(variants))]

    def ways(mountain, picks, give=None, more=0, reply=None) -> list:
        return [
            play_out(state, seat, mountain, picks, worths, t, give, more, reply) for t in variants
        ]

    def finals(ways_out: list, give=None, to=None) -> list:
        found = []
        for group, (gains, passed) in zip(groups, ways_out, strict=True):
            found += weigh(group, gains, passed, give, to)
        return found

    def answered(played: Callable[[int | None], list], give=None, to=None) -> list:
        if not replies:
            return finals(played(None), give, to)
        options = [finals(played(j), give, to) for j in range(replies)]
        assert answer is not None, "a 2-ply search says how the next seat answers"
        return options[answer(options)]

    found: list[tuple[list, Command]] = []
    for command in legal:
        if isinstance(command, TakeDie):
            k = state.mountain.index(command.die)
            mountain = remove(state.mountain, k, slide_run(state.mountain, k))
            more = 1 if state.picks_left > 1 else 0  # the beer's second pick

            def took(reply, mountain=mountain, die=command.die, more=more) -> list:
                return ways(mountain, [die], more=more, reply=reply)

            found.append((answered(took), command))
    shared: dict[tuple[int, int | None], list] = {}  # the play-outs depend on the die, not whom
    for command in legal:
        if isinstance(command, ShareBeer):

            def gave(reply, die=command.die) -> list:
                if (die, reply) not in shared:
                    shared[die, reply] = ways(state.mountain, [], die, more=2, reply=reply)
                return shared[die, reply]

            found.append((answered(gave, command.die, command.to_seat), command))
    return found


__all__ = [
    "NOISE",
    "VARIANTS",
    "WORTH_FUTURES",
    "excavation_candidates",
    "play_out",
    "seat_worths",
    "tastes",
]
