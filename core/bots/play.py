"""The one loop that lets bots play a game: ask the bot to act, issue its command, repeat.

Every tool that runs bots (the demo, ``simulate``, the golden replays, the
strength measurement, a frontend's bot seats) goes through ``bot_command`` and
``play_game``, so a bot always decides from the projected state, the lazy list
of legal commands (``LegalList``) and its own generator for that moment.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from core.bots.base import Bot, bot_rng
from core.commands import Command
from core.events.base import Event
from core.game import Game
from core.projections.state import GameState
from core.rules.legal import LegalList

#: Called after each command a bot issued: the game, the command and its events.
OnMove = Callable[[Game, Command, tuple[Event, ...]], None]

#: No real game needs this many commands; a bot that never finishes is a bug.
MAX_COMMANDS = 100_000


def bot_command(game: Game, bot: Bot) -> Command:
    """The command ``bot`` chooses for the player the game waits for."""
    timeline = game.timeline
    return bot_choice(bot, timeline.state, timeline.depth)


def bot_choice(bot: Bot, state: GameState, depth: int, secret: bytes | None = None) -> Command:
    """The command ``bot`` chooses in ``state``, the game's position ``depth`` commands in
    (an immutable snapshot: a bot may think while the game is read elsewhere); in a game
    whose dice come from ``secret``, from that secret too (``bot_rng``)."""
    seat = state.to_act()
    if seat is None:
        raise ValueError("the game is over: no one is to act")
    return bot.choose(state, LegalList(state), bot_rng(state, depth, seat, secret))


def play_game(game: Game, bots: Sequence[Bot], on_move: OnMove | None = None) -> GameState:
    """Let ``bots[seat]`` play each seat until the game ends; return the final state."""
    seats = game.state.players
    if len(bots) != seats:
        raise ValueError(f"{seats} seats need {seats} bots, not {len(bots)}")
    for _ in range(MAX_COMMANDS):
        state = game.state
        if state.is_over:
            return state
        seat = state.to_act()
        assert seat is not None, "a game not over waits for a seat"
        command = bot_command(game, bots[seat])
        commit = game.issue(command)
        if on_move is not None:
            on_move(game, command, commit.events)
    raise RuntimeError(f"the game did not end within {MAX_COMMANDS} commands")


__all__ = ["MAX_COMMANDS", "OnMove", "bot_choice", "bot_command", "play_game"]
