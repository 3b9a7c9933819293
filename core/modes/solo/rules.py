"""The solo game's rules (RULES.md section 4): setup, the three actions, and the end.

Setup: the starting magic dice (3, or fewer for the harder variant) leave the
bag and are rolled into the trove; the mountain is filled. Then, in any order:
take a top die (``core.modes.solo.take``), spend a magic die (it leaves the
game and recycles one top die per magic symbol back into the bag), or refill
the mountain (twice a game at most). No heroes (rule D8), no beer sharing, no
side picks. The game ends when the player stops or can do nothing more; the
engine notices the latter after every command and ends the game in its batch.

The mode's record (``core.modes.solo.MODE``) hands the rules its ``HANDLERS``,
``start_solo``, ``advance_solo`` and the legal commands ``legal_solo``.
"""

from __future__ import annotations

from collections.abc import Iterator

from core.commands import Command, EndSolo, NewGame, Refill, SpendMagic, TakeDie
from core.dice import DICE_SET, KIND_OF, magic_symbols
from core.errors import RuleError
from core.events import game as ev
from core.modes.solo.events import (
    MountainRefilled,
    SoloGameEnded,
    SoloMagicSpent,
    StartingTroveRolled,
)
from core.modes.solo.scoring import solo_score
from core.modes.solo.take import SEAT, can_take, take_event, take_options
from core.modes.table.rules import emit_table_facts
from core.mountain import SLOTS, covering, dice_on, fillable_slots, is_top, remove, top_slots, where
from core.projections.state import SOLO, GameState
from core.rules.chance import fill_mountain, roll_dice
from core.rules.checks import check_die, check_distinct, check_own_die, check_turn
from core.rules.emitter import Emitter, Handler
from core.rules.setup import RULES_VERSION

#: Refills of the mountain allowed in a solo game.
REFILLS = 2
#: The most magic dice a solo game may start with (fewer is the harder variant).
MAX_STARTING_MAGIC = 3


# -- setup ----------------------------------------------------------------------


def start_solo(out: Emitter, cmd: NewGame) -> None:
    """The starting trove of magic dice, rolled, then the first filling."""
    n = cmd.starting_magic
    if type(n) is not int or not 0 <= n <= MAX_STARTING_MAGIC:
        raise RuleError(
            "bad_option", f"a solo game starts with 0 to {MAX_STARTING_MAGIC} magic dice, not {n!r}"
        )
    if cmd.hero_deal != "choose":
        raise RuleError("bad_option", "the solo game has no heroes (rule D8)")
    state = out.emit(
        ev.GameStarted(
            cmd.game_id,
            cmd.seed,
            "solo",
            cmd.players,
            DICE_SET,
            RULES_VERSION,
            starting_magic=n,
        )
    )
    emit_table_facts(out, cmd)
    state = out.state
    # Magic dice are alike, so the starting ones are the lowest-id magic dice; their faces
    # are random. Starting dice rolled to beer are not wild (and have no magic to spend).
    starting = [d for d in state.bag if KIND_OF[d] == "magic"][:n]
    state = out.emit(StartingTroveRolled(roll_dice(starting, out.rng), REFILLS))
    out.emit(fill_mountain(state, out.rng))
    advance_solo(out)


# -- the actions ----------------------------------------------------------------


def take_die(out: Emitter, cmd: TakeDie) -> None:
    """Take a top die under the taking rules (see ``core.modes.solo.take``)."""
    state = out.state
    check_turn(state, cmd.seat)
    out.emit(take_event(state, cmd.die, cmd.as_face, cmd.freeze))


def spend_magic(out: Emitter, cmd: SpendMagic) -> None:
    """A magic die leaves the game; each of its symbols recycles one top die, one at a time.

    A spend must recycle exactly as many dice as its symbols, or every die left on the
    mountain if fewer (as rule D6 does for rerolls); so an empty mountain cannot be
    spent on, and a beer-faced magic die, with no symbols, cannot be spent.
    """
    state = out.state
    seat = check_turn(state, cmd.seat)
    if cmd.hero_face is not None:
        raise RuleError("no_heroes", "the solo game has no heroes (rule D8); spend a magic die")
    if cmd.die is None:
        raise RuleError("bad_source", "name the magic die to spend, e.g. 'spend 52 on 17'")
    die = check_own_die(state, seat, cmd.die)
    if KIND_OF[die] != "magic":
        raise RuleError("not_magic", f"die {die} is a {KIND_OF[die]} die, not a magic die")
    symbols = magic_symbols(state.face(die))
    if not symbols:
        raise RuleError("no_magic", f"die {die} shows beer: it has no magic to spend")
    left = len(dice_on(state.mountain))
    if not left:
        raise RuleError("nothing_to_recycle", "the mountain is empty: there is nothing to recycle")
    targets = tuple(check_die(d) for d in cmd.targets)
    check_distinct(targets, "recycled")
    needed = min(symbols, left)
    if len(targets) != needed:
        raise RuleError(
            "wrong_recycle_count",
            f"die {die} shows {symbols} magic: recycle exactly {needed} top "
            f"{'die' if needed == 1 else 'dice'}, not {len(targets)}",
        )
    out.emit(SoloMagicSpent(die, recycle_order(state, targets)))


