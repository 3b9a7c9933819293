"""The emitter: collects the events a command causes while keeping the state current.

A command's follow-on transitions (the last die taken ends the excavation, the
last magic turn scores the round, ...) are decided on the state as it stands
after the events already emitted, as boardgame.io's flow queues automatic
events. The emitter never touches the caller's state: it folds onto its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.events.base import Event
from core.projections.apply import apply
from core.projections.state import GameState
from core.rng import DiceRng


class Emitter:
    """Events emitted so far, the state they lead to, and the command's generator."""

    __slots__ = ("events", "rng", "state", "states")

    def __init__(self, state: GameState, rng: DiceRng) -> None:
        self.state = state
        self.rng = rng
        self.events: list[Event] = []
        self.states: list[GameState] = []  # the state after each event, for the game's commit

    def emit(self, event: Event) -> GameState:
        """Record ``event`` and fold it onto the running state."""
        self.events.append(event)
        self.state = state = apply(self.state, event)
        self.states.append(state)
        return state


#: A command's rule: its events emitted onto the emitter, or a RuleError. Each takes
#: its own command type, so the tables mapping a command type to its rule say ``Any``.
Handler = Callable[[Emitter, Any], None]
