"""The rules: ``decide(state, command, rng) -> events``, refusing with coded errors.

``decide`` never mutates anything; a refused command raises ``RuleError`` before
any event exists. The generator is passed in (the game opens one stream per
command), so the rules stay pure and tests can script the dice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from core.commands import VERB_COMMANDS, Command, NewGame, Undo
from core.errors import RuleError
from core.events.base import Event
from core.modes.multiplayer import rules as multiplayer
from core.modes.multiplayer.flow import advance
from core.modes.multiplayer.legal import multiplayer_groups
from core.modes.multiplayer.setup import start_multiplayer
from core.modes.solo import rules as solo
from core.modes.table import rules as table
from core.projections.state import PREGAME, GameState
from core.rng import DiceRng
from core.rules.emitter import Emitter, Handler
from core.rules.legal import MODE_LEGAL, listed
from core.rules.setup import RULES_VERSION, check_new_game

__all__ = ["RULES_VERSION", "decide", "emit_command", "resolve", "resolve_steps", "verbs_of"]

#: Rule handlers per mode; the solo game registers its own.
MODE_HANDLERS: dict[str, Mapping[type[Command], Handler]] = {
    "multi": {**multiplayer.HANDLERS, **table.HANDLERS},
    "solo": {**solo.HANDLERS, **table.HANDLERS},
}
MODE_STARTS: dict[str, Callable[[Emitter, NewGame], None]] = {
    "multi": start_multiplayer,
    "solo": solo.start_solo,
}
MODE_ADVANCE: dict[str, Callable[[Emitter], None]] = {
    "multi": advance,
    "solo": solo.advance_solo,
}
MODE_LEGAL.update(multi=multiplayer_groups, solo=listed(solo.legal_solo))
#: The games in a player's words, for a command of the other one.
MODE_WORDS = {"multi": "a game of 2 to 4 players", "solo": "the solo game"}


def decide(state: GameState, command: Command, rng: DiceRng) -> tuple[Event, ...]:
    """The events ``command`` causes in ``state``, or a RuleError saying why not."""
    return resolve(state, command, rng)[0]


def resolve(
    state: GameState, command: Command, rng: DiceRng
) -> tuple[tuple[Event, ...], GameState]:
    """``decide``, plus the state the events lead to (folded once, while deciding)."""
    out = emit_command(state, command, rng)
    return tuple(out.events), out.state


def resolve_steps(
    state: GameState, command: Command, rng: DiceRng
) -> tuple[tuple[Event, ...], tuple[GameState, ...]]:
    """``decide``, plus the state after each event (each folded once, while deciding)."""
    out = emit_command(state, command, rng)
    return tuple(out.events), tuple(out.states)


def emit_command(state: GameState, command: Command, rng: DiceRng) -> Emitter:
    """The emitter after deciding ``command``: its events and the state after each
    (``resolve`` and ``resolve_steps`` in one call, for the game's hot path)."""
    if isinstance(command, NewGame):
        if state is not PREGAME:
            raise RuleError("game_started", "this game has already started")
        check_new_game(command)
        out = Emitter(PREGAME, rng)
        MODE_STARTS[command.mode](out, command)
        return out
    if state is PREGAME:
        raise RuleError("no_game", "start a game first")
    handler = MODE_HANDLERS[state.mode].get(type(command))
    if handler is None:
        raise RuleError("unknown_command", _not_in_this_game(command, state.mode))
    out = Emitter(state, rng)
    handler(out, command)
    MODE_ADVANCE[state.mode](out)
    return out


def verbs_of(mode: str) -> tuple[str, ...]:
    """The verbs a player types in a game of ``mode``: its moves', and undo (sorted)."""
    moves = MODE_HANDLERS[mode]
    return tuple(sorted(v for v, c in VERB_COMMANDS.items() if c in moves or c is Undo))


def _not_in_this_game(command: Command, mode: str) -> str:
    """Why a command of the other mode is refused, as the player typed it: "'stop' is
    only for the solo game" (never the command's class name)."""
    elsewhere = [m for m, rules in MODE_HANDLERS.items() if m != mode and type(command) in rules]
    if elsewhere:
        return f"'{command.TAG}' is only for {MODE_WORDS[elsewhere[0]]}"
    return f"'{command.TAG}' is not a move of {MODE_WORDS[mode]}"
