"""An event with the states around it, and a committed command as such steps.

``Step`` is how every reader of events sees them: the event, the batch it came
in, the effective state before it (what its words are written from) and after
it. ``Commit`` is what ``Game.issue`` answers: the batch as logged and its
steps, made from the states the rules folded while deciding, so nobody folds
the same events twice.
"""

from __future__ import annotations

from typing import NamedTuple

from attrs import frozen

from core.events.base import Event
from core.events.codec import Batch
from core.projections.state import GameState


@frozen
class Step:
    """One event of a log with the states around it (``before`` is PREGAME for the first)."""

    seq: int
    event: Event
    batch: Batch
    before: GameState
    after: GameState
    undone: bool = False  # the event's command was later undone


class Commit(NamedTuple):
    """A command's batch as logged, with the state before it and after each of its events.

    A named tuple, not an attrs class: one is made for every command issued, and
    its steps only when someone asks for them.
    """

    batch: Batch
    before: GameState  # PREGAME before the game's opening command
    afters: tuple[GameState, ...]  # the effective state after each event

    @classmethod
    def of(cls, batch: Batch, before: GameState, afters: tuple[GameState, ...]) -> Commit:
        """``Commit(batch, before, afters)``, made without the named tuple's Python-level
        ``__new__`` (one is made for every command a bot issues)."""
        return _new_tuple(cls, (batch, before, afters))

    def __repr__(self) -> str:
        return f"Commit({self.batch!r})"

    @property
    def events(self) -> tuple[Event, ...]:
        """The events the command caused."""
        return self.batch.events

    @property
    def seq(self) -> int:
        """The seq of the batch's first event."""
        return self.batch.seq

    @property
    def end(self) -> int:
        """The seq after the batch's last event."""
        return self.batch.end

    @property
    def after(self) -> GameState:
        """The effective state once the whole batch is applied."""
        return self.afters[-1] if self.afters else self.before

    @property
    def steps(self) -> tuple[Step, ...]:
        """Each event with the states before and after it."""
        batch, before, steps = self.batch, self.before, []
        for i, (event, after) in enumerate(zip(batch.events, self.afters, strict=True)):
            steps.append(Step(batch.seq + i, event, batch, before, after))
            before = after
        return tuple(steps)


_new_tuple = tuple.__new__

__all__ = ["Commit", "Step"]
