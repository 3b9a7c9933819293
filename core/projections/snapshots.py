"""Seeking in a log: timelines kept every few events, so any position is a short fold away.

A ``SnapshotIndex`` replays a log's batches once and keeps the timeline as it
stood before the first batch starting at or after every ``every`` events. The
state after the first N events is then the nearest snapshot at or before N plus
fewer than ``every`` events (or one batch's worth) folded: the same cost at the
start of a 100,000-event log as at its end. Timelines and states are immutable
and share structure, so a snapshot costs a few references, not a copy.

Undo needs nothing special: a snapshot is a whole timeline (the undo stack
included), and ``Timeline.apply_batch`` folds ``CommandUndone`` batches.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from core.events.codec import Batch
from core.projections.state import GameState
from core.projections.timeline import Timeline, UnreplayableBatch

#: Events between two snapshots (the web viewer's default).
SNAPSHOT_EVERY = 16


class SnapshotIndex:
    """A log's batches with a timeline snapshot every ``every`` events, for seeking."""

    def __init__(self, batches: Sequence[Batch], every: int = SNAPSHOT_EVERY) -> None:
        """Replay ``batches`` once; a batch that cannot be applied raises ``UnreplayableBatch``."""
        if every < 1:
            raise ValueError(f"snapshots need a positive spacing, not {every}")
        self.batches = batches
        self.every = every
        seqs: list[int] = []  # the seq each snapshot stands at
        indices: list[int] = []  # the batch the fold continues with
        timelines: list[Timeline] = []
        timeline, due = Timeline(), 0
        for index, batch in enumerate(batches):
            if batch.seq >= due:
                seqs.append(batch.seq)
                indices.append(index)
                timelines.append(timeline)
                due = batch.seq + every
            try:
                timeline = timeline.apply_batch(batch)
            except Exception as exc:
                raise UnreplayableBatch(index, exc) from exc
        self._seqs = seqs
        self._indices = indices
        self._timelines = timelines
        #: The timeline after every batch.
        self.final = timeline
        #: The number of events in the log.
        self.total = timeline.seq

    def __len__(self) -> int:
        """How many snapshots are kept."""
        return len(self._seqs)

    def timeline_at(self, position: int) -> Timeline:
        """The timeline after the first ``position`` events (0 to ``total``)."""
        if not 0 <= position <= self.total:
            raise ValueError(f"position {position} is outside 0..{self.total}")
        if position == self.total:
            return self.final
        k = bisect_right(self._seqs, position - 1) - 1
        if k < 0:
            return Timeline()
        timeline = self._timelines[k]
        batches = self.batches
        for index in range(self._indices[k], len(batches)):
            batch = batches[index]
            if batch.seq >= position:
                break
            timeline = timeline.apply_batch(batch, position)
        return timeline

    def state_at(self, position: int) -> GameState:
        """The state after the first ``position`` events (``PREGAME`` before any)."""
        return self.timeline_at(position).state


__all__ = ["SNAPSHOT_EVERY", "SnapshotIndex", "UnreplayableBatch"]
