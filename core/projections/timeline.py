"""The game's effective history, which is how undo works without rewriting the log.

Each command's batch of events is folded onto the state before it, and that
earlier state is kept beneath the new one (a persistent stack: states share
structure, so keeping them is cheap). ``CommandUndone`` pops the stack, so
projections skip what was undone. The global ``seq`` keeps counting: the log
only ever grows.

A branch of another game (``core.branch``) is the parent's first batches and then
the table's fact ``BranchGame``. That fact begins the branch's own history:
nothing at or below it can be undone (undo stops at the branch point, so the
branch's first events stay the parent's), and it is no step of the game: the
commands after it stand at the depths the parent's did, so each rolls from the
stream the parent's command there rolled from, and a bot decides with the
generator it had there.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from core.commands import BranchGame, Command, Undo
from core.events.base import Event
from core.events.codec import Batch
from core.events.game import CommandUndone
from core.projections.apply import fold
from core.projections.state import PREGAME, GameState


class Frame(NamedTuple):
    """One effective command: the state after it, and the frame before it.

    Frames and timelines are named tuples, not attrs classes: one of each is made
    for every command issued and every batch replayed, and a tuple is the
    cheapest immutable record to make. Those hot paths make them with
    ``tuple.__new__`` directly, without the named tuple's Python-level ``__new__``.
    """

    state: GameState  # PREGAME at the origin
    batch_seq: int  # seq of the first event of the command's batch
    depth: int  # effective commands so far (the game's start is depth 1; a branch's fact: 0)
    below: Frame | None  # None at the origin only
    command: Command | None = None  # the command that led to ``state``


ORIGIN = Frame(state=PREGAME, batch_seq=-1, depth=0, below=None)


class Timeline(NamedTuple):
    """The current effective state plus what undo can return to."""

    top: Frame = ORIGIN
    seq: int = 0  # the seq the next event will get

    @property
    def state(self) -> GameState:
        """The current state (``PREGAME`` before the game started)."""
        return self.top.state

    @property
    def depth(self) -> int:
        """How many commands stand in the effective history (a branch's fact aside)."""
        return self.top.depth

    def can_undo(self) -> bool:
        """True if there is a command after the game's start (or its branch point) to undo."""
        return not begins_history(self.top)

    def commands(self) -> list[Command]:
        """The effective history's commands from its beginning (the game's start, or a
        branch's fact), oldest first, undone ones left out: those undo may reach."""
        found: list[Command] = []
        frame: Frame | None = self.top
        while frame is not None and frame.command is not None:
            found.append(frame.command)
            if begins_history(frame):
                break
            frame = frame.below
        return found[::-1]

    def apply_batch(self, batch: Batch, upto: int | None = None) -> Timeline:
        """The timeline after a batch, or after only its events before seq ``upto``."""
        events = batch.events if upto is None else batch.events[: max(0, upto - batch.seq)]
        if not events and isinstance(batch.command, Undo) and batch.seq == self.seq:
            return self  # an undo cut off before its event has done nothing yet
        return Timeline(*_step(self.top, self.seq, batch, events))

    def apply_batches(self, batches: Iterable[Batch]) -> Timeline:
        """The timeline after each batch in turn: ``apply_batch`` for each, in one loop.

        Replaying a log is mostly this loop, so the timelines in between are not built.
        A batch that cannot be applied raises ``UnreplayableBatch`` with its index.
        """
        top, seq = self.top, self.seq
        for index, batch in enumerate(batches):
            try:
                top, seq = _step(top, seq, batch, batch.events)
            except Exception as exc:  # e.g. a crafted record naming a slot that does not exist
                raise UnreplayableBatch(index, exc) from exc
        return Timeline(top, seq)


class UnreplayableBatch(ValueError):
    """A batch the timeline refused; ``index`` is its place among the batches given."""

    def __init__(self, index: int, cause: Exception) -> None:
        super().__init__(f"batch {index} cannot be replayed ({cause})")
        self.index = index
        self.cause = cause


def begins_history(frame: Frame) -> bool:
    """True for the frame of a game's start or of a branch's fact: undo goes no further."""
    return frame.depth <= 1 or type(frame.command) is BranchGame


def _step(top: Frame, seq: int, batch: Batch, events: tuple[Event, ...]) -> tuple[Frame, int]:
    """The top frame and next seq after ``events``, the first events of ``batch``."""
    if batch.seq != seq:
        raise ValueError(f"batch starts at seq {batch.seq}, expected {seq}")
    if isinstance(batch.command, Undo):
        if not events:
            return top, seq
        below = top.below
        if below is None or events != (CommandUndone(top.batch_seq),) or begins_history(top):
            raise ValueError(f"undo batch at seq {batch.seq} does not undo the last command")
        return below, batch.end
    state = fold(events, top.state)
    command = batch.command
    depth = top.depth + (type(command) is not BranchGame)  # a branch's fact is no step
    frame = _new_tuple(Frame, (state, seq, depth, top, command))
    return frame, seq + len(events)


def push(timeline: Timeline, batch: Batch, state: GameState) -> Timeline:
    """The timeline after an ordinary command's batch whose resulting ``state`` is known.

    The rules fold each event while deciding; pushing that state saves folding
    the batch a second time. ``apply_batch`` must give the same result.
    """
    if batch.seq != timeline.seq:
        raise ValueError(f"batch starts at seq {batch.seq}, expected {timeline.seq}")
    top, command = timeline.top, batch.command
    depth = top.depth + (type(command) is not BranchGame)  # a branch's fact is no step
    frame = _new_tuple(Frame, (state, batch.seq, depth, top, command))
    return _new_tuple(Timeline, (frame, batch.end))


_new_tuple = tuple.__new__


def replay(batches: Iterable[Batch], upto: int | None = None) -> Timeline:
    """The timeline after the batches' events before seq ``upto`` (all of them by default)."""
    if upto is None:
        return Timeline().apply_batches(batches)
    timeline = Timeline()
    for batch in batches:
        if batch.seq >= upto:
            break
        timeline = timeline.apply_batch(batch, upto)
    return timeline
