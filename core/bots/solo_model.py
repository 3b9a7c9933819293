"""A compact, mutable model of a solo game, for bots to think with.

The solo bots try out thousands of imagined moves per decision, far too many for
``core.rules.resolve`` and the immutable ``GameState``. ``SoloModel`` keeps only
what the solo rules (RULES.md section 4) and the score need: the mountain, the
faces, the bag, how many tunnel sequences end in each number, the unassigned
pickaxes and shields, the free chest places, the spendable magic dice, the
score and the refills left. It applies takes, spends and refills the way
``core.modes.solo.rules`` does (the tests check both agree on the legal moves and the
score), and it never touches the game: a bot still issues a command from the
legal list.

Actions are plain tuples naming dice, not slots:

* ``("take", die, face, freeze, wild)``: ``face`` is the face it is taken as;
* ``("spend", die, targets)``: the targets in an order they can leave;
* ``("refill",)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from core.commands import Command, EndSolo, Refill, SpendMagic, TakeDie
from core.dice import (
    ALL_FACES,
    BEER,
    COUNTS,
    FACES,
    KIND_OF,
    cave_ins,
    chests,
    gems,
    hazard_symbols,
    magic_symbols,
    tunnel_value,
)
from core.modes.solo.scoring import SEQUENCE_POINTS, solo_score
from core.mountain import LOWER, SLOT_COUNT, UPPER
from core.projections.state import GameState

Action = tuple
SEAT = 0  # the solo player's seat

KINDS = tuple(COUNTS)  # tunnel, treasure, hazard, tool, magic
KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}
#: The kind index of each die.
DIE_KIND = tuple(KIND_INDEX[k] for k in KIND_OF)
TUNNEL, TREASURE, HAZARD, TOOL, MAGIC = range(5)

TVAL = {f: tunnel_value(f) for f in ALL_FACES}
GEMS = {f: gems(f) for f in ALL_FACES}
HAZ = {f: hazard_symbols(f) for f in ALL_FACES}
CAVE = {f: cave_ins(f) > 0 for f in ALL_FACES}
CHESTS = {f: chests(f) for f in ALL_FACES}
SYMBOLS = {f: magic_symbols(f) for f in ALL_FACES}
#: The faces a wild beer die of each kind may be turned to, once each (rule D9).
WILD = tuple(tuple(dict.fromkeys(f for f in FACES[k] if f != BEER)) for k in KINDS)
#: The six faces of each die, by id (a refill rolls them).
DIE_FACES = tuple(FACES[k] for k in KIND_OF)

#: Bits of the slots above each slot, and of the two it rests on (0 for the bottom row).
_ABOVE = tuple(sum(1 << u for u in pair if u is not None) for pair in UPPER)
_BELOW = tuple(sum(1 << b for b in pair) if pair else 0 for pair in LOWER)
_TOPS: dict[int, tuple[int, ...]] = {}
_FILLS: dict[int, tuple[int, ...]] = {}


def tops_of(mask: int) -> tuple[int, ...]:
    """The top slots of a mountain whose occupied slots are the bits of ``mask``.

    Every die rests on two, so a mountain only ever takes one of 428 shapes, and
    the answers are kept.
    """
    found = _TOPS.get(mask)
    if found is None:
        found = _TOPS[mask] = tuple(
            k for k in range(SLOT_COUNT) if mask >> k & 1 and not mask & _ABOVE[k]
        )
    return found


def fills_of(mask: int) -> tuple[int, ...]:
    """The empty slots a refill fills, in order (``core.mountain.fillable_slots``)."""
    found = _FILLS.get(mask)
    if found is None:
        order, full = [], mask
        for k in range(SLOT_COUNT):
            if not full >> k & 1 and full & _BELOW[k] == _BELOW[k]:
                full |= 1 << k
                order.append(k)
        found = _FILLS[mask] = tuple(order)
    return found


#: What the valuation counts of the dice on the mountain: tunnels, treasures,
#: hazards showing cave-ins, dragons, or beer (-1: not counted).
ON_TUNNEL, ON_TREASURE, ON_CAVE, ON_DRAGON, ON_BEER_HAZARD = range(5)


def _category(kind: int, face: str) -> int:
    if kind == TUNNEL:
        return ON_TUNNEL
    if kind == TREASURE:
        return ON_TREASURE
    if kind == HAZARD:
        return ON_BEER_HAZARD if face == BEER else ON_CAVE if CAVE[face] else ON_DRAGON
    return -1


#: The mountain count (``ON_*``, or -1) of a die, by its kind and then its face.
_CATEGORIES = tuple({f: _category(k, f) for f in ALL_FACES} for k in range(len(KINDS)))


class SoloModel:
    """The parts of a solo game that matter to its score, in mutable form.

    ``copy`` is cheap because the lists that change rarely (the faces, the bag,
    its counts, the magic dice) are replaced, never changed in place, so copies
    share them; only the mountain and the small counters are copied.
    """

    __slots__ = (
        "bag",
        "bag_kinds",
        "ends",
        "faces",
        "magic",
        "mask",
        "mountain",
        "on",
        "picks",
        "refills",
        "room",
        "score",
        "shields",
    )

    def __init__(self) -> None:
        self.mountain: list[int | None] = [None] * SLOT_COUNT
        self.mask = 0  # bit k: slot k holds a die
        self.on = [0] * 5  # dice on the mountain per count (``ON_*``)
        self.faces: list[str | None] = [None] * len(DIE_KIND)  # kept up to date on the mountain
        self.bag: list[int] = []
        self.bag_kinds = [0] * len(KINDS)  # the bag's dice per kind
        self.ends = [0] * 6  # tunnel sequences by their last number (1 to 5)
        self.picks = 0  # unassigned pickaxes
        self.shields = 0  # unassigned shields
        self.room = 0  # free chest places for frozen treasure
        self.magic: list[tuple[int, int]] = []  # (die, symbols) of spendable magic dice, by id
        self.score = 0
        self.refills = 0

    @classmethod
    def from_state(cls, state: GameState) -> SoloModel:
        """The model of a solo game's projected state."""
        m = cls()
        faces = state.faces
        m.mountain = list(state.mountain)
        m.faces = list(faces)
        for k, die in enumerate(m.mountain):
            if die is not None:
                m.mask |= 1 << k
                m._count(die, 1)
        m.bag = list(state.bag)
        for d in m.bag:
            m.bag_kinds[DIE_KIND[d]] += 1
        for seq in state.solo.sequences:
            m.ends[TVAL[state.face(seq[-1])]] += 1
        used = {t for _, t in state.solo.neutralized}
        for d in state.troves[SEAT]:
            face = state.face(d)
            if DIE_KIND[d] == TOOL:
                m.picks += face == "pickaxe" and d not in used
                m.shields += face == "shield" and d not in used
                m.room += CHESTS[face]
            elif DIE_KIND[d] == MAGIC and SYMBOLS[face]:
                m.magic.append((d, SYMBOLS[face]))
        m.room -= len(state.solo.frozen)
        m.magic.sort()
        m.score = solo_score(state).score
        m.refills = state.solo.refills_left
        return m

    def copy(self) -> SoloModel:
        """An independent copy."""
        m = SoloModel.__new__(SoloModel)
        m.mountain = self.mountain[:]
        m.mask = self.mask
        m.on = self.on[:]
        m.ends = self.ends[:]
        m.faces, m.bag, m.bag_kinds, m.magic = self.faces, self.bag, self.bag_kinds, self.magic
        m.picks, m.shields, m.room = self.picks, self.shields, self.room
        m.score, m.refills = self.score, self.refills
        return m

    # -- what can be done --------------------------------------------------------

    def _count(self, die: int, step: int) -> None:
        face = self.faces[die]
        assert face is not None, "a die on the mountain shows a face"
        cat = _CATEGORIES[DIE_KIND[die]][face]
        if cat >= 0:
            self.on[cat] += step

    def _lift(self, die: int) -> None:
        """Die ``die`` leaves the mountain."""
        k = self.mountain.index(die)
        face = self.faces[die]
        assert face is not None, "a die on the mountain shows a face"
        cat = _CATEGORIES[DIE_KIND[die]][face]
        if cat >= 0:
            self.on[cat] -= 1
        self.mountain[k] = None
        self.mask &= ~(1 << k)

    def top_slots(self) -> tuple[int, ...]:
        """The slots of the mountain's top dice, in slot order."""
        return tops_of(self.mask)

    def fits(self, kind: int, face: str) -> bool:
        """True if a die of ``kind`` may be taken as ``face`` (freezing aside)."""
        if kind == TUNNEL:
            value = TVAL[face]
            return value == 1 or self.ends[value - 1] > 0
        if kind == HAZARD:
            return self.picks > 0 if CAVE[face] else self.shields > 0
        return True

    def takes(self) -> list[Action]:
        """Every legal take: top dice in slot order, each die's ways in the order
        ``core.modes.solo.take.take_options`` lists them."""
        found = []
        mountain, faces, fits, room = self.mountain, self.faces, self.fits, self.room
        for k in tops_of(self.mask):
            die = mountain[k]
            assert die is not None, "a top slot holds a die"
            kind, shown = DIE_KIND[die], faces[die]
            assert shown is not None, "a die on the mountain shows a face"
            wild = shown == BEER
            for face in WILD[kind] if wild else (shown,):
                if fits(kind, face):
                    found.append(("take", die, face, False, wild))
                    if kind == TREASURE and room > 0:
                        found.append(("take", die, face, True, wild))
        return found

    def blocked(self, die: int) -> bool:
        """True if die ``die`` (on the mountain) could not be taken as things stand."""
        kind, shown = DIE_KIND[die], self.faces[die]
        assert shown is not None, "a die on the mountain shows a face"
        return not any(self.fits(kind, f) for f in (WILD[kind] if shown == BEER else (shown,)))

    def recycle_sets(self, count: int) -> list[tuple[int, ...]]:
        """Each set of ``count`` dice that can leave the top one at a time (once, first order)."""
        seen: set[int] = set()
        found: list[tuple[int, ...]] = []
        mountain = self.mountain

        def walk(mask: int, chosen: tuple[int, ...], left: int) -> None:
            if not left:
                if mask not in seen:  # the same dice gone: the same set
                    seen.add(mask)
                    found.append(chosen)
                return
            for k in tops_of(mask):
                die = mountain[k]
                assert die is not None, "a top slot holds a die"
                walk(mask & ~(1 << k), (*chosen, die), left - 1)

        walk(self.mask, (), count)
        return found

    def spends(self, distinct: bool = True, prune: bool = False) -> list[Action]:
        """Every legal spend; with ``distinct``, one magic die per number of symbols
        (dice showing the same symbols do exactly the same).

        With ``prune``, only the spends that recycle the fewest dice that could be
        taken instead: recycling is for the dice that block the way.
        """
        left = self.mask.bit_count()
        if not left:
            return []
        found, done = [], set()
        takeable = None
        for die, symbols in self.magic:
            if distinct and symbols in done:
                continue
            done.add(symbols)
            sets = self.recycle_sets(min(symbols, left))
            if prune:
                if takeable is None:
                    takeable = {d: not self.blocked(d) for d in self.mountain if d is not None}
                cost = [sum(takeable[d] for d in targets) for targets in sets]
                least = min(cost)
                sets = [t for t, c in zip(sets, cost, strict=True) if c == least]
            found += [("spend", die, targets) for targets in sets]
        return found

    def fillable(self) -> tuple[int, ...]:
        """Empty slots a refill would fill, in order (``core.mountain.fillable_slots``)."""
        return fills_of(self.mask)

    def can_refill(self) -> bool:
        """True if a refill is left and would place a die."""
        return self.refills > 0 and bool(self.bag) and bool(fills_of(self.mask))

    def actions(self, distinct: bool = True, prune: bool = False) -> list[Action]:
        """Every legal action but stopping: takes, spends, then the refill (``spends``
        says what ``distinct`` and ``prune`` leave out)."""
        found = self.takes() + self.spends(distinct, prune)
        if self.can_refill():
            found.append(("refill",))
        return found

    # -- doing it ----------------------------------------------------------------

    def take(self, die: int, face: str, freeze: bool) -> None:
        """Take top die ``die`` as ``face`` (the caller checked it may)."""
        self._lift(die)
        kind = DIE_KIND[die]
        if kind == TUNNEL:
            value = TVAL[face]
            self.ends[value] += 1
            if value > 1:
                self.ends[value - 1] -= 1  # the sequence it extends
                if value == 5:
                    self.score += SEQUENCE_POINTS
        elif kind == TREASURE:
            if freeze:
                self.room -= 1
                self.score += 2 * GEMS[face]
            else:
                self.score += GEMS[face]
        elif kind == HAZARD:
            if CAVE[face]:
                self.picks -= 1
            else:
                self.shields -= 1
            self.score += HAZ[face]
        elif kind == TOOL:
            self.picks += face == "pickaxe"
            self.shields += face == "shield"
            self.room += CHESTS[face]
        elif SYMBOLS[face]:
            self.magic = sorted((*self.magic, (die, SYMBOLS[face])))

    def spend(self, die: int, targets: tuple[int, ...]) -> None:
        """Spend magic die ``die``: it leaves the game; ``targets`` go back to the bag."""
        self.magic = [(d, s) for d, s in self.magic if d != die]
        kinds = self.bag_kinds[:]
        for target in targets:
            self._lift(target)
            kinds[DIE_KIND[target]] += 1
        self.bag = self.bag + list(targets)
        self.bag_kinds = kinds

    def refill(self, order: Callable[[list[int]], list[int]], faces: Sequence[str]) -> None:
        """Fill the empty slots from the bag: ``order(bag)`` lists the bag's dice in the
        order they come out, ``faces[die]`` is the face each shows."""
        slots = fills_of(self.mask)
        drawn = order(self.bag)[: len(slots)]
        self.faces = self.faces[:]
        self.bag_kinds = kinds = self.bag_kinds[:]
        for k, die in zip(slots, drawn, strict=False):
            self.mountain[k] = die
            self.mask |= 1 << k
            self.faces[die] = faces[die]
            self._count(die, 1)
            kinds[DIE_KIND[die]] -= 1
        gone = set(drawn)
        self.bag = [d for d in self.bag if d not in gone]
        self.refills -= 1

    def apply(self, action: Action) -> None:
        """Do a take or a spend."""
        if action[0] == "take":
            self.take(action[1], action[2], action[3])
        else:
            self.spend(action[1], action[2])


def action_of(command: Command, model: SoloModel) -> Action | None:
    """The model action of a legal solo command (``None`` for stopping)."""
    if isinstance(command, TakeDie):
        wild = command.as_face is not None
        face = command.as_face if wild else model.faces[command.die]
        return ("take", command.die, face, command.freeze, wild)
    if isinstance(command, SpendMagic):
        return ("spend", command.die, tuple(command.targets))
    if isinstance(command, Refill):
        return ("refill",)
    if isinstance(command, EndSolo):
        return None
    raise ValueError(f"not a solo command: {command!r}")


def command_of(action: Action | None) -> Command:
    """The command that does a model action (``None``: stop)."""
    if action is None:
        return EndSolo(SEAT)
    if action[0] == "take":
        _, die, face, freeze, wild = action
        return TakeDie(SEAT, die, face if wild else None, freeze)
    if action[0] == "spend":
        return SpendMagic(SEAT, action[2], die=action[1])
    return Refill(SEAT)


__all__ = [
    "DIE_FACES",
    "DIE_KIND",
    "GEMS",
    "HAZ",
    "KINDS",
    "SoloModel",
    "action_of",
    "command_of",
]
