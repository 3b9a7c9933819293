"""What a solo trove is worth, and the greedy bot's solo policy.

The solo score only grows: taking, spending and refilling never lose a point,
so the game is about spending scarce things well (tools, chest places, magic,
the two refills). The greedy bot values a position as

    value = solo score + potential

where ``potential`` is an estimate of what the trove can still become, from
what may still reach the top of the mountain (the dice on it, plus the share
of the bag the refills left can bring, ``reach``):

* each open tunnel sequence: 5 points times a chance to reach 5 that grows with
  its last number (``SEQUENCE_CHANCE``), scaled down when few tunnel dice remain;
* each free chest place: the gems a frozen treasure would add (``GEM_MEAN``),
  for as many places as treasure dice may come, times ``CHEST_WEIGHT``;
* each unassigned pickaxe or shield: the hazard symbols it may neutralize
  (``CAVE_MEAN``, ``DRAGON_MEAN``), for as many matching hazards as may come,
  times ``TOOL_WEIGHT``;
* each magic symbol in hand: ``MAGIC_WEIGHT`` (it recycles a blocking die).

The policy, in order:

1. a *free* take, which costs nothing and needs no choice (a tunnel, tool or
   magic die not showing beer; a treasure die when no chest has room), at once;
2. the decision (a hazard take, freezing or not, a wild face, a spend) that
   raises the value most, each valued after the takes it opens up (``closure``:
   a spend is worth the dice it uncovers), if it raises the value at all;
3. else a refill, if it would place at least ``REFILL_MIN_SLOTS`` dice (a refill
   into a nearly full mountain wastes it);
4. else the best remaining action: nothing lost at the end of the game;
5. else a small refill.

It stops only when nothing at all is left, and then the rules end the game
anyway: every action is worth at least nothing to the final score.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.bots.solo_model import (
    DIE_KIND,
    HAZARD,
    MAGIC,
    SYMBOLS,
    TOOL,
    TREASURE,
    TUNNEL,
    TVAL,
    Action,
    SoloModel,
    action_of,
    command_of,
)
from core.commands import Command
from core.dice import BEER
from core.modes.solo.scoring import SEQUENCE_POINTS
from core.projections.state import GameState
from core.rng import DiceRng

#: Chance that an open sequence ending in 1, 2, 3, 4 reaches 5.
SEQUENCE_CHANCE = (0.0, 0.1, 0.2, 0.3, 0.5)
#: Tunnel dice still to come at which a sequence's chance is full.
TUNNELS_FOR_FULL_CHANCE = 12
#: Mean gems of a treasure die not yet seen (a beer is wild: 3 gems).
GEM_MEAN = (3 + 2 + 1 + 1 + 1 + 3) / 6
#: Mean cave-ins a pickaxe neutralizes, and dragons a shield does (beer: the best face).
CAVE_MEAN = 1.6
DRAGON_MEAN = 2.6
CHEST_WEIGHT = 0.45
TOOL_WEIGHT = 0.6
MAGIC_WEIGHT = 0.7
#: Dice a refill brings, on average, from the bag.
REFILL_SIZE = 14
#: A refill placing fewer dice waits until nothing else is left to do.
REFILL_MIN_SLOTS = 12
#: Of a hazard die in the bag: the chance it shows cave-ins (or beer, half of it) and dragons.
CAVE_SHARE = (2 + 0.5) / 6
DRAGON_SHARE = (3 + 0.5) / 6

EPSILON = 1e-9

# Priorities of the policy's steps (higher first).
FREE, IMPROVING, REFILL, ANY, SMALL_REFILL = 4, 3, 2, 1, 0


def coming(m: SoloModel) -> float:
    """How many bag dice the refills left may still bring: the next fills every empty
    slot, each later one ``REFILL_SIZE`` dice."""
    if not m.bag or not m.refills:
        return 0.0
    return min(len(m.bag), 20 - m.mask.bit_count() + (m.refills - 1) * REFILL_SIZE)


def reach(m: SoloModel) -> float:
    """The share of the bag the refills left may still bring to the mountain."""
    return coming(m) / len(m.bag) if m.bag else 0.0


def potential(m: SoloModel) -> float:
    """What the trove may still gain: sequences, chest places, tools and magic (see above)."""
    tunnels: float  # dice counted now, and a share of the bag's
    treasures: float
    caves: float
    dragons: float
    tunnels, treasures, caves, dragons, beers = m.on
    share = reach(m)
    if share:
        bag = m.bag_kinds
        tunnels += share * bag[TUNNEL]
        treasures += share * bag[TREASURE]
        caves += share * bag[HAZARD] * CAVE_SHARE
        dragons += share * bag[HAZARD] * DRAGON_SHARE
    total = 0.0
    ends = m.ends
    if ends[1] or ends[2] or ends[3] or ends[4]:
        p = SEQUENCE_CHANCE
        open_chance = p[1] * ends[1] + p[2] * ends[2] + p[3] * ends[3] + p[4] * ends[4]
        total += SEQUENCE_POINTS * min(1.0, tunnels / TUNNELS_FOR_FULL_CHANCE) * open_chance
    if m.room:
        total += CHEST_WEIGHT * GEM_MEAN * min(m.room, treasures)
    if m.picks:
        total += TOOL_WEIGHT * CAVE_MEAN * min(m.picks, caves + 0.5 * beers)
    if m.shields:
        total += TOOL_WEIGHT * DRAGON_MEAN * min(m.shields, dragons + 0.5 * beers)
    for _, symbols in m.magic:
        total += MAGIC_WEIGHT * symbols
    return total


def value(m: SoloModel) -> float:
    """The score plus the potential."""
    return m.score + potential(m)


def is_free(m: SoloModel, action: Action) -> bool:
    """A take that costs nothing and leaves no choice (see the module docstring)."""
    if action[0] != "take" or action[4]:
        return False
    kind = DIE_KIND[action[1]]
    return kind in (TUNNEL, TOOL, MAGIC) or (kind == TREASURE and m.room == 0)


#: The face an eager take turns a wild die of each kind to (tunnel and tool: no eager choice).
_EAGER_WILD = {TREASURE: ("gem3",), MAGIC: ("magic3",), HAZARD: ("dragon4", "cavein2")}


def free_take(m: SoloModel) -> Action | None:
    """The first free take (in slot order), if any."""
    return _first_take(m, eager=False)


def eager_take(m: SoloModel) -> Action | None:
    """The first free take, or else the first take a valuation may assume will be made:
    a treasure die (frozen while a chest has room), a hazard die a tool can neutralize,
    a wild treasure, magic or hazard die turned to its best face."""
    return _first_take(m, eager=True)


def _first_take(m: SoloModel, eager: bool) -> Action | None:
    faces, ends, found = m.faces, m.ends, None
    for k in m.top_slots():
        die = m.mountain[k]
        assert die is not None, "a top slot holds a die"
        kind, face = DIE_KIND[die], faces[die]
        assert face is not None, "a die on the mountain shows a face"
        if face != BEER:
            if kind == TUNNEL:
                v = TVAL[face]
                if v == 1 or ends[v - 1]:
                    return ("take", die, face, False, False)
            elif kind in (TOOL, MAGIC) or (kind == TREASURE and m.room == 0):
                return ("take", die, face, False, False)
        if eager and found is None:
            wild = face == BEER
            for f in _EAGER_WILD.get(kind, ()) if wild else (face,):
                if kind == TREASURE:
                    found = ("take", die, f, m.room > 0, wild)
                elif (kind == HAZARD and m.fits(kind, f)) or (kind == MAGIC and wild):
                    found = ("take", die, f, False, wild)
                if found is not None:
                    break
    return found


def closure(m: SoloModel) -> SoloModel:
    """``m`` after every eager take, one after another (changes ``m``)."""
    while True:
        action = eager_take(m)
        if action is None:
            return m
        m.take(action[1], action[2], action[3])


def after(m: SoloModel, action: Action) -> SoloModel:
    """A copy of ``m`` with ``action`` (not a refill) done, then the eager takes it opens."""
    new = m.copy()
    new.apply(action)
    return closure(new)


#: Faces a wild die is never turned to: a better face of the same kind does the same for
#: more points (3 gems over 2 or 1; 4 dragons and 2 cave-ins need the same tool as fewer).
DOMINATED = frozenset({"gem1", "gem2", "dragon1", "dragon2", "cavein1"})


def ranked(m: SoloModel, actions: Sequence[Action]) -> list[tuple[int, float, Action]]:
    """Each action with the policy's priority and value (the best is the policy's choice).

    Wild treasure and hazard faces that another face of the die beats outright
    (``DOMINATED``) are left out.
    """
    free = [a for a in actions if is_free(m, a)]
    if free:
        return [(FREE, 0.0, free[0])]
    base = value(m)
    found = []
    for action in actions:
        if action[0] == "take" and action[4] and action[2] in DOMINATED:
            continue
        if action[0] == "refill":
            big = len(m.fillable()) >= min(REFILL_MIN_SLOTS, len(m.bag))
            found.append((REFILL if big else SMALL_REFILL, base, action))
        else:
            v = value(after(m, action))
            found.append((IMPROVING if v > base + EPSILON else ANY, v, action))
    return found


def best_of(found: Sequence[tuple[int, float, Action]], rng) -> Action | None:
    """The highest-priority, highest-valued action; equal ones are broken by ``rng``."""
    if not found:
        return None
    top = max((p, v) for p, v, _ in found)
    tied = [a for p, v, a in found if p == top[0] and v >= top[1] - EPSILON]
    return tied[0] if len(tied) == 1 else tied[rng.below(len(tied))]


def greedy_action(m: SoloModel, rng) -> Action | None:
    """The greedy policy's action in the model (``None``: nothing is left to do)."""
    action = free_take(m)
    if action is not None:
        return action
    return best_of(ranked(m, m.actions(prune=True)), rng)


