"""One converter between events (and commands) and msgpack: the only place in core
besides the log file code that knows msgpack.

A batch is what one command caused. Its payload in the log is the msgpack map

    {"seq": first event's seq, "cmd": COMMAND, "events": [EVENT, ...]}

where COMMAND and EVENT are maps of their fields plus ``"t"`` (the stable tag)
and, for events, ``"v"`` (the schema version). Older versions are upcast on
reading (``core.events.upcasters``).
"""

from __future__ import annotations

from typing import Any

import msgpack
from attrs import frozen
from cattrs.preconf.msgpack import make_converter

from core.commands import COMMAND_TYPES, Command
from core.errors import EventFormatError, EventVersionError
from core.events.base import EVENT_TYPES, Event
from core.events.upcasters import upcast

converter = make_converter()


def _exactly(kind: type):
    """A structure hook accepting only values of exactly ``kind`` (no ``bool`` for ``int``).

    cattrs would otherwise convert: ``int(1e30)``, ``str([1])``, ``bool("no")``. A log
    is untrusted input, and such a value would replay into nonsense or fail later.
    """

    def structure(value: Any, _: type) -> Any:
        if type(value) is not kind:
            raise TypeError(f"expected {kind.__name__}, not {type(value).__name__} {value!r:.40}")
        return value

    return structure


for _kind in (int, str, bool):
    converter.register_structure_hook(_kind, _exactly(_kind))

#: The largest batch payload written or read. Real batches are at most a few KB
#: (a round's end with its refill); the cap bounds what a hostile record can make
#: the decoder build (a few MB of objects at most), whatever the frame allows.
MAX_BATCH_BYTES = 256 * 1024

#: Limits for untrusted payloads, so a hostile record cannot ask for huge buffers.
_UNPACK_LIMITS = dict(
    max_str_len=1 << 16,
    max_bin_len=1 << 16,
    max_array_len=1 << 16,
    max_map_len=1 << 10,
    max_ext_len=0,
)


@frozen
class Batch:
    """The events one command caused, with that command (the envelope)."""

    seq: int
    command: Command
    events: tuple[Event, ...]

    @property
    def end(self) -> int:
        """The seq just after this batch's last event."""
        return self.seq + len(self.events)


def event_to_dict(event: Event) -> dict[str, Any]:
    """An event as a plain map with its tag ``t`` and schema version ``v``."""
    data = converter.unstructure(event)
    data["t"] = event.TAG
    data["v"] = event.VERSION
    return data


def event_from_dict(data: dict[str, Any]) -> Event:
    """The event a plain map describes, upcast to the current schema."""
    if not isinstance(data, dict):
        raise EventFormatError(f"not an event of a known type: {data!r:.80}")
    try:
        fields = dict(data)
        tag = fields.pop("t")
        version = fields.pop("v", 1)
        cls = EVENT_TYPES[tag]
    except (KeyError, TypeError, AttributeError):
        raise EventFormatError(f"not an event of a known type: {data!r:.80}") from None
    if type(version) is not int:
        raise EventFormatError(f"{tag} schema version {version!r} is not a number")
    if version > cls.VERSION:
        raise EventVersionError(
            f"{tag} schema version {version} is newer than this program reads ({cls.VERSION})"
        )
    try:
        if version < cls.VERSION:
            fields = upcast(tag, version, cls.VERSION, fields)
        return converter.structure(fields, cls)
    except Exception as exc:  # cattrs raises several types; all mean a bad record
        raise EventFormatError(f"bad {tag} event: {exc}") from None


def command_to_dict(command: Command) -> dict[str, Any]:
    """A command as a plain map with its tag ``t``."""
    data = converter.unstructure(command)
    data["t"] = command.TAG
    return data


def command_from_dict(data: dict[str, Any]) -> Command:
    """The command a plain map describes; raises EventFormatError if it is not one."""
    try:
        fields = dict(data)
        cls = COMMAND_TYPES[fields.pop("t")]
        return converter.structure(fields, cls)
    except Exception as exc:
        raise EventFormatError(f"not a valid command: {exc}") from None


def encode_batch(batch: Batch) -> bytes:
    """The msgpack payload of a batch (ValueError if it is too big to be read back)."""
    payload = msgpack.packb(
        {
            "seq": batch.seq,
            "cmd": command_to_dict(batch.command),
            "events": [event_to_dict(e) for e in batch.events],
        },
        use_bin_type=True,
    )
    if len(payload) > MAX_BATCH_BYTES:
        raise ValueError(f"batch of {len(payload)} bytes exceeds the limit ({MAX_BATCH_BYTES})")
    return payload


def decode_batch(payload: bytes) -> Batch:
    """The batch a payload holds; raises EventFormatError on anything malformed."""
    if len(payload) > MAX_BATCH_BYTES:
        raise EventFormatError(
            f"batch of {len(payload)} bytes exceeds the limit ({MAX_BATCH_BYTES})"
        )
    try:
        data = msgpack.unpackb(payload, raw=False, **_UNPACK_LIMITS)
        seq, cmd, events = data["seq"], data["cmd"], data["events"]
    except Exception as exc:
        raise EventFormatError(f"not a batch of events: {exc}") from None
    if not isinstance(seq, int) or seq < 0 or not isinstance(events, list):
        raise EventFormatError("batch has a bad seq or event list")
    return Batch(seq, command_from_dict(cmd), tuple(event_from_dict(e) for e in events))
