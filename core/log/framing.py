"""The log's byte format: preamble, checksummed frames, and the scan that checks them.

This module is pure (bytes in, records or an error out) so the same code serves
files, web uploads and fuzzing. The format is specified in ``docs/reference/log-format.md``;
in short::

    b"DMLOG" <version: 1 byte> b"\\r\\n"
    frame*   where frame = u32le length, u32le crc32(length bytes), payload, u32le crc32(payload)

Frame 0 is the header (a msgpack map); frames 1.. are the game's batches, which
are opaque bytes here. Every byte is covered by a check, so damage is always
reported (as ``LogDamaged``) and never replayed; the one case reported as
``TornRecord`` is a file that simply ends before its final frame does, the
footprint of a crash mid-append, which is safe to drop on request (never the
header or the first batch: a log is created holding both).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable, Mapping
from typing import Any, Final, NamedTuple

import attrs
import msgpack

from core.errors import LogDamaged, LogError, LogVersionError, TornRecord

#: The newest format version this program reads and the one it writes.
FORMAT_VERSION: Final = 1
#: The largest payload a frame may declare; anything larger is damage, not a real record.
MAX_PAYLOAD: Final = 16 * 1024 * 1024
#: The largest header record: real ones are a few hundred bytes, and a hostile one
#: must not make the reader build millions of objects before it is refused.
MAX_HEADER: Final = 64 * 1024

MAGIC: Final = b"DMLOG"
#: ``\r\n`` ends the preamble so a text-mode transfer that rewrites newlines is caught at once.
PREAMBLE: Final = MAGIC + bytes([FORMAT_VERSION]) + b"\r\n"
PREAMBLE_SIZE: Final = len(PREAMBLE)
#: Length (4 bytes), its CRC (4 bytes) before the payload, payload CRC (4 bytes) after it.
FRAME_HEADER_SIZE: Final = 8
FRAME_OVERHEAD: Final = 12

_FRAME_HEADER = struct.Struct("<II")
_U32 = struct.Struct("<I")


def encode_frame(payload: bytes) -> bytes:
    """One frame around ``payload``; raises ``ValueError`` (writing nothing) if it is too big."""
    length = len(payload)
    if length > MAX_PAYLOAD:
        raise ValueError(f"record of {length} bytes exceeds the limit ({MAX_PAYLOAD})")
    length_bytes = _U32.pack(length)
    return b"".join(
        (
            length_bytes,
            _U32.pack(zlib.crc32(length_bytes)),
            payload,
            _U32.pack(zlib.crc32(payload)),
        )
    )


def encode_header(header: Mapping[str, Any]) -> bytes:
    """The header payload: the caller's map with ``"format"`` (first) set to this version."""
    if not isinstance(header, Mapping):
        raise TypeError(f"log header must be a map, not {type(header).__name__}")
    fields = {k: v for k, v in header.items() if k != "format"}
    return msgpack.packb({"format": FORMAT_VERSION, **fields}, use_bin_type=True)


def encode_log(header: Mapping[str, Any], payloads: Iterable[bytes] = ()) -> bytes:
    """A whole log file's bytes: the preamble, the header frame, then a frame per payload."""
    frames = [encode_frame(encode_header(header)), *map(encode_frame, payloads)]
    return PREAMBLE + b"".join(frames)


class Tail(NamedTuple):
    """A final frame the file ends inside of: ``have`` of the ``need`` bytes are present."""

    offset: int
    record: int
    have: int
    need: int


class Frames(NamedTuple):
    """The complete, verified frames found by ``scan_frames`` (offsets are absolute)."""

    payloads: list[bytes]
    offsets: list[int]
    end: int
    record: int  # the record number of the next frame (the first not returned)
    tail: Tail | None


def scan_frames(
    data: bytes | memoryview,
    pos: int,
    record: int,
    path: str,
    *,
    base: int = 0,
    stop_record: int = -1,
) -> Frames:
    """Verify frames in ``data`` from ``pos`` (record number ``record``) to the end.

    Stops early before ``stop_record`` if given. Damage raises ``LogDamaged``; a
    frame cut short by the end of ``data`` is returned as ``tail`` instead, and
    the caller decides whether that is torn, tolerable or fatal. ``base`` is the
    file offset of ``data[0]``, so errors and offsets name real file positions.
    This is the replay hot path: one pass, memoryview slices, one copy per payload.
    """
    mv = memoryview(data)
    size = len(mv)
    crc32 = zlib.crc32
    unpack_header = _FRAME_HEADER.unpack_from
    unpack_u32 = _U32.unpack_from
    payloads: list[bytes] = []
    offsets: list[int] = []
    tail = None
    while pos < size and record != stop_record:
        if size - pos < FRAME_HEADER_SIZE:
            tail = Tail(base + pos, record, size - pos, FRAME_HEADER_SIZE)
            break
        length, header_crc = unpack_header(mv, pos)
        if crc32(mv[pos : pos + 4]) != header_crc:
            raise LogDamaged(path, base + pos, record, "frame header checksum mismatch")
        if length > MAX_PAYLOAD:
            reason = f"record length {length} exceeds the limit ({MAX_PAYLOAD})"
            raise LogDamaged(path, base + pos, record, reason)
        start = pos + FRAME_HEADER_SIZE
        stop = start + length
        if stop + 4 > size:
            tail = Tail(base + pos, record, size - pos, length + FRAME_OVERHEAD)
            break
        payload = mv[start:stop]
        if crc32(payload) != unpack_u32(mv, stop)[0]:
            raise LogDamaged(path, base + pos, record, "payload checksum mismatch")
        payloads.append(bytes(payload))
        offsets.append(base + pos)
        pos = stop + 4
        record += 1
    return Frames(payloads, offsets, base + pos, record, tail)


