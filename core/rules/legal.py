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
carried out (``tests/core/test_rules_legal.py`` checks both directions).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from math import comb

from core.commands import (
    Command,
)
from core.projections.state import PREGAME, GameState

#: Each mode's legal commands as groups, handed over by ``core.rules.register_mode``: the
#: multiplayer game's (``core.modes.multiplayer.legal``) and the solo game's (through
#: ``listed``: its lists are short).
MODE_LEGAL: dict[str, Callable[[GameState], list[Group]]] = {}


class Group:
    """A run of legal commands: how many (counted only when asked), the i-th, and all in
    order (``fetch(i) for i in range(count())`` unless a faster walk is given).

    A plain class with slots: a bot builds a few for every decision it makes."""

    __slots__ = ("count", "fetch", "walk")

    def __init__(
        self,
        count: Callable[[], int],
        fetch: Callable[[int], Command],
        walk: Callable[[], Iterator[Command]] | None = None,
    ) -> None:
        self.count = count
        self.fetch = fetch
        self.walk = walk

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
    return lambda state: listed_group(tuple(generate(state)))


def _groups(state: GameState) -> list[Group]:
    if state is PREGAME or state.is_over:
        return []
    return MODE_LEGAL[state.mode](state)


def listed_group(commands: tuple[Command, ...]) -> list[Group]:
    """A few commands built already, as one group (none if there are none)."""
    return [Group(commands.__len__, commands.__getitem__)] if commands else []


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


__all__ = [
    "MODE_LEGAL",
    "Group",
    "LegalList",
    "count_legal",
    "legal_commands",
    "listed",
    "listed_group",
    "unrank_combination",
]
