"""The expert's solo game: many candidates, each played to the end on many imagined refills.

``montecarlo`` (``core.bots.solo_search``) plays out greedy's 4 best candidates on
8 sampled futures and gains about one point a game over greedy: most decisions
it never weighs (a spend on other dice, a hazard kept for a bigger one, an
earlier or later refill fall outside greedy's top 4), and 8 futures leave the
means too noisy to tell close candidates apart. The expert weighs up to
``WIDTH`` candidates (the refill always among them) and spends its play-outs
where they decide something: successive halving. Every candidate is played out
on the first futures; the better half (by mean, the same futures for all, so the
comparison is paired) goes on to twice as many, and so on, until ``SAMPLES``
futures judge the last few.

A future is what the refills will bring (``Future``: a draw order and faces for
the bag's dice), made from the bot's own generator: the expert never sees the
dice the game will roll. Before the next refill nothing is random and every face
is in view, so the play-outs are exact there; with no refill left one play-out
is the whole truth.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.bots.solo_eval import FREE, best_of, solo_ranked
from core.bots.solo_model import Action, SoloModel, command_of
from core.bots.solo_search import Future, head, shortlist
from core.commands import Command
from core.projections.state import GameState
from core.rng import DiceRng

#: The most candidates weighed (greedy's best first; the refill is added when legal).
WIDTH = 10
#: Futures the last candidates are judged on.
SAMPLES = 16
#: Futures every candidate is played out on first.
FIRST = 4
#: Candidates kept to the end of the halving.
FINALISTS = 2


def weigh(
    m: SoloModel, actions: Sequence[Action], rng: DiceRng, samples: int = SAMPLES
) -> list[tuple[float, int, Action]]:
    """Each candidate's mean final score over the futures it was played on, the number of
    them, and the action; successive halving decides who is played on more."""
    runs = samples if m.refills and m.bag else 1  # nothing random is left to sample
    tie_seed = rng.next_u64()
    starts = [head(m, a, tie_seed) for a in actions]
    futures = [Future(DiceRng(rng.next_u64()), m.refills) for _ in range(runs)]
    totals = [0] * len(actions)
    played = [0] * len(actions)
    alive = list(range(len(actions)))
    done, batch = 0, min(FIRST, runs)
    while True:
        for future in futures[done : done + batch]:
            for i in alive:
                totals[i] += future.finish(starts[i])
                played[i] += 1
        done += batch
        if done >= runs or len(alive) <= 1:
            break
        alive.sort(key=lambda i: -totals[i])
        alive = alive[: max(FINALISTS, len(alive) // 2)]
        batch = min(done, runs - done)  # double the futures seen
    return [(totals[i] / played[i], played[i], a) for i, a in enumerate(actions)]


def decide(
    m: SoloModel,
    found: Sequence[tuple[int, float, Action]],
    rng: DiceRng,
    width: int = WIDTH,
    samples: int = SAMPLES,
) -> Action | None:
    """The expert's action in ``m`` given greedy's ranking ``found`` (``None``: stop)."""
    if not found or found[0][0] == FREE:
        return best_of(found, rng)
    actions = shortlist(found, width)
    if len(actions) == 1:
        return actions[0]
    weighed = weigh(m, actions, rng, samples)
    most = max(n for _, n, _ in weighed)
    return best_of([(0, mean, a) for mean, n, a in weighed if n == most], rng)


def choose_expert_solo(state: GameState, legal: Sequence[Command], rng: DiceRng) -> Command:
    """The expert's solo command (stopping only when nothing else is legal)."""
    m, found = solo_ranked(state, legal)
    return command_of(decide(m, found, rng))


__all__ = ["choose_expert_solo", "decide", "weigh"]
