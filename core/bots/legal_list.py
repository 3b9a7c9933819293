"""The legal commands as a lazy sequence: counted and indexed without being built.

A magic spend or a cache can be chosen in tens of thousands of ways, so building
the whole list for every decision would dominate a simulation. ``LegalList``
has the same commands in the same order as ``core.rules.legal.legal_commands``,
but counts the combinatorial groups and builds only the command asked for
(``legal[i]`` unranks the i-th combination). A bot sees exactly the list a
frontend sees, and ``rng.pick(legal)`` stays exactly uniform.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from math import comb

from core.commands import CacheDice, Command, EndMagicTurn, ShareBeer, SpendMagic, TakeDie
from core.dice import BEER
from core.mountain import side_slots, top_slots
from core.projections.state import EXCAVATION, MAGIC, REPLENISH, GameState
from core.rules.cache import cache_capacity, chests_lent
from core.rules.legal import legal_commands
from core.rules.magic import magic_sources, reroll_targets

#: A run of commands in the list: how many there are, and the i-th of them.
Group = tuple[int, Callable[[int], Command]]


def unrank_combination(items: Sequence, k: int, index: int) -> tuple:
    """The ``index``-th k-combination of ``items`` in ``itertools.combinations`` order."""
    chosen, start, n = [], 0, len(items)
    while k:
        for j in range(start, n):
            below = comb(n - j - 1, k - 1)  # combinations whose next item is items[j]
            if index < below:
                chosen.append(items[j])
                start, k = j + 1, k - 1
                break
            index -= below
    return tuple(chosen)


class LegalList(Sequence[Command]):
    """The legal commands of the player to act in ``state``, built on demand."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._groups = _groups(state)
        self._len = sum([count for count, _ in self._groups])

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("legal command index out of range")
        for count, fetch in self._groups:
            if index < count:
                return fetch(index)
            index -= count
        raise AssertionError("unreachable: the groups' counts add up to the length")

    def __iter__(self) -> Iterator[Command]:
        return iter(legal_commands(self.state))

    def __bool__(self) -> bool:
        return self._len > 0

    def __repr__(self) -> str:
        return f"<LegalList of {self._len} commands>"


def _groups(state: GameState) -> list[Group]:
    seat = state.to_act() if not state.is_over else None
    if seat is not None and state.mode == "multi":
        phase = state.phase
        if phase == EXCAVATION:
            return _excavation_groups(state, seat)
        if phase == MAGIC:
            return _magic_groups(state, seat)
        if phase == REPLENISH:
            return _cache_groups(state, seat)
    listed = tuple(legal_commands(state))  # short lists: heroes, solo moves
    return [(len(listed), listed.__getitem__)] if listed else []


def _excavation_groups(state: GameState, seat: int) -> list[Group]:
    """The dice that can be taken, in slot order, then each beer to each other seat.

    Nearly every decision of a game is one of these, so only the command drawn is built.
    """
    mountain = state.mountain
    tops = top_slots(mountain)
    slots: Sequence[int] = sorted(tops + side_slots(mountain)) if state.beer_shared else tops
    groups: list[Group] = []
    if slots:
        groups.append((len(slots), lambda i: TakeDie(seat, mountain[slots[i]])))
    if not state.beer_shared:
        faces = state.faces
        beers = [d for d in state.troves[seat] if faces[d] == BEER]
        others = [to for to in range(state.players) if to != seat]
        if beers and others:
            n = len(others)
            groups.append((len(beers) * n, lambda i: ShareBeer(seat, beers[i // n], others[i % n])))
    return groups


def _magic_groups(state: GameState, seat: int) -> list[Group]:
    """End the turn, then each source's target combinations (the order legal.py yields)."""
    groups: list[Group] = [(1, lambda _i: EndMagicTurn(seat))]
    for source in magic_sources(state, seat):
        eligible = reroll_targets(state, seat, source.die)
        k = min(source.symbols, len(eligible))  # targets_needed, without listing them again

        def fetch(i, eligible=eligible, k=k, source=source):
            targets = unrank_combination(eligible, k, i)
            return SpendMagic(seat, targets, die=source.die, hero_face=source.hero_face)

        groups.append((comb(len(eligible), k), fetch))
    return groups


def _cache_groups(state: GameState, seat: int) -> list[Group]:
    """Every legal cache, smallest first, each size in combination order (rule D7).

    A cache is legal when its size is at most the chests it leaves in use, i.e.
    when the sum over its dice of (1 + the chests that die stops lending) is at
    most the full capacity. Those costs come from ``chests_lent``, as
    ``cache_capacity`` does, and ``_CacheCounter`` counts and unranks the subsets
    under that budget.
    """
    trove = tuple(sorted(state.troves[seat]))
    budget = cache_capacity(state, seat)
    lent = chests_lent(state, seat)
    costs = tuple([1 + lent.get(d, 0) for d in trove])
    counter = _CacheCounter(costs)
    groups: list[Group] = []
    for size in range(min(len(trove), budget) + 1):
        count = counter.count(0, size, budget)
        if count:

            def fetch(i, size=size):
                return CacheDice(seat, tuple(trove[j] for j in counter.unrank(size, budget, i)))

            groups.append((count, fetch))
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


__all__ = ["LegalList", "unrank_combination"]
