"""One converter between events (and commands) and msgpack: the only place in core
besides the log file code that knows msgpack.

A batch is what one command caused. Its payload in the log is the msgpack map

    {"seq": first event's seq, "cmd": COMMAND, "events": [EVENT, ...]}

where COMMAND and EVENT are maps of their fields plus ``"t"`` (the stable tag)
and, for events, ``"v"`` (the schema version). Older versions are upcast on
reading (``core.events.upcasters``).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, TypedDict, TypeVar

import attrs
import msgpack
from attrs import frozen
from cattrs.preconf.msgpack import make_converter

from core.commands import COMMAND_TYPES, Command
from core.errors import EventFormatError, EventVersionError
from core.events import strict
from core.events.base import EVENT_TYPES, Event
from core.events.ranges import check_ranges
from core.events.upcasters import upcast

#: The one converter, with the strict hooks of ``core.events.strict``: each field of
#: exactly its type. Errors are reported as the first bad field's (wrapped in
#: EventFormatError), so cattrs' slower per-field error collection is off.
converter = make_converter(detailed_validation=False)


def _is_record(kind: Any) -> bool:
    """The classes written into a log: events and commands."""
    return isinstance(kind, type) and issubclass(kind, (Event, Command)) and attrs.has(kind)


strict.install(converter, _is_record)

#: Per class, the converter's unstructuring function; per tag, the class and its
#: structuring function: looked up once, as a log is read record by record.
_UNSTRUCTURE: dict[type, Callable[[Any], dict[str, Any]]] = {}
#: (The structuring functions are ``core.events.strict``'s: ``structure(data, _type=None)``.)
_EVENTS: dict[str, tuple[type[Event], Callable[..., Event]]] = {}
_COMMANDS: dict[str, tuple[type[Command], Callable[..., Command]]] = {}

Record = TypeVar("Record", Event, Command)


def _unstructurer(cls: type) -> Callable[[Any], dict[str, Any]]:
    hook = _UNSTRUCTURE.get(cls)
    if hook is None:
        hook = _UNSTRUCTURE[cls] = converter.get_unstructure_hook(cls)
    return hook


def _record_type(
    tag: Any,
    cache: dict[str, tuple[type[Record], Callable[..., Record]]],
    types: Mapping[str, type[Record]],
) -> tuple[type[Record], Callable[..., Record]]:
    """The class registered under ``tag`` and its structuring function (KeyError if none)."""
    found = cache.get(tag)
    if found is None:
        cls = types[tag]
        found = cache[tag] = (cls, converter.get_structure_hook(cls))
    return found


#: The largest batch payload written or read. Real batches are at most a few KB
#: (a round's end with its refill); the cap bounds what a hostile record can make
#: the decoder build (a few MB of objects at most), whatever the frame allows.
MAX_BATCH_BYTES = 256 * 1024


#: Limits for untrusted payloads, so a hostile record cannot ask for huge buffers.
class _Limits(TypedDict):
    max_str_len: int
    max_bin_len: int
    max_array_len: int
    max_map_len: int
    max_ext_len: int


_UNPACK_LIMITS = _Limits(
    max_str_len=1 << 16,
    max_bin_len=1 << 16,
    max_array_len=1 << 16,
    max_map_len=1 << 10,
    max_ext_len=0,
)


@frozen(slots=False)  # an instance dict: attrs' __init__ fills it faster than slots
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
    cls = type(event)
    data = _unstructurer(cls)(event)
    data["t"] = cls.TAG
    data["v"] = cls.VERSION
    return data


def event_from_dict(data: dict[str, Any]) -> Event:
    """The event a plain map describes, upcast to the current schema."""
    try:
        tag = data["t"]
        cls, structure = _EVENTS.get(tag) or _record_type(tag, _EVENTS, EVENT_TYPES)
    except (KeyError, TypeError, AttributeError):  # not a map, no tag, an unknown tag
        if not EVENT_TYPES:  # a program's mistake, not the record's: say it as one
            raise RuntimeError("no event is known: install the game modes (core.modes)") from None
        raise _unknown("event", data, f"not an event of a known type: {data!r:.80}") from None
    try:
        version = data["v"]
    except KeyError:  # every event ever written carries its version
        raise EventFormatError(f'bad {tag} event: no schema version field "v"') from None
    if type(version) is not int or version != cls.VERSION:
        data = _older(cls, version, data)
    try:
        event = structure(data)
        check_ranges(event)
    except Exception as exc:  # a missing field, one of the wrong type or out of its range
        raise EventFormatError(f"bad {cls.TAG} event: {_reason(exc)}") from None
    return event


def _older(cls: type[Event], version: Any, data: dict[str, Any]) -> dict[str, Any]:
    """An event map written at an older schema, upcast to the current one (or refused)."""
    tag = cls.TAG
    if type(version) is not int:
        raise EventFormatError(f"{tag} schema version {version!r} is not a number")
    if version > cls.VERSION:
        raise EventVersionError(
            f"{tag} schema version {version} is newer than this program reads ({cls.VERSION})"
        )
    try:
        fields = {k: v for k, v in data.items() if k != "t" and k != "v"}
        return upcast(tag, version, cls.VERSION, fields)
    except Exception as exc:
        reason = f"cannot upcast it from version {version} ({exc!r})"
        raise EventFormatError(f"bad {tag} event: {reason}") from None


#: What a tag looks like: a newer program's new event or command type has one.
_TAG_SHAPE = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}")


def _unknown(kind: str, data: Any, otherwise: str) -> EventFormatError:
    """A record this program cannot name: from a newer version if its tag looks like one.

    Checksums rule out a damaged tag, so a well-formed one this program lacks was
    written by a newer program (a new event type), and is reported as such.
    """
    tag = data.get("t") if isinstance(data, dict) else None
    if isinstance(tag, str) and _TAG_SHAPE.fullmatch(tag):
        return EventVersionError(
            f"{kind} type {tag!r} is newer than this program reads (it has no such {kind})"
        )
    return EventFormatError(otherwise)


def _reason(exc: Exception) -> str:
    """Why a map is not a valid record, in words."""
    if isinstance(exc, KeyError):
        return f"missing field {exc.args[0]!r}" if exc.args else "missing field"
    return str(exc)


def command_to_dict(command: Command) -> dict[str, Any]:
    """A command as a plain map with its tag ``t`` (its later fields only when set)."""
    cls = type(command)
    data = _unstructurer(cls)(command)
    for name in cls.LATER_FIELDS:
        if data[name] == _default(cls, name):
            del data[name]
    data["t"] = cls.TAG
    return data


def _default(cls: type, name: str) -> Any:
    """The default of field ``name`` of an attrs class."""
    return attrs.fields_dict(cls)[name].default


def command_from_dict(data: dict[str, Any]) -> Command:
    """The command a plain map describes; raises EventFormatError if it is not one."""
    if not isinstance(data, dict):
        raise EventFormatError(f"not a valid command: expected a map, not {type(data).__name__}")
    try:
        tag = data["t"]
    except KeyError as exc:
        raise EventFormatError(f"not a valid command: {_reason(exc)}") from None
    try:
        found = _COMMANDS.get(tag) or _record_type(tag, _COMMANDS, COMMAND_TYPES)
    except (KeyError, TypeError):  # TypeError: a tag that cannot be a key (an array)
        raise _unknown(
            "command", data, f"not a valid command: no command type {tag!r:.80}"
        ) from None
    except Exception as exc:
        raise EventFormatError(f"not a valid command: {_reason(exc)}") from None
    try:
        command = found[1](data)
        check_ranges(command)
    except Exception as exc:
        raise EventFormatError(f"not a valid command: {_reason(exc)}") from None
    return command


#: The batch record's own version: 1 is ``{"seq", "cmd", "events"}``; 2 adds
#: ``"request"``, the client's request id the batch answers (so a store kept in files
#: answers a retried request after a restart, as one kept in a database does). A record
#: without ``"v"`` is version 1, and one with no request is written so, byte for byte.
BATCH_VERSION = 2
#: The longest request id a record holds (the PostgreSQL store's column allows as many).
MAX_REQUEST = 64


def encode_batch(batch: Batch, request: str | None = None) -> bytes:
    """The msgpack payload of a batch answering ``request`` (if any): ValueError if it is
    too big to be read back, or the request id is not 1 to 64 characters."""
    record: dict[str, Any] = {
        "seq": batch.seq,
        "cmd": command_to_dict(batch.command),
        "events": [event_to_dict(e) for e in batch.events],
    }
    if request is not None:
        _check_request(request)
        record["v"] = BATCH_VERSION
        record["request"] = request
    payload = _packb(record)
    if len(payload) > MAX_BATCH_BYTES:
        raise ValueError(f"batch of {len(payload)} bytes exceeds the limit ({MAX_BATCH_BYTES})")
    return payload


def decode_batch(payload: bytes) -> Batch:
    """The batch a payload holds; raises EventFormatError on anything malformed."""
    return decode_record(payload)[0]


def decode_record(payload: bytes) -> tuple[Batch, str | None]:
    """The batch a payload holds and the request id it answers (None: none, or a
    version-1 record); raises EventFormatError on anything malformed."""
    if len(payload) > MAX_BATCH_BYTES:
        raise EventFormatError(
            f"batch of {len(payload)} bytes exceeds the limit ({MAX_BATCH_BYTES})"
        )
    try:
        data = _unpackb(payload)
        seq, cmd, events = data["seq"], data["cmd"], data["events"]
    except Exception as exc:
        raise EventFormatError(f"not a batch of events: {str(exc) or type(exc).__name__}") from None
    if type(seq) is not int or seq < 0 or type(events) is not tuple:
        raise EventFormatError("batch has a bad seq or event list")
    request = _request_of(data) if "v" in data else None
    return Batch(seq, command_from_dict(cmd), tuple(map(event_from_dict, events))), request


def _request_of(data: dict[str, Any]) -> str | None:
    """The request id of a record that names its version (upcast from an older one)."""
    version = data["v"]
    if type(version) is not int or version < 1:
        raise EventFormatError(f"batch record version {version!r} is not a number from 1")
    if version > BATCH_VERSION:
        raise EventVersionError(
            f"batch record version {version} is newer than this program reads ({BATCH_VERSION})"
        )
    fields = upcast("batch", version, BATCH_VERSION, {"request": data.get("request")})
    request = fields["request"]
    if request is not None:
        try:
            _check_request(request)
        except ValueError as exc:
            raise EventFormatError(f"bad batch record: {exc}") from None
    return request


def _check_request(request: Any) -> None:
    if type(request) is not str or not 1 <= len(request) <= MAX_REQUEST:
        raise ValueError(f"a request id is 1 to {MAX_REQUEST} characters, not {request!r:.80}")


_packers = threading.local()


def _packb(data: Any) -> bytes:
    """``msgpack.packb``, with one packer kept per thread (packb builds a new one each call)."""
    try:
        pack = _packers.pack
    except AttributeError:
        pack = _packers.pack = msgpack.Packer(use_bin_type=True, autoreset=True).pack
    return pack(data)


#: Arrays are read as tuples: the events' fields are tuples, so nothing is copied again.
_unpackb = partial(msgpack.unpackb, raw=False, use_list=False, **_UNPACK_LIMITS)
