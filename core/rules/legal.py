"""The legal commands of the player to act: what a frontend offers and a bot chooses from.

Commands are generated lazily: a magic spend or a cache can be chosen in many
ways (every combination of dice), so callers that need only a few, or only a
count, need not build them all. Every command yielded here is accepted by
``decide``, and ``decide`` accepts no other up to the order dice are named in:
each set of spend targets, recycled dice or cached dice is listed once, in one
order, while ``decide`` takes the same set in any order it can be carried out
(``tests/core/test_rules_legal.py`` checks both directions).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations

from core.commands import (
    CacheDice,
    ChooseHero,
    Command,
    EndMagicTurn,
    ShareBeer,
    SpendMagic,
    TakeDie,
)
from core.dice import BEER, HERO_NAMES
from core.mountain import side_slots, top_slots
from core.projections.state import EXCAVATION, MAGIC, PREGAME, REPLENISH, SETUP, GameState
from core.rules.cache import cache_capacity, is_legal_cache
from core.rules.magic import magic_sources, reroll_targets, targets_needed

#: Legal-command generators per mode (the solo game registers its own).
MODE_LEGAL: dict[str, Callable[[GameState], Iterator[Command]]] = {}


def legal_commands(state: GameState) -> Iterator[Command]:
    """Every command the player to act may issue now (undo aside), in a stable order."""
    if state is PREGAME or state.is_over:
        return iter(())
    return MODE_LEGAL[state.mode](state)


def _multiplayer(state: GameState) -> Iterator[Command]:
    seat = state.to_act()
    if seat is None:
        return
    if state.phase == SETUP:
        for hero in HERO_NAMES:
            if hero not in state.heroes:
                yield ChooseHero(seat, hero)
    elif state.phase == EXCAVATION:
        yield from _excavation(state, seat)
    elif state.phase == MAGIC:
        yield from _magic(state, seat)
    elif state.phase == REPLENISH:
        yield from _caches(state, seat)


MODE_LEGAL["multi"] = _multiplayer


def _excavation(state: GameState, seat: int) -> Iterator[Command]:
    mountain = state.mountain
    tops = top_slots(mountain)
    slots = sorted(tops + side_slots(mountain)) if state.beer_shared else tops
    for k in slots:
        yield TakeDie(seat, mountain[k])
    if not state.beer_shared:
        for die in state.troves[seat]:
            if state.faces[die] == BEER:
                for to in range(state.players):
                    if to != seat:
                        yield ShareBeer(seat, die, to)


def _magic(state: GameState, seat: int) -> Iterator[Command]:
    yield EndMagicTurn(seat)
    for source in magic_sources(state, seat):
        eligible = reroll_targets(state, seat, source.die)
        for targets in combinations(eligible, targets_needed(state, seat, source)):
            yield SpendMagic(seat, targets, die=source.die, hero_face=source.hero_face)


def _caches(state: GameState, seat: int) -> Iterator[Command]:
    """Every legal cache, smallest first (rule D7 bounds their size)."""
    trove = tuple(sorted(state.troves[seat]))
    most = min(len(trove), cache_capacity(state, seat))
    for size in range(most + 1):
        for dice in combinations(trove, size):
            if is_legal_cache(state, seat, dice):
                yield CacheDice(seat, dice)


def count_legal(state: GameState) -> int:
    """How many legal commands there are (generated, not built into a list)."""
    return sum(1 for _ in legal_commands(state))


__all__ = ["MODE_LEGAL", "count_legal", "legal_commands"]