def solo_ranked(
    state: GameState, legal: Sequence[Command]
) -> tuple[SoloModel, list[tuple[int, float, Action]]]:
    """The model of ``state`` and the legal commands as ranked actions (stopping left out).

    The actions are ``solo_actions``'s.
    """
    m, actions = solo_actions(state, legal)
    return m, ranked(m, actions)


def solo_actions(state: GameState, legal: Sequence[Command]) -> tuple[SoloModel, list[Action]]:
    """The model of ``state`` and the legal commands as model actions (stopping left out).

    Spends of magic dice showing the same symbols on the same dice are the same
    action; only the first of them (in legal order) is kept, and only the spends
    the policy considers (``SoloModel.spends`` with ``prune``).
    """
    m = SoloModel.from_state(state)
    faces = m.faces
    wanted = {(SYMBOLS[faces[a[1]]], frozenset(a[2])) for a in m.spends(prune=True)}
    actions = []
    for command in legal:
        action = action_of(command, m)
        if action is None:
            continue
        if action[0] == "spend":
            key = (SYMBOLS[faces[action[1]]], frozenset(action[2]))
            if key not in wanted:
                continue
            wanted.discard(key)  # the first die of these symbols stands for them all
        actions.append(action)
    return m, actions


def choose_solo(state: GameState, legal: Sequence[Command], rng: DiceRng) -> Command:
    """The greedy solo policy's command (stopping only when nothing else is legal)."""
    _, found = solo_ranked(state, legal)
    return command_of(best_of(found, rng))


__all__ = [
    "after",
    "best_of",
    "choose_solo",
    "closure",
    "eager_take",
    "free_take",
    "greedy_action",
    "is_free",
    "potential",
    "ranked",
    "solo_actions",
    "solo_ranked",
    "value",
]
