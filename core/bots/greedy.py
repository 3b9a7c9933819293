"""The greedy bot: the command that most improves its own projected score, right now.

"Projected score" is the round score the bot's trove would get if the round were
scored at once (``core.bots.evaluate``). Each command is valued as follows:

* take a die: the projected score with that die added;
* share a beer: the best projected score reachable with the two picks it buys
  (the beer die itself scores nothing, so giving it away costs nothing now);
* spend magic: the projected score plus the expected gain of rerolling each
  chosen die, summed over the best dice for that source (each die's gain is
  exact; adding them treats the rerolls as independent); ending the turn adds 0;
* cache: the projected score plus the expected loss each kept die avoids (the
  dice worth more as they are than rerolled), as many as the chests allow
  without caching a chest die;
* anything else (choosing a hero, solo moves): the projected score after it.

Ties between equally good commands are broken by the bot's generator, which is
derived from the game's seed, so the same game always gets the same choices.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.bots.base import seat_to_act
from core.bots.evaluate import best_pair, projected_score, reroll_gains, take_gains
from core.bots.solo_eval import choose_solo
from core.commands import CacheDice, Command, EndMagicTurn, ShareBeer, SpendMagic, TakeDie
from core.modes.multiplayer.cache import cache_capacity
from core.modes.multiplayer.magic import magic_sources, reroll_targets, targets_needed
from core.projections.state import EXCAVATION, MAGIC, REPLENISH, GameState
from core.rng import DiceRng
from core.rules import resolve

Candidate = tuple[float, Command]

#: Largest legal list the generic path evaluates command by command.
_GENERIC_LIMIT = 400


def pick_best(candidates: Sequence[Candidate], rng: DiceRng) -> Command:
    """The command with the highest value; equal values are broken by ``rng``."""
    best = max(value for value, _ in candidates)
    tied = [command for value, command in candidates if value >= best - 1e-9]
    return tied[0] if len(tied) == 1 else rng.pick(tied)


def shuffled_by_gain(gains: dict[int, float], rng: DiceRng, reverse: bool = True) -> list[int]:
    """Dice ordered by gain (highest first), equal gains in an order drawn from ``rng``."""
    dice = sorted(gains)
    keys = {d: rng.next_u64() for d in dice}
    sign = -1 if reverse else 1
    return sorted(dice, key=lambda d: (sign * gains[d], keys[d]))


class GreedyBot:
    """Plays the command with the best immediate projected score."""

    name = "greedy"

    def choose(self, state: GameState, legal: Sequence[Command], rng: DiceRng) -> Command:
        if state.mode == "solo":
            return choose_solo(state, legal, rng)  # its own valuation: core.bots.solo_eval
        return pick_best(self.candidates(state, legal, rng), rng)

    def candidates(self, state: GameState, legal: Sequence[Command], rng: DiceRng):
        """Every command worth considering, with its value."""
        seat = seat_to_act(state)
        if state.mode == "multi" and state.phase == EXCAVATION:
            return excavation_candidates(state, seat, legal)
        if state.mode == "multi" and state.phase == MAGIC:
            return magic_candidates(state, seat, rng)
        if state.mode == "multi" and state.phase == REPLENISH:
            return [cache_candidate(state, seat, rng)]
        return generic_candidates(state, seat, legal, rng)


def excavation_candidates(state: GameState, seat: int, legal: Sequence[Command]):
    """Takes valued by the trove they make; every beer share by the best two picks."""
    takes = take_gains(state, seat, (c.die for c in legal if isinstance(c, TakeDie)))
    shares = [c for c in legal if isinstance(c, ShareBeer)]
    found: list[Candidate] = [(takes[c.die], c) for c in legal if isinstance(c, TakeDie)]
    if shares:
        beer = shares[0].die  # every beer die leaves the same faces behind
        faces = list(state.trove_faces(seat))
        faces.remove(state.face(beer))
        value = best_pair(state, seat, faces)
        found += [(value, c) for c in shares]
    return found


def magic_candidates(state: GameState, seat: int, rng: DiceRng) -> list[Candidate]:
    """Ending the turn, or per magic source the dice whose reroll gains the most."""
    now = projected_score(state, seat)
    found: list[Candidate] = [(now, EndMagicTurn(seat))]
    for source in magic_sources(state, seat):
        eligible = reroll_targets(state, seat, source.die)
        k = targets_needed(state, seat, source)
        gains = reroll_gains(state, seat, eligible)
        chosen = set(shuffled_by_gain(gains, rng)[:k])
        targets = tuple(d for d in eligible if d in chosen)  # the order legal.py lists them
        value = now + sum(gains[d] for d in targets)
        found.append((value, SpendMagic(seat, targets, die=source.die, hero_face=source.hero_face)))
    return found


def cache_candidate(state: GameState, seat: int, rng: DiceRng) -> tuple[float, CacheDice]:
    """Keep the dice that would lose most by a reroll, up to the chests' capacity (rule D7).

    Chest dice are never cached: a cached chest die would stop lending its chests.
    """
    room = cache_capacity(state, seat)
    keepable = [d for d in state.troves[seat] if cache_capacity(state, seat, (d,)) == room]
    losses = {d: -g for d, g in reroll_gains(state, seat, keepable).items()}
    kept = [d for d in shuffled_by_gain(losses, rng) if losses[d] > 0][:room]
    value = projected_score(state, seat) + sum(losses[d] for d in kept)
    return value, CacheDice(seat, tuple(sorted(kept)))


def generic_candidates(
    state: GameState, seat: int, legal: Sequence[Command], rng: DiceRng
) -> list[Candidate]:
    """Each command valued by the projected score of the state it leads to.

    The dice a command rolls here come from the bot's own generator, never the
    game's: the bot cannot peek at the real outcome.
    """
    if len(legal) > _GENERIC_LIMIT:
        return [(0.0, rng.pick(legal))]
    found: list[Candidate] = []
    for command in legal:
        _, after = resolve(state, command, DiceRng(rng.next_u64(), 0))
        found.append((projected_score(after, seat), command))
    return found


__all__ = ["GreedyBot", "pick_best", "shuffled_by_gain"]
