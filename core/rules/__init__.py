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
from core.projections.state import PREGAME, GameState
from core.rng import DiceRng
from core.rules.emitter import Emitter, Handler
from core.rules.legal import MODE_LEGAL, Group
from core.rules.setup import RULES_VERSION, check_new_game

__all__ = [
    "RULES_VERSION",
    "decide",
    "emit_command",
    "register_mode",
    "resolve",
    "resolve_steps",
    "verbs_of",
]

#: Each mode's rules by its name (``NewGame.mode``), handed over by ``register_mode``: the
#: handler of each command, the first events, what follows every command, and the mode in
#: a player's words (for a command of the other one).
MODE_HANDLERS: dict[str, Mapping[type[Command], Handler]] = {}
MODE_STARTS: dict[str, Callable[[Emitter, NewGame], None]] = {}
MODE_ADVANCE: dict[str, Callable[[Emitter], None]] = {}
MODE_WORDS: dict[str, str] = {}


def register_mode(
    name: str,
    words: str,
    handlers: Mapping[type[Command], Handler],
    start: Callable[[Emitter, NewGame], None],
    advance: Callable[[Emitter], None],
    legal: Callable[[GameState], list[Group]],
) -> None:
    """Hand the rules one game mode (``core.modes.install`` calls it for each)."""
    MODE_HANDLERS[name] = handlers
    MODE_STARTS[name] = start
    MODE_ADVANCE[name] = advance
    MODE_WORDS[name] = words
    MODE_LEGAL[name] = legal


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
