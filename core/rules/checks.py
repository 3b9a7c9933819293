"""Small checks shared by the rules of both modes, each refusing with a stable code."""

from __future__ import annotations

from core.dice import DIE_COUNT
from core.errors import RuleError
from core.mountain import covering, is_top, where
from core.projections.state import GameState


def check_seat(state: GameState, seat: object) -> int:
    """The seat as an int, refused if it is not one of the game's seats."""
    if type(seat) is not int or not 0 <= seat < state.players:
        raise RuleError("unknown_player", f"there is no player {seat!r} in this game")
    return seat


def check_turn(state: GameState, seat: object) -> int:
    """The seat, refused unless the game waits for this seat's command (after the game's
    end, any command is refused as such, whoever it names)."""
    if state.is_over:
        raise RuleError("game_over", "the game is over")
    seat = check_seat(state, seat)
    actor = state.to_act()
    if seat != actor:
        whose = "no one's" if actor is None else f"{state.names[actor]}'s"
        raise RuleError("not_your_turn", f"it is {whose} turn, not {state.names[seat]}'s")
    return seat


def check_phase(state: GameState, phase: str, action: str) -> None:
    """Refuse ``action`` outside ``phase``."""
    if state.phase != phase:
        raise RuleError("wrong_phase", f"you can only {action} in the {phase} phase, not now")


def check_die(die: object) -> int:
    """The die as an int, refused if there is no such die."""
    if type(die) is not int or not 0 <= die < DIE_COUNT:
        raise RuleError("unknown_die", f"there is no die {die!r}; dice are numbered 0 to 59")
    return die


def check_own_die(state: GameState, seat: int, die: object) -> int:
    """The die, refused unless it is in ``seat``'s trove."""
    die = check_die(die)
    if die not in state.troves[seat]:
        raise RuleError("not_your_die", f"die {die} is not in your trove")
    return die


def check_flag(value: object, what: str) -> bool:
    """A yes/no option, refused unless it is exactly ``True`` or ``False``.

    ``0``, ``""`` or ``None`` would pass a truth test, but the command is logged
    as given, and the log's reader accepts only a real bool there.
    """
    if type(value) is not bool:
        raise RuleError(f"bad_{what}", f"{what} is yes or no, not {value!r}")
    return value


def check_distinct(dice: tuple, what: str) -> None:
    """Refuse a list naming the same die twice."""
    if len(set(dice)) != len(dice):
        raise RuleError("duplicate_dice", f"each die can be {what} only once")


def mountain_slot(state: GameState, die: int) -> int:
    """The slot holding ``die``, refused if it is not on the mountain."""
    k = where(state.mountain, die)
    if k is None:
        raise RuleError("die_not_on_mountain", f"die {die} is not on the mountain")
    return k


def refuse_covered(state: GameState, die: int, k: int, side_allowed: bool) -> None:
    """Refuse a die that cannot be taken now: covered on both sides, or a side die
    without a shared beer."""
    if is_top(state.mountain, k):
        return
    above = covering(state.mountain, k)
    if len(above) == 2:
        # after a shared beer side dice may be taken too: "only top dice" would be untrue
        may = "a top die or a side die (one die above it)" if side_allowed else "only top dice"
        raise RuleError(
            "die_covered",
            f"die {die} is covered by dice {above[0]} and {above[1]}; {may} can be taken",
        )
    if not side_allowed:
        raise RuleError(
            "side_needs_beer",
            f"die {die} is covered by die {above[0]}; only top dice can be taken "
            "(side dice only after sharing a beer)",
        )
