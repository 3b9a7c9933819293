"""The table's commands: revealing the secret seed, closing a game, handing a quiet
person's seat to a bot and back, a person leaving for good, the rematch made once a
game is over, branching a game from another (``core.modes.table.events``).

They are the table's, not a player's (``Command.BY_TABLE``): a host issues them
and a frontend never takes them from a person. The rules still check each one
against the state, so the log holds only facts that fit: a secret is revealed
once, only after the game is over, and only if its SHA-256 is the commitment
made at the start.
"""

from __future__ import annotations

import hashlib
import re

from core.commands import (
    BranchGame,
    CloseGame,
    Command,
    HandSeatToBot,
    LeaveGame,
    NewGame,
    ReturnSeat,
    RevealSeed,
    StartRematch,
)
from core.errors import RuleError
from core.modes.table import events as tev
from core.rules.emitter import Emitter, Handler

#: A secret seed: 32 bytes, written as 64 lowercase hex digits (so is a commitment).
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
#: Longest reason or name a table's event may carry.
MAX_TEXT = 200
#: A seed is a 64-bit word (``core.rng``).
_SEEDS = 1 << 64


def _is_text(value: object) -> bool:
    """A string: a command built in code (not read from a log) may hold anything."""
    return isinstance(value, str)


def _is_hex64(value: object) -> bool:
    """64 lowercase hex digits: a secret seed, a commitment, a log's SHA-256."""
    return isinstance(value, str) and _HEX64.match(value) is not None


def commitment_of(secret: str) -> str:
    """The SHA-256 (hex) of a secret seed given in hex: what a game commits to."""
    return hashlib.sha256(bytes.fromhex(secret)).hexdigest()


def check_table_options(cmd: NewGame) -> None:
    """Refuse a NewGame's table options that the log could not hold as facts."""
    if cmd.commitment and not _HEX64.match(cmd.commitment):
        raise RuleError("bad_option", "a commitment is a SHA-256 in 64 lowercase hex digits")
    if not _is_text(cmd.seed_chosen_by) or len(cmd.seed_chosen_by) > MAX_TEXT:
        raise RuleError("bad_option", f"who chose the seed is at most {MAX_TEXT} characters")
    if cmd.commitment and cmd.seed_chosen_by:
        raise RuleError("bad_option", "a chosen seed cannot also be a secret one")
    if not _is_text(cmd.practice) or (cmd.practice and cmd.practice not in cmd.players):
        raise RuleError("bad_option", "a practice game is for one of its players")


def emit_table_facts(out: Emitter, cmd: NewGame) -> None:
    """Right after GameStarted: where the dice come from, when it is not the seed alone."""
    if cmd.commitment:
        out.emit(tev.DiceCommitted(cmd.commitment))
    if cmd.seed_chosen_by:
        out.emit(tev.SeedChosen(cmd.seed_chosen_by))
    if cmd.practice:
        out.emit(tev.PracticeChosen(cmd.practice))


def reveal_seed(out: Emitter, cmd: RevealSeed) -> None:
    """The secret, once the game is over; its SHA-256 must be the commitment."""
    facts = out.state.facts
    if not facts.commitment:
        raise RuleError("no_secret", "this game's dice come from its seed: there is no secret")
    if facts.revealed:
        raise RuleError("already_revealed", "this game's secret seed is already revealed")
    if not out.state.is_over:
        raise RuleError("game_not_over", "the secret seed is revealed only once the game is over")
    if not _is_hex64(cmd.secret):
        raise RuleError("bad_secret", "a secret seed is 64 lowercase hex digits")
    if commitment_of(cmd.secret) != facts.commitment:
        raise RuleError("bad_secret", "that is not the secret this game committed to")
    out.emit(tev.SeedRevealed(cmd.secret))


def close_game(out: Emitter, cmd: CloseGame) -> None:
    """End a game nobody plays any more (no winner), saying why."""
    if out.state.is_over:
        raise RuleError("game_over", "the game is already over")
    out.emit(tev.GameClosed(_text(cmd.reason, "a reason")))


def hand_seat_to_bot(out: Emitter, cmd: HandSeatToBot) -> None:
    """A bot plays a person's seat from now on."""
    state = out.state
    if state.is_over:
        raise RuleError("game_over", "the game is already over")
    if type(cmd.taken) is not int or not 0 <= cmd.taken < state.players:
        raise RuleError("bad_seat", f"there is no seat {cmd.taken!r}")
    if cmd.taken in dict(state.facts.bot_seats):
        raise RuleError("already_a_bot", f"a bot already plays for {state.names[cmd.taken]}")
    out.emit(
        tev.SeatHandedToBot(cmd.taken, _text(cmd.bot, "a bot kind"), _text(cmd.reason, "a reason"))
    )