def recycle_order(state: GameState, targets: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """``(die, row, col)`` for each target, each a top die once the ones before it left."""
    mountain, recycled = state.mountain, []
    for die in targets:
        k = where(mountain, die)
        if k is None:
            raise RuleError("die_not_on_mountain", f"die {die} is not on the mountain")
        if not is_top(mountain, k):
            above = " and ".join(f"die {d}" for d in covering(mountain, k))
            raise RuleError(
                "recycle_not_top",
                f"die {die} is still covered by {above} when its turn comes; recycle top "
                "dice one at a time (a die can follow the dice that uncover it)",
            )
        recycled.append((die, *SLOTS[k]))
        mountain = remove(mountain, k)
    return tuple(recycled)


def refill(out: Emitter, cmd: Refill) -> None:
    """Pour bag dice into the empty slots; the dice on the mountain stay. Twice a game."""
    state = out.state
    check_turn(state, cmd.seat)
    if state.solo.refills_left <= 0:
        raise RuleError(
            "no_refills_left", f"you have used both refills (the mountain refills {REFILLS} times)"
        )
    if not state.bag:
        raise RuleError("bag_empty", "the bag is empty: there is nothing to refill with")
    if not fillable_slots(state.mountain):
        raise RuleError("mountain_full", "the mountain is full: there is no slot to refill")
    out.emit(MountainRefilled(fill_mountain(state, out.rng).placements))


def stop(out: Emitter, cmd: EndSolo) -> None:
    """The player will do nothing more: the game ends and is scored."""
    state = out.state
    check_turn(state, cmd.seat)
    _end(out, stopped=True)


def _end(out: Emitter, stopped: bool) -> None:
    result = solo_score(out.state)
    out.emit(SoloGameEnded(result.score, result.rating, stopped))


HANDLERS: dict[type[Command], Handler] = {
    TakeDie: take_die,
    SpendMagic: spend_magic,
    Refill: refill,
    EndSolo: stop,
}


# -- the end, and the legal commands --------------------------------------------


def can_refill(state: GameState) -> bool:
    """True if a refill is left and would place at least one die."""
    return state.solo.refills_left > 0 and bool(state.bag) and bool(fillable_slots(state.mountain))


def spendable(state: GameState) -> tuple[int, ...]:
    """The trove's magic dice that can be spent now (none while the mountain is empty)."""
    if not dice_on(state.mountain):
        return ()
    return tuple(
        sorted(
            d for d in state.troves[SEAT] if KIND_OF[d] == "magic" and magic_symbols(state.face(d))
        )
    )


def can_act(state: GameState) -> bool:
    """True if the player can still take, spend or refill (stopping aside)."""
    mountain = state.mountain
    return (
        any(can_take(state, mountain[k]) for k in top_slots(mountain))
        or bool(spendable(state))
        or can_refill(state)
    )


def advance_solo(out: Emitter) -> None:
    """End the game, scored, once the player can do nothing more."""
    if out.state.phase == SOLO and not can_act(out.state):
        _end(out, stopped=False)


def recycle_choices(state: GameState, count: int) -> Iterator[tuple[int, ...]]:
    """Each set of ``count`` dice that can be recycled one at a time, once, in its first
    order (the resulting state depends only on the set, as recycled dice never slide)."""
    seen: set[frozenset[int]] = set()

    def orders(mountain, chosen):
        if len(chosen) == count:
            key = frozenset(chosen)
            if key not in seen:
                seen.add(key)
                yield chosen
            return
        for k in top_slots(mountain):
            yield from orders(remove(mountain, k), (*chosen, mountain[k]))

    yield from orders(state.mountain, ())


def legal_solo(state: GameState) -> Iterator[Command]:
    """Takes in slot order, then spends, the refill, and stopping."""
    if state.phase != SOLO:
        return
    mountain = state.mountain
    for k in top_slots(mountain):
        die = mountain[k]
        for as_face, freeze in take_options(state, die):
            yield TakeDie(SEAT, die, as_face, freeze)
    left = len(dice_on(mountain))
    for die in spendable(state):
        count = min(magic_symbols(state.face(die)), left)
        for targets in recycle_choices(state, count):
            yield SpendMagic(SEAT, targets, die=die)
    if can_refill(state):
        yield Refill(SEAT)
    yield EndSolo(SEAT)
