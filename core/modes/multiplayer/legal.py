"""The multiplayer game's legal commands, as the groups ``core.rules.legal`` walks lazily
and counts (``LegalList``): heroes to choose, dice to take and beers to share, magic
spends, caches (the mode's ``MODE.legal``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import partial
from itertools import combinations
from math import comb

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
from core.modes.multiplayer.cache import cache_capacity, chests_lent, is_legal_cache
from core.modes.multiplayer.magic import magic_sources, reroll_targets
from core.mountain import side_slots, top_slots
from core.projections.state import EXCAVATION, MAGIC, REPLENISH, SETUP, GameState
from core.rules.legal import Group, listed_group, unrank_combination


def multiplayer_groups(state: GameState) -> list[Group]:
    seat = state.to_act()
    if seat is None:
        return []
    phase = state.phase
    if phase == SETUP:
        return listed_group(tuple(ChooseHero(seat, h) for h in HERO_NAMES if h not in state.heroes))
    if phase == EXCAVATION:
        return _excavation(state, seat)
    if phase == MAGIC:
        return _magic(state, seat)
    if phase == REPLENISH:
        return _caches(state, seat)
    return []


def _excavation(state: GameState, seat: int) -> list[Group]:
    """The dice that can be taken, in slot order, then each beer to each other seat.

    Nearly every decision of a game is one of these, so only the command drawn is built.
    """
    mountain = state.mountain
    tops = top_slots(mountain)
    slots: Sequence[int] = sorted(tops + side_slots(mountain)) if state.beer_shared else tops
    groups: list[Group] = []
    if slots:
        groups.append(Group(slots.__len__, lambda i: TakeDie(seat, mountain[slots[i]])))
    if not state.beer_shared:
        faces = state.faces
        beers = [d for d in state.troves[seat] if faces[d] == BEER]
        others = [to for to in range(state.players) if to != seat]
        if beers and others:
            n = len(others)
            groups.append(
                Group(
                    lambda: len(beers) * n,
                    lambda i: ShareBeer(seat, beers[i // n], others[i % n]),
                )
            )
    return groups


def _magic(state: GameState, seat: int) -> list[Group]:
    """End the turn, then each source's target combinations (rule D6: N targets, or
    every eligible die if fewer)."""
    groups = [Group(lambda: 1, lambda _i: EndMagicTurn(seat))]
    for source in magic_sources(state, seat):
        eligible = reroll_targets(state, seat, source.die)
        k = min(source.symbols, len(eligible))

        def spend(targets: tuple[int, ...], source=source) -> Command:
            return SpendMagic(seat, targets, die=source.die, hero_face=source.hero_face)

        def fetch(i: int, eligible=eligible, k=k, spend=spend) -> Command:
            return spend(unrank_combination(eligible, k, i))

        def walk(eligible=eligible, k=k, spend=spend) -> Iterator[Command]:
            return map(spend, combinations(eligible, k))

        groups.append(Group(partial(comb, len(eligible), k), fetch, walk))
    return groups


def _caches(state: GameState, seat: int) -> list[Group]:
    """Every legal cache, smallest first, each size in combination order (rule D7).

    A cache is legal when its size is at most the chests it leaves in use, i.e. when the
    sum over its dice of (1 + the chests that die stops lending) is at most the full
    capacity. Those costs come from ``chests_lent``, as ``cache_capacity`` does, and
    ``_CacheCounter`` counts and unranks the subsets under that budget.
    """
    trove = tuple(sorted(state.troves[seat]))
    budget = cache_capacity(state, seat)
    lent = chests_lent(state, seat)
    counter = _CacheCounter(tuple([1 + lent.get(d, 0) for d in trove]))
    groups: list[Group] = []
    for size in range(min(len(trove), budget) + 1):

        def fetch(i: int, size=size) -> Command:
            return CacheDice(seat, tuple(trove[j] for j in counter.unrank(size, budget, i)))

        def walk(size=size) -> Iterator[Command]:
            for dice in combinations(trove, size):
                if is_legal_cache(state, seat, dice):
                    yield CacheDice(seat, dice)

        groups.append(Group(partial(counter.count, 0, size, budget), fetch, walk))
    return groups


class _CacheCounter:
    """Counts the ``size``-subsets (in combination order) whose costs fit a budget."""

    def __init__(self, costs: tuple[int, ...]) -> None:
        self.costs = costs
        self._memo: dict[tuple[int, int, int], int] = {}

    def count(self, start: int, size: int, budget: int) -> int:
        """Subsets of ``size`` positions from ``start`` on with total cost <= ``budget``."""
        if size == 0:
            return 1
        if budget < size or len(self.costs) - start < size:
            return 0
        key = (start, size, budget)
        found = self._memo.get(key)
        if found is None:
            cost = self.costs[start]
            found = self.count(start + 1, size, budget)
            if cost <= budget:
                found += self.count(start + 1, size - 1, budget - cost)
            self._memo[key] = found
        return found

    def unrank(self, size: int, budget: int, index: int) -> list[int]:
        """The positions of the ``index``-th such subset."""
        chosen, start = [], 0
        while size:
            for j in range(start, len(self.costs)):
                cost = self.costs[j]
                below = self.count(j + 1, size - 1, budget - cost) if cost <= budget else 0
                if index < below:
                    chosen.append(j)
                    start, size, budget = j + 1, size - 1, budget - cost
                    break
                index -= below
        return chosen


__all__ = ["multiplayer_groups"]