def return_seat(out: Emitter, cmd: ReturnSeat) -> None:
    """A seat a bot played is its person's again."""
    state = out.state
    if type(cmd.returned) is not int or cmd.returned not in dict(state.facts.bot_seats):
        raise RuleError("not_a_bot_seat", "no bot plays that seat for its person")
    if cmd.returned in state.facts.left:
        raise RuleError("seat_left", f"{state.names[cmd.returned]} left this game for good")
    out.emit(tev.SeatReturned(cmd.returned))


def leave_game(out: Emitter, cmd: LeaveGame) -> None:
    """A person leaves for good: a bot plays their seat to the end."""
    state = out.state
    if state.is_over:
        raise RuleError("game_over", "the game is already over")
    if type(cmd.left) is not int or not 0 <= cmd.left < state.players:
        raise RuleError("bad_seat", f"there is no seat {cmd.left!r}")
    if cmd.left in state.facts.left:
        raise RuleError("already_left", f"{state.names[cmd.left]} has already left this game")
    out.emit(tev.SeatLeft(cmd.left, _text(cmd.bot, "a bot kind")))


def start_rematch(out: Emitter, cmd: StartRematch) -> None:
    """The game over, the rematch that follows it (one per game)."""
    state = out.state
    if not state.is_over:
        raise RuleError("game_not_over", "a rematch is made once the game is over")
    if state.facts.rematch:
        raise RuleError(
            "rematch_made", f"a rematch of this game was already made: game {state.facts.rematch}"
        )
    out.emit(tev.RematchStarted(_text(cmd.rematch_id, "a game id")))


def branch_game(out: Emitter, cmd: BranchGame) -> None:
    """The fact that this game is a branch of another log, and where its dice come from.

    Same luck keeps the dice where they came from (the game's seed, an earlier
    branch's, or the game's secret seed, which a branch needs revealed: it is logged
    in the fact); fresh luck takes a new seed. Either way the dice are no secret.
    """
    state = out.state
    if state.is_over:
        raise RuleError("game_over", "the game is over there: a branch would have nothing to play")
    if not _is_hex64(cmd.parent):
        raise RuleError("bad_option", "a branch's parent is a SHA-256 in 64 lowercase hex digits")
    if type(cmd.at) is not int or cmd.at < 1:
        raise RuleError("bad_option", "a branch keeps at least the game's opening event")
    if cmd.luck == "fresh":
        if type(cmd.seed) is not int or not 0 <= cmd.seed < _SEEDS or cmd.secret:
            raise RuleError("bad_option", "fresh luck is a new seed, 0 to 2**64 - 1")
        out.emit(tev.GameBranched(cmd.parent, cmd.at, "fresh", cmd.seed))
        return
    if cmd.luck != "same":
        raise RuleError("bad_option", "a branch's luck is 'same' or 'fresh'")
    if cmd.seed is not None:
        raise RuleError("bad_option", "the same luck rolls the parent's dice: it takes no seed")
    facts = state.facts
    if facts.branches:  # where the dice come from is known: an earlier branch's fact says
        seed, secret = facts.branch_seed, facts.branch_secret
    elif facts.commitment:
        secret, seed = cmd.secret, None
        if not secret:
            raise RuleError(
                "seed_secret",
                "this game's dice come from a secret seed not revealed yet (it is once the "
                "game is over): a branch with the same luck needs it, one with fresh luck "
                "does not",
            )
        if not _is_hex64(secret):
            raise RuleError("bad_secret", "a secret seed is 64 lowercase hex digits")
        if commitment_of(secret) != facts.commitment:
            raise RuleError("bad_secret", "that is not the secret this game committed to")
    else:
        seed, secret = state.seed, ""
    if cmd.secret and cmd.secret != secret:
        raise RuleError("bad_secret", "that is not the secret this game's dice come from")
    out.emit(tev.GameBranched(cmd.parent, cmd.at, "same", seed, secret))


def _text(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
        raise RuleError("bad_option", f"{what} is 1 to {MAX_TEXT} characters")
    try:
        value.encode()
    except UnicodeEncodeError:
        raise RuleError("bad_option", f"{what} must be text UTF-8 can hold") from None
    return value


#: The table's handlers, the same in every mode.
HANDLERS: dict[type[Command], Handler] = {
    RevealSeed: reveal_seed,
    CloseGame: close_game,
    HandSeatToBot: hand_seat_to_bot,
    ReturnSeat: return_seat,
    LeaveGame: leave_game,
    StartRematch: start_rematch,
    BranchGame: branch_game,
}

__all__ = ["HANDLERS", "check_table_options", "commitment_of", "emit_table_facts"]
