"""The legal commands of the player to act: what a frontend offers and a bot chooses from.

One generator, seen two ways. ``legal_commands`` yields the commands lazily, and
``LegalList`` is the same commands in the same order as a sequence that is counted and
indexed without being built: a magic spend or a cache can be chosen in tens of thousands
of ways (every combination of dice), so a bot drawing one of them (``rng.pick(legal)``,
exactly uniform) builds only the command drawn (``legal[i]`` unranks the i-th
combination). Both walk the same groups: a run of commands with its count, its i-th
command and its commands in order.

Every command listed is accepted by ``decide``, and ``decide`` accepts no other up to the
order dice are named in: each set of spend targets, recycled dice or cached dice is
listed once, in one order, while ``decide`` takes the same set in any order it can be
carried out (``tests/test_rules_legal.py`` checks both directions).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial
from itertools import combinations
from math import comb

import attrs

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
from core.projections.state import EXCAVATION, MAGIC, PREGAME, REPLENISH, SETUP, GameState

#: Each mode's legal commands as groups (the solo game's registered by ``core.rules``,
#: through ``listed``: its lists are short).
MODE_LEGAL: dict[str, Callable[[GameState], list[Group]]] = {}


@attrs.frozen
class Group:
    """A run of legal commands: how many (counted only when asked), the i-th, and all in
    order (``fetch(i) for i in range(count())`` unless a faster walk is given)."""

    count: Callable[[], int]
    fetch: Callable[[int], Command]
    walk: Callable[[], Iterator[Command]] | None = None

    def commands(self) -> Iterator[Command]:
        if self.walk is not None:
            return self.walk()
        return map(self.fetch, range(self.count()))


def legal_commands(state: GameState) -> Iterator[Command]:
    """Every command the player to act may issue now (undo aside), in a stable order."""
    for group in _groups(state):
        yield from group.commands()


def count_legal(state: GameState) -> int:
    """How many legal commands there are (counted, not built)."""
    return sum(group.count() for group in _groups(state))


class LegalList(Sequence[Command]):
    """The legal commands of the player to act in ``state``, built on demand."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._groups = [(group.count(), group) for group in _groups(state)]
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
        for count, group in self._groups:
            if index < count:
                return group.fetch(index)
            index -= count
        raise AssertionError("unreachable: the groups' counts add up to the length")

    def __iter__(self) -> Iterator[Command]:
        for _, group in self._groups:
            yield from group.commands()

    def __bool__(self) -> bool:
        return self._len > 0

    def __repr__(self) -> str:
        return f"<LegalList of {self._len} commands>"


def listed(
    generate: Callable[[GameState], Iterator[Command]],
) -> Callable[[GameState], list[Group]]:
    """A mode's generator of a few commands, as one group (built when asked for)."""
    return lambda state: _listed(tuple(generate(state)))


def _groups(state: GameState) -> list[Group]:
    if state is PREGAME or state.is_over:
        return []
    return MODE_LEGAL[state.mode](state)


def _multiplayer(state: GameState) -> list[Group]:
    seat = state.to_act()
    if seat is None:
        return []
    phase = state.phase
    if phase == SETUP:
        return _listed(tuple(ChooseHero(seat, h) for h in HERO_NAMES if h not in state.heroes))
    if phase == EXCAVATION:
        return _excavation(state, seat)
    if phase == MAGIC:
        return _magic(state, seat)
    if phase == REPLENISH:
        return _caches(state, seat)
    return []


MODE_LEGAL["multi"] = _multiplayer


def _listed(commands: tuple[Command, ...]) -> list[Group]:
    return [Group(commands.__len__, commands.__getitem__)] if commands else []


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


__all__ = [
    "MODE_LEGAL",
    "Group",
    "LegalList",
    "count_legal",
    "legal_commands",
    "listed",
    "unrank_combination",
]
