"""A solo decision weighed as the expert bot weighs it: the expected final score.

The candidates are the expert's (``core.bots.expert_solo``): the first free take
if there is one (a take that costs nothing and leaves no choice), then the best
ten other moves by greedy's own ranking, the refill whenever it is legal, and
always the move played. Each is played out to the end of the game with the
greedy policy in the solo model, over sampled futures of what the refills will
bring (which bag dice come out, showing what), the same futures for every
candidate (all of them: the expert halves the field to save time, a review does
not); its value is the mean final score. Stopping is worth the score as it
stands, exactly. With no refill left nothing is random and one play-out is exact.
"""

from __future__ import annotations

from core.bots import LegalList
from core.bots.solo_eval import is_free, ranked, solo_actions
from core.bots.solo_model import Action, action_of, command_of
from core.bots.solo_search import Future, head, shortlist
from core.bots.valuation.verdict import Judgement, Valued, judgement, same_move
from core.commands import Command
from core.projections.state import GameState
from core.rng import DiceRng


def judge_solo(
    state: GameState, played: Command | None, rng: DiceRng, samples: int, size: int
) -> Judgement:
    """The candidates at ``state`` (and the ``played`` move) valued on ``samples`` futures;
    ``size`` is how many of greedy's best moves are weighed besides the free take."""
    legal = LegalList(state)
    m, actions = solo_actions(state, legal)
    free = [a for a in actions if is_free(m, a)]
    rest = ranked(m, [a for a in actions if not is_free(m, a)])
    chosen: list[Action | None] = [*free[:1], *shortlist(rest, size)]
    commands = [command_of(a) for a in chosen]
    if played is not None and not any(same_move(c, played) for c in commands):
        chosen.append(action_of(played, m))  # None: stopping
        commands.append(played)
    runs = samples if m.refills and m.bag else 1  # nothing random is left to sample
    tie_seed = rng.next_u64()
    starts = [None if a is None else head(m, a, tie_seed) for a in chosen]
    totals = [0] * len(chosen)
    for _ in range(runs):
        future = Future(DiceRng(rng.next_u64()), m.refills)
        for i, start in enumerate(starts):
            totals[i] += m.score if start is None else future.finish(start)
    found = []
    for command, total in zip(commands, totals, strict=True):
        value = total / runs
        found.append(Valued(command, value, value, (value,)))
    return judgement(len(legal), found, played)


__all__ = ["judge_solo"]
