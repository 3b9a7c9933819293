"""The Monte Carlo bot's solo game: each candidate played out to the end, many times.

Greedy values a move by a fixed estimate of what the trove may still become.
This bot instead plays the rest of the game out in its head (``SoloModel``)
with the greedy policy, from each candidate command, and keeps the candidate
whose final solo scores have the best mean over ``samples`` sampled futures.

Until a refill nothing in the solo game is random, so a future is only what
the refills will bring: which bag dice come out, in what order, showing what.
Each sample draws that once (a random rank for every die, a face for every die
and refill) and every candidate is played against the same sample, so the
comparison between candidates is sharp (common random numbers). The play-out
up to the first refill is the same in every future and is played only once;
with no refill left the game is deterministic and one play-out is exact.

To stay fast, free takes (see ``core.bots.solo_eval``) are made at once, as
greedy makes them, and only the ``candidates`` best commands by greedy's own
value are played out (with the refill, when one is legal, always among them).
All randomness comes from the bot's generator: the same game gets the same
choices, and the bot never sees the dice the game will roll.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.bots.solo_eval import FREE, best_of, greedy_action, solo_ranked
from core.bots.solo_model import DIE_FACES, Action, SoloModel, command_of
from core.commands import Command
from core.dice import DIE_COUNT
from core.projections.state import GameState
from core.rng import DiceRng

#: Limit on the actions of one play-out (a solo game needs well under 100).
MAX_STEPS = 400


class Future:
    """One sampled future: the order bag dice come out in, and their faces per refill."""

    __slots__ = ("faces", "rank", "tie_seed")

    def __init__(self, rng: DiceRng, refills: int) -> None:
        self.rank = [rng.next_u64() for _ in range(DIE_COUNT)]
        self.faces = [
            [DIE_FACES[d][rng.below(6)] for d in range(DIE_COUNT)] for _ in range(refills)
        ]
        self.tie_seed = rng.next_u64()  # greedy's tie-breaks during the play-outs

    def refill(self, m: SoloModel) -> None:
        """Refill the model's mountain as this future has it."""
        m.refill(lambda bag: sorted(bag, key=self.rank.__getitem__), self.faces[m.refills - 1])

    def finish(self, start: tuple[SoloModel, Action | None]) -> int:
        """The final score of a play-out from ``head`` on, in this future."""
        m, action = start
        return m.score if action is None else self.play_out(m.copy(), action)

    def play_out(self, m: SoloModel, action: Action | None) -> int:
        """The final score after ``action`` and the greedy policy to the end (changes ``m``)."""
        ties = DiceRng(self.tie_seed)
        for _ in range(MAX_STEPS):
            if action is None:
                return m.score
            if action[0] == "refill":
                self.refill(m)
            else:
                m.apply(action)
            action = greedy_action(m, ties)
        raise RuntimeError(f"a solo play-out did not end within {MAX_STEPS} actions")


def shortlist(found, size: int) -> list[Action]:
    """The ``size`` best actions by greedy's ranking, plus the refill if it is legal
    (greedy's rule for when to refill is the crudest part of its policy)."""
    order = sorted(found, key=lambda f: (f[0], f[1]), reverse=True)
    chosen = [a for _, _, a in order[:size]]
    chosen += [a for _, _, a in order[size:] if a[0] == "refill"]
    return chosen


def choose_by_play_outs(
    state: GameState, legal: Sequence[Command], rng: DiceRng, samples: int, candidates: int
) -> Command:
    """The candidate with the best mean final score over ``samples`` futures."""
    m, found = solo_ranked(state, legal)
    if not found or found[0][0] == FREE:
        return command_of(best_of(found, rng))
    actions = shortlist(found, candidates)
    if len(actions) == 1:
        return command_of(actions[0])
    runs = samples if m.refills and m.bag else 1  # nothing random is left to sample
    tie_seed = rng.next_u64()
    starts = [head(m, a, tie_seed) for a in actions]
    totals = [0] * len(actions)
    for _ in range(runs):
        future = Future(DiceRng(rng.next_u64()), m.refills)
        for i, start in enumerate(starts):
            totals[i] += future.finish(start)
    return command_of(best_of([(0, t, a) for t, a in zip(totals, actions, strict=True)], rng))


def head(m: SoloModel, action: Action | None, tie_seed: int) -> tuple[SoloModel, Action | None]:
    """The play-out of ``action`` up to its first refill, the same in every future:
    the model then, and the refill (or ``None`` if the game ended first)."""
    m = m.copy()
    ties = DiceRng(tie_seed)
    for _ in range(MAX_STEPS):
        if action is None or action[0] == "refill":
            return m, action
        m.apply(action)
        action = greedy_action(m, ties)
    raise RuntimeError(f"a solo play-out did not end within {MAX_STEPS} actions")


def play_outs(m: SoloModel, action: Action, futures: list[Future], tie_seed: int) -> list[int]:
    """The final score of ``action`` then the greedy policy, in each future."""
    start = head(m, action, tie_seed)
    return [future.finish(start) for future in futures]


__all__ = ["Future", "choose_by_play_outs", "head", "play_outs", "shortlist"]
