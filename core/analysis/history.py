"""The decisions of a game's final history, read from its batches.

A decision is an effective command after the game's opening: the move a seat
made, with the state it was made from (all the mover could see) and the state
it led to. Commands later undone are not decisions of the final game: they are
listed apart (``Undone``), as are the undos themselves, and neither is valued.
The command issued after an undo in the same place is the decision that stands.
The table's commands (a branch's fact, a seat handed to a bot, a secret revealed:
``Command.BY_TABLE``) are no one's decisions either: they change no position.
"""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen

from core.commands import Command, Undo
from core.events.codec import Batch
from core.projections.state import GameState
from core.projections.timeline import replay


@frozen
class Decision:
    """One effective command: its batch's first seq and end, its place in the history."""

    depth: int  # the history depth the command was issued at (the game's start is 1)
    seq: int  # seq of the batch's first event
    end: int  # seq after the batch's last event
    command: Command
    before: GameState  # PREGAME for the opening
    after: GameState


@frozen
class Undone:
    """A logged command that does not stand: undone later, or an undo itself."""

    seq: int
    end: int
    command: Command
    undo: bool  # True for an undo command


@frozen
class History:
    """The opening, the decisions in order, and the commands that do not stand."""

    opening: Decision  # the NewGame command's batch (no one's decision)
    decisions: tuple[Decision, ...]
    undone: tuple[Undone, ...]

    @property
    def final(self) -> GameState:
        """The state the log ends in."""
        return self.decisions[-1].after if self.decisions else self.opening.after


def history(batches: Sequence[Batch]) -> History:
    """The effective history of ``batches`` (a log's, in order)."""
    timeline = replay(batches)
    ends = {batch.seq: batch.end for batch in batches}
    steps = []
    frame = timeline.top
    while frame.below is not None:  # every frame but the origin, newest first
        assert frame.command is not None, "only the origin frame has no command"
        end = ends[frame.batch_seq]
        steps.append(
            Decision(
                frame.depth, frame.batch_seq, end, frame.command, frame.below.state, frame.state
            )
        )
        frame = frame.below
    steps.reverse()
    standing = {step.seq for step in steps}
    undone = tuple(
        Undone(b.seq, b.end, b.command, isinstance(b.command, Undo))
        for b in batches
        if b.seq not in standing
    )
    decisions = tuple(step for step in steps[1:] if not step.command.BY_TABLE)
    return History(steps[0], decisions, undone)


__all__ = ["Decision", "History", "Undone", "history"]
