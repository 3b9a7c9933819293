"""The mountain's geometry: slots, which dice can be taken, and the sliding rule.

rule D2: 20 slots in a sloped pyramid of rows 6, 5, 4, 3, 2 from the bottom.
Slot ``(r, i)`` has row ``r`` = 0 (bottom) .. 4 (top) and ``i`` = 0 .. 5 - r. A
die at ``(r, i)`` rests on ``(r-1, i)`` and ``(r-1, i+1)``; its upper
neighbours are ``(r+1, i-1)`` and ``(r+1, i)`` where those slots exist.

A mountain is a tuple of 20 entries (die id or ``None``) in slot order: bottom
row left to right, then the next row up. Every function here is pure.
"""

from __future__ import annotations

from operator import is_
from typing import Final

ROWS: Final = 5
ROW_LENGTHS: Final = (6, 5, 4, 3, 2)  # rule D2
SLOT_COUNT: Final = sum(ROW_LENGTHS)

#: ``SLOTS[k]`` is the ``(row, col)`` of slot index ``k``, in filling order.
SLOTS: Final[tuple[tuple[int, int], ...]] = tuple(
    (r, i) for r, n in enumerate(ROW_LENGTHS) for i in range(n)
)
_INDEX: Final[dict[tuple[int, int], int]] = {rc: k for k, rc in enumerate(SLOTS)}

Mountain = tuple  # tuple[int | None, ...] of length SLOT_COUNT

EMPTY: Final[Mountain] = (None,) * SLOT_COUNT


def slot_index(row: int, col: int) -> int | None:
    """The index of slot ``(row, col)``, or ``None`` if there is no such slot."""
    return _INDEX.get((row, col))


def slot_at(row: int, col: int) -> int:
    """The index of slot ``(row, col)``; a ValueError naming it if there is no such slot
    (an event of a damaged or forged log may name one)."""
    k = _INDEX.get((row, col))
    if k is None:
        raise ValueError(f"there is no slot at row {row}, column {col}")
    return k


def _upper(k: int) -> tuple[int | None, int | None]:
    r, i = SLOTS[k]
    return slot_index(r + 1, i - 1), slot_index(r + 1, i)


def _lower(k: int) -> tuple[int, int] | None:
    r, i = SLOTS[k]
    if r == 0:
        return None
    return _INDEX[(r - 1, i)], _INDEX[(r - 1, i + 1)]


#: Upper neighbours (left, right) of each slot, ``None`` where no slot exists.
UPPER: Final = tuple(_upper(k) for k in range(SLOT_COUNT))
#: The two slots each slot rests on, ``None`` for the bottom row.
LOWER: Final = tuple(_lower(k) for k in range(SLOT_COUNT))


#: The upper neighbours that exist, per slot (UPPER without the ``None``s).
ABOVE: Final = tuple(tuple(u for u in pair if u is not None) for pair in UPPER)


def covering(mountain: Mountain, k: int) -> tuple[int, ...]:
    """The dice resting on slot ``k`` (0, 1 or 2 of them)."""
    return tuple([mountain[u] for u in ABOVE[k] if mountain[u] is not None])


def is_top(mountain: Mountain, k: int) -> bool:
    """A die with neither upper neighbour occupied: a normal pick may take it."""
    if mountain[k] is None:
        return False
    for u in ABOVE[k]:  # noqa: SIM110  (a loop, not all(generator): this is a hot path)
        if mountain[u] is not None:
            return False
    return True


def is_side(mountain: Mountain, k: int) -> bool:
    """A die with exactly one upper neighbour occupied: only after a shared beer."""
    return mountain[k] is not None and len(covering(mountain, k)) == 1


def top_slots(mountain: Mountain) -> tuple[int, ...]:
    """Indices of every top die, in slot order."""
    return _shape(mountain)[0]


def side_slots(mountain: Mountain) -> tuple[int, ...]:
    """Indices of every side die, in slot order."""
    return _shape(mountain)[1]


def is_bare(mountain: Mountain) -> bool:
    """True if no die is left on the mountain."""
    return mountain.count(None) == SLOT_COUNT


# Which slots are top or side dice depends only on which slots are occupied, and a
# game meets few such patterns, so each pattern's answer is worked out once and kept.
_NONES: Final = (None,) * SLOT_COUNT
_SHAPES: dict[tuple[bool, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}
_SHAPES_KEPT: Final = 1 << 16  # far more than games reach; a bound, not a tuning


def _shape(mountain: Mountain) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(top slots, side slots)`` of a mountain, from its pattern of empty slots."""
    empty = tuple(map(is_, mountain, _NONES))
    found = _SHAPES.get(empty)
    if found is None:
        if len(_SHAPES) >= _SHAPES_KEPT:
            _SHAPES.clear()
        top, side = [], []
        for k in range(SLOT_COUNT):
            if not empty[k]:
                covered = sum(not empty[u] for u in ABOVE[k])
                if covered == 0:
                    top.append(k)
                elif covered == 1:
                    side.append(k)
        found = _SHAPES[empty] = (tuple(top), tuple(side))
    return found


def where(mountain: Mountain, die: int) -> int | None:
    """The slot index holding ``die``, or ``None`` if it is not on the mountain."""
    try:
        return mountain.index(die)
    except ValueError:
        return None


def dice_on(mountain: Mountain) -> tuple[int, ...]:
    """The dice on the mountain, in slot order."""
    return tuple([d for d in mountain if d is not None])


def slide_run(mountain: Mountain, k: int) -> tuple[tuple[int, int], ...]:
    """The moves ``(die, new slot)`` that taking the die at slot ``k`` causes (rule D3).

    A top die causes none. For a side die, the diagonal run resting on its covered
    side slides down one step into the hole, stopping at the first empty slot.
    """
    left, right = UPPER[k]
    if right is not None and mountain[right] is not None:
        step = (1, 0)  # (r+1, i), (r+2, i), ...
    elif left is not None and mountain[left] is not None:
        step = (1, -1)  # (r+1, i-1), (r+2, i-2), ...
    else:
        return ()
    moves = []
    r, i = SLOTS[k]
    target = k
    while True:
        r, i = r + step[0], i + step[1]
        source = slot_index(r, i)
        if source is None or mountain[source] is None:
            break
        moves.append((mountain[source], target))
        target = source
    return tuple(moves)


def remove(mountain: Mountain, k: int, moves: tuple[tuple[int, int], ...] = ()) -> Mountain:
    """The mountain after the die at ``k`` leaves and ``moves`` slide into place."""
    slots = list(mountain)
    slots[k] = None
    for die, target in moves:
        slots[slots.index(die)] = None
        slots[target] = die
    return tuple(slots)


def fillable_slots(mountain: Mountain) -> list[int]:
    """Empty slots in filling order whose support is (or will be) complete.

    Filling goes bottom row first, left to right; a slot is filled only when both
    dice under it are present, counting those placed earlier in the same filling.
    """
    occupied = [d is not None for d in mountain]
    order = []
    for k in range(SLOT_COUNT):
        if occupied[k]:
            continue
        below = LOWER[k]
        if below is None or (occupied[below[0]] and occupied[below[1]]):
            occupied[k] = True
            order.append(k)
    return order


def label(k: int) -> str:
    """A slot's coordinates as text, ``"(row, col)"``."""
    r, i = SLOTS[k]
    return f"({r}, {i})"
