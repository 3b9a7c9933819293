"""Salvage: the longest good beginning of a damaged log, written to a new file.

Repair removes only a torn final record; any other damage (a byte flipped before
the last record, junk appended after it) left a log no tool could save anything
from. ``salvage_log`` keeps every record before the first damage, whatever it is
(a frame, its content, or a record that cannot be replayed), and writes them as
a new log beside the old one, which is never changed: the damaged file stays as
the evidence, and the new one opens and plays on like any other.
"""

from __future__ import annotations

import os
from pathlib import Path

from attrs import frozen

from core.errors import EventFormatError, EventVersionError, LogDamaged, LogError
from core.events.codec import decode_record
from core.log import LogWriter
from core.log.framing import PREAMBLE_SIZE, check_preamble, decode_header, scan_frames
from core.projections.state import PREGAME
from core.projections.timeline import Timeline


@frozen
class Salvage:
    """What ``salvage_log`` kept: ``kept`` of the log's ``records`` batch records
    (``records`` counts those up to the damage, which is at ``offset`` for ``reason``;
    ``reason`` is "" when there was none), holding ``events`` events."""

    kept: int
    events: int
    offset: int
    record: int
    reason: str


def salvage_log(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> Salvage:
    """Write the records of ``source`` before its first damage as the new log ``target``
    (never overwritten). Raises ``LogError`` if not even the header and the game's
    opening record are good: then there is nothing to play on from."""
    name = os.fspath(source)
    with open(name, "rb") as f:
        data = f.read()
    version = check_preamble(data, name)
    head = scan_frames(data, PREAMBLE_SIZE, 0, name, stop_record=1)
    if head.tail is not None or not head.payloads:
        raise LogDamaged(name, PREAMBLE_SIZE, 0, "the header record is incomplete")
    header = decode_header(head.payloads[0], version, name)
    payloads, offset, record, reason = _good_frames(data, head.end, name)
    kept, events, why = _replayable(payloads)
    if kept < len(payloads):
        record, reason = kept + 1, why
        offset = _offset_of(data, head.end, kept)
    if kept == 0:
        raise LogError(f"{name}: nothing to salvage: its first record is damaged ({reason})")
    LogWriter.create(Path(target), header, first=payloads[:kept]).close()
    return Salvage(kept, events, offset, record, reason)


def _good_frames(data: bytes, pos: int, name: str) -> tuple[list[bytes], int, int, str]:
    """The whole, checksummed batch frames from ``pos`` up to the first damage, with where
    it is and why (an offset past the end and "" when there is none)."""
    payloads: list[bytes] = []
    record = 1
    while pos < len(data):
        try:
            frames = scan_frames(data, pos, record, name, stop_record=record + 1)
        except LogDamaged as exc:
            return payloads, exc.offset, exc.record, exc.reason
        if frames.tail is not None:
            have, need = frames.tail.have, frames.tail.need
            return payloads, pos, record, f"incomplete final record ({have} of {need} bytes)"
        payloads += frames.payloads
        pos, record = frames.end, record + 1
    return payloads, pos, record, ""


def _replayable(payloads: list[bytes]) -> tuple[int, int, str]:
    """How many of ``payloads`` decode, run on and replay in order; the events they hold,
    and why the next does not."""
    timeline = Timeline()
    for n, payload in enumerate(payloads):
        try:
            batch, _ = decode_record(payload)
        except (EventFormatError, EventVersionError) as exc:
            return n, timeline.seq, str(exc)
        if batch.seq != timeline.seq:
            return n, timeline.seq, f"batch starts at seq {batch.seq}, expected {timeline.seq}"
        try:
            after = timeline.apply_batch(batch)
        except Exception as exc:  # whatever a forged record makes the fold raise
            return n, timeline.seq, f"cannot be replayed ({exc})"
        if after.state is PREGAME:
            return n, timeline.seq, "the log ends after its header: it holds no game"
        timeline = after
    return len(payloads), timeline.seq, ""


def _offset_of(data: bytes, pos: int, records: int) -> int:
    """The byte offset of batch frame number ``records + 1`` (frames known good)."""
    for _ in range(records):
        pos += int.from_bytes(data[pos : pos + 4], "little") + 12
    return pos


__all__ = ["Salvage", "salvage_log"]