def torn_error(path: str, tail: Tail) -> TornRecord:
    """The ``TornRecord`` describing ``tail``."""
    reason = f"incomplete final record ({tail.have} of {tail.need} bytes)"
    return TornRecord(path, tail.offset, tail.record, reason)


def check_preamble(data: bytes | memoryview, path: str) -> int:
    """Check the 8-byte preamble and return its format version.

    A file that is a strict prefix of a preamble (empty included: a crash right
    after creating it) is damage; one that does not start like a log is not a log.
    """
    head = bytes(data[:PREAMBLE_SIZE])
    if head[:5] != MAGIC[: len(head)]:
        raise LogError(f"{path}: not a Dice Miner log")
    if len(head) > 5:
        version = head[5]
        if version > FORMAT_VERSION:
            raise LogVersionError(
                f"{path}: log format version {version} is newer than this program reads "
                f"({FORMAT_VERSION}); upgrade dice-miner"
            )
        if version < 1:
            raise LogDamaged(path, 0, 0, "preamble names format version 0, which never existed")
    if len(head) < PREAMBLE_SIZE:
        raise LogDamaged(path, 0, 0, f"incomplete preamble ({len(head)} of {PREAMBLE_SIZE} bytes)")
    if head[6:] != b"\r\n":
        raise LogDamaged(path, 0, 0, "preamble does not end in CR LF (was it copied as text?)")
    return head[5]


def decode_header(payload: bytes, version: int, path: str) -> dict[str, Any]:
    """Decode the header record (record 0), which must be a msgpack map naming its format."""
    offset = PREAMBLE_SIZE
    limit = len(payload)  # no declared size may exceed the bytes actually present
    if limit > MAX_HEADER:
        raise LogDamaged(
            path, offset, 0, f"header of {limit} bytes exceeds the limit ({MAX_HEADER})"
        )
    try:
        header = msgpack.unpackb(
            payload,
            raw=False,
            strict_map_key=True,
            max_str_len=limit,
            max_bin_len=limit,
            max_array_len=limit,
            max_map_len=limit,
            max_ext_len=limit,
        )
    except Exception as exc:  # msgpack raises several unrelated types for bad input
        reason = f"header is not valid msgpack ({str(exc) or type(exc).__name__})"
        raise LogDamaged(path, offset, 0, reason) from exc
    if not isinstance(header, dict):
        raise LogDamaged(path, offset, 0, f"header is a {type(header).__name__}, not a map")
    if "format" not in header:
        raise LogDamaged(path, offset, 0, 'header has no "format" field')
    fmt = header["format"]
    if type(fmt) is not int or fmt != version:
        raise LogDamaged(
            path, offset, 0, f'header "format" {fmt!r} does not match preamble version {version}'
        )
    return header


@attrs.frozen
class LogScan:
    """A whole log, verified: its header and the batch payloads (records 1..) in order."""

    path: str
    header: dict[str, Any]
    #: Batch payloads, record 1 onwards (the header is not included).
    payloads: tuple[bytes, ...]
    #: The byte offset of each batch frame's start, parallel to ``payloads``.
    offsets: tuple[int, ...]
    #: The byte offset just after the last good record.
    end: int
    #: Set only when read with ``drop_torn=True`` and the final record was torn.
    torn: TornRecord | None
    #: The number of bytes read; ``size - end`` is the torn tail's length (0 if none).
    size: int

    @property
    def records(self) -> int:
        """The number of batch records (the header excluded)."""
        return len(self.payloads)


def read_log_bytes(
    data: bytes | bytearray | memoryview, *, path: str = "<memory>", drop_torn: bool = False
) -> LogScan:
    """Verify and decode a whole log held in memory.

    Raises ``LogError`` (or a subclass) for anything but a good log. With
    ``drop_torn`` a torn final batch record is reported in ``LogScan.torn``
    rather than raised; no other damage is ever tolerated. A torn header is
    damage because there is no log left to keep, and so is a file ending inside
    its first batch record: a log is created holding it (``LogWriter.create``
    writes header and first records in one step), so no crash can cut it.
    """
    mv = memoryview(data)
    version = check_preamble(mv, path)
    first = scan_frames(mv, PREAMBLE_SIZE, 0, path, stop_record=1)
    if first.tail is not None or not first.payloads:
        have, need = (first.tail.have, first.tail.need) if first.tail else (0, FRAME_HEADER_SIZE)
        reason = f"incomplete header record ({have} of {need} bytes)"
        raise LogDamaged(path, PREAMBLE_SIZE, 0, reason)
    header = decode_header(first.payloads[0], version, path)
    rest = scan_frames(mv, first.end, 1, path)
    torn = None
    if rest.tail is not None:
        if rest.tail.record == 1:
            reason = f"incomplete first batch record ({rest.tail.have} of {rest.tail.need} bytes)"
            raise LogDamaged(path, rest.tail.offset, 1, reason)
        torn = torn_error(path, rest.tail)
        if not drop_torn:
            raise torn
    return LogScan(
        path=path,
        header=header,
        payloads=tuple(rest.payloads),
        offsets=tuple(rest.offsets),
        end=rest.end,
        torn=torn,
        size=len(mv),
    )
