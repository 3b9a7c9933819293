"""The log file format: exact bytes, every damage path, locking, repair and tailing.

The reference encoder/decoder here is written from docs/reference/log-format.md with only
struct, zlib and msgpack, so these tests also check that the document is enough
to read a log without this package.
"""

from __future__ import annotations

import contextlib
import errno
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import core.log.file as log_file
from core.errors import LogDamaged, LogError, LogLocked, LogVersionError, TornRecord
from core.log import (
    FORMAT_VERSION,
    MAX_HEADER,
    MAX_PAYLOAD,
    LogScan,
    LogWriter,
    RepairResult,
    follow_log,
    read_log,
    read_log_bytes,
    repair_log,
)

REPO = Path(__file__).resolve().parents[2]
HEADER = {"dice_set": "standard-d1", "rules": {"variant": "base"}, "game_id": "g-1", "mode": "solo"}
PAYLOADS = [b"first batch", b"", b"\x93\x01\x02\x03 third"]


# --- a reference implementation of the documented format ---------------------------


def ref_frame(payload: bytes, *, length: int | None = None) -> bytes:
    n = len(payload) if length is None else length
    lb = struct.pack("<I", n)
    return lb + struct.pack("<I", zlib.crc32(lb)) + payload + struct.pack("<I", zlib.crc32(payload))


def ref_header(header: dict | None = None) -> bytes:
    return msgpack.packb({"format": 1, **(HEADER if header is None else header)}, use_bin_type=True)


def ref_log(payloads=PAYLOADS, *, header_payload: bytes | None = None, version: int = 1) -> bytes:
    head = ref_header() if header_payload is None else header_payload
    body = b"".join(ref_frame(p) for p in payloads)
    return b"DMLOG" + bytes([version]) + b"\r\n" + ref_frame(head) + body


def ref_read(data: bytes) -> tuple[dict, list[bytes]]:
    """Read a log the way docs/reference/log-format.md tells another program to."""
    assert data[:5] == b"DMLOG" and data[5] == 1 and data[6:8] == b"\r\n"
    pos, records = 8, []
    while pos < len(data):
        (n,) = struct.unpack_from("<I", data, pos)
        (hcrc,) = struct.unpack_from("<I", data, pos + 4)
        assert zlib.crc32(data[pos : pos + 4]) == hcrc
        payload = data[pos + 8 : pos + 8 + n]
        (pcrc,) = struct.unpack_from("<I", data, pos + 8 + n)
        assert zlib.crc32(payload) == pcrc
        records.append(payload)
        pos += 12 + n
    return msgpack.unpackb(records[0], raw=False), records[1:]


def frame_offsets(payloads=PAYLOADS) -> list[int]:
    """Byte offsets of the batch frames in ``ref_log(payloads)``."""
    pos = 8 + 12 + len(ref_header())
    out = []
    for p in payloads:
        out.append(pos)
        pos += 12 + len(p)
    return out


def write(tmp_path: Path, data: bytes, name: str = "game.dmlog") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def flipped(data: bytes, offset: int, mask: int = 0x01) -> bytes:
    b = bytearray(data)
    b[offset] ^= mask
    return bytes(b)


# --- round trips and the exact bytes -----------------------------------------------


def test_round_trip_and_record_numbers(tmp_path: Path) -> None:
    path = tmp_path / "game.dmlog"
    with LogWriter.create(path, HEADER) as w:
        assert w.records == 0
        assert w.scan.header == {"format": 1, **HEADER}
        assert w.append(PAYLOADS[0]) == 1
        assert w.append(PAYLOADS[1]) == 2
        assert w.append_many([PAYLOADS[2], b"four", b"five"]) == 5
        assert w.append_many([]) == 5
        assert w.records == 5
        assert w.end == path.stat().st_size
    scan = read_log(path)
    assert isinstance(scan, LogScan)
    assert scan.path == str(path)
    assert scan.header == {"format": FORMAT_VERSION, **HEADER}
    assert scan.payloads == (*PAYLOADS, b"four", b"five")
    assert scan.offsets[:3] == tuple(frame_offsets())
    assert scan.end == scan.size == path.stat().st_size
    assert scan.torn is None
    assert scan.records == 5


def test_file_bytes_are_exactly_the_documented_format(tmp_path: Path) -> None:
    path = tmp_path / "game.dmlog"
    with LogWriter.create(path, {**HEADER, "format": 99}, sync=False) as w:
        w.append_many(PAYLOADS)
    data = path.read_bytes()
    assert data == ref_log()  # the caller's "format" is replaced by the real version
    header, payloads = ref_read(data)
    assert header == {"format": 1, **HEADER}
    assert payloads == PAYLOADS


def test_read_log_bytes_matches_read_log(tmp_path: Path) -> None:
    path = write(tmp_path, ref_log())
    from_file = read_log(path)
    from_bytes = read_log_bytes(ref_log(), path=str(path))
    assert from_file == from_bytes
    assert read_log_bytes(bytearray(ref_log())).path == "<memory>"


def test_reopen_appends_after_existing_records(tmp_path: Path) -> None:
    path = tmp_path / "game.dmlog"
    with LogWriter.create(path, HEADER) as w:
        w.append(b"a")
    with LogWriter.open(path) as w:
        assert w.scan.payloads == (b"a",)
        assert w.records == 1
        assert w.repaired is None
        assert w.append(b"b") == 2
    assert read_log(path).payloads == (b"a", b"b")


def test_create_refuses_an_existing_file(tmp_path: Path) -> None:
    path = write(tmp_path, b"precious")
    with pytest.raises(LogError, match="already exists"):
        LogWriter.create(path, HEADER)
    assert path.read_bytes() == b"precious"
    with LogWriter.open(write(tmp_path, ref_log(), "other.dmlog")):  # the lock was released
        pass
    with LogWriter.create(tmp_path / "new.dmlog", HEADER):  # and create's own lock too
        pass


def test_create_rejects_a_bad_header_before_touching_disk(tmp_path: Path) -> None:
    with pytest.raises(TypeError):
        LogWriter.create(tmp_path / "a.dmlog", ["not", "a", "dict"])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        LogWriter.create(tmp_path / "b.dmlog", {"x": object()})
    with pytest.raises(ValueError, match="cannot be read back"):
        LogWriter.create(tmp_path / "c.dmlog", {1: "int keys"})  # type: ignore[dict-item]
    assert list(tmp_path.iterdir()) == []


def test_missing_file_is_a_log_error(tmp_path: Path) -> None:
    with pytest.raises(LogError, match="cannot read log"):
        read_log(tmp_path / "nope.dmlog")
    with pytest.raises(LogError, match="cannot open log"):
        LogWriter.open(tmp_path / "nope.dmlog")
    with pytest.raises(LogError):
        repair_log(tmp_path / "nope.dmlog")
    assert list(tmp_path.iterdir()) == []  # and no stray lock files


def test_oversize_payload_is_refused_and_the_writer_stays_usable(tmp_path: Path) -> None:
    path = tmp_path / "game.dmlog"
    with LogWriter.create(path, HEADER, sync=False) as w:
        with pytest.raises(ValueError, match="exceeds the limit"):
            w.append(bytes(MAX_PAYLOAD + 1))
        with pytest.raises(ValueError):
            w.append_many([b"ok", bytes(MAX_PAYLOAD + 1)])
        assert w.append(b"ok") == 1
    assert read_log(path).payloads == (b"ok",)


def test_maximum_payload_round_trips() -> None:
    big = bytes(range(256)) * (MAX_PAYLOAD // 256)
    assert read_log_bytes(ref_log([big])).payloads == (big,)


# --- the preamble ------------------------------------------------------------------


@pytest.mark.parametrize("data", [b"PK\x03\x04 a zip file", b"DMLOX\x01\r\n", b"{}", b"DML0"])
def test_not_a_log(data: bytes) -> None:
    with pytest.raises(LogError, match=r"^<memory>: not a Dice Miner log$") as info:
        read_log_bytes(data)
    assert type(info.value) is LogError


def test_newer_version_says_to_upgrade(tmp_path: Path) -> None:
    path = write(tmp_path, ref_log(version=2))
    with pytest.raises(LogVersionError) as info:
        read_log(path)
    assert str(info.value) == (
        f"{path}: log format version 2 is newer than this program reads (1); upgrade dice-miner"
    )
    with pytest.raises(LogVersionError):  # even if the rest is a future layout
        read_log_bytes(b"DMLOG\x07")


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "incomplete preamble (0 of 8 bytes)"),
        (b"DML", "incomplete preamble (3 of 8 bytes)"),
        (b"DMLOG\x01\r", "incomplete preamble (7 of 8 bytes)"),
        (b"DMLOG\x00\r\n", "format version 0"),
        (b"DMLOG\x01\n\n", "CR LF"),
        (b"DMLOG\x01\r\n", "incomplete header record (0 of 8 bytes)"),
    ],
)
def test_broken_preamble_is_damage(data: bytes, reason: str) -> None:
    with pytest.raises(LogDamaged) as info:
        read_log_bytes(data, drop_torn=True)
    assert type(info.value) is LogDamaged
    assert info.value.record == 0
    assert reason in info.value.reason


# --- damage ------------------------------------------------------------------------


def test_frame_header_checksum_mismatch(tmp_path: Path) -> None:
    path = write(tmp_path, flipped(ref_log(), 8 + 5))  # the header frame's length CRC
    with pytest.raises(LogDamaged) as info:
        read_log(path)
    err = info.value
    assert (err.path, err.offset, err.record) == (str(path), 8, 0)
    assert err.reason == "frame header checksum mismatch"
    assert str(err) == f"{path}: damaged at byte 8 (record 0): frame header checksum mismatch"


@pytest.mark.parametrize("mask", [0x01, 0x10, 0x80])
@pytest.mark.parametrize("byte", [0, 1, 2, 3])
def test_length_flip_in_a_middle_record_is_damage_not_torn(byte: int, mask: int) -> None:
    offset = frame_offsets()[1]
    data = flipped(ref_log(), offset + byte, mask)
    for drop_torn in (False, True):
        with pytest.raises(LogDamaged) as info:
            read_log_bytes(data, drop_torn=drop_torn)
        assert type(info.value) is LogDamaged
        assert (info.value.offset, info.value.record) == (offset, 2)
        assert info.value.reason == "frame header checksum mismatch"


def test_frame_header_damage_at_the_very_end_is_still_damage() -> None:
    data = ref_log() + flipped(ref_frame(b"xyz"), 0)[:8]  # a whole 8-byte header, bad CRC
    with pytest.raises(LogDamaged) as info:
        read_log_bytes(data, drop_torn=True)
    assert type(info.value) is LogDamaged
    assert info.value.offset == len(ref_log())
    assert info.value.record == 4


@pytest.mark.parametrize("record", [1, 2, 3])
def test_payload_checksum_mismatch(record: int) -> None:
    offsets = frame_offsets()
    start = offsets[record - 1]
    size = len(PAYLOADS[record - 1])
    for inside in ([8 + size // 2] if size else []) + [8 + size, 8 + size + 3]:
        with pytest.raises(LogDamaged) as info:
            read_log_bytes(flipped(ref_log(), start + inside), drop_torn=True)
        assert type(info.value) is LogDamaged
        assert (info.value.offset, info.value.record) == (start, record)
        assert info.value.reason == "payload checksum mismatch"


def test_oversize_declared_length_is_damage() -> None:
    big = MAX_PAYLOAD + 1
    frame = ref_frame(b"", length=big)[:8]  # valid header CRC over an impossible length
    for tail in (b"", bytes(100)):
        with pytest.raises(LogDamaged) as info:
            read_log_bytes(ref_log() + frame + tail, drop_torn=True)
        assert type(info.value) is LogDamaged
        assert info.value.reason == f"record length {big} exceeds the limit ({MAX_PAYLOAD})"
        assert (info.value.offset, info.value.record) == (len(ref_log()), 4)


@pytest.mark.parametrize(
    ("header_payload", "reason"),
    [
        (msgpack.packb([1, 2, 3]), "not a map"),
        (msgpack.packb({"dice_set": "x"}), 'no "format"'),
        (msgpack.packb({"format": 2}), "does not match preamble version 1"),
        (msgpack.packb({"format": "1"}), "does not match"),
        (msgpack.packb({"format": True}), "does not match"),
        (b"\xc1", "not valid msgpack"),
        (msgpack.packb({"format": 1}) + b"\x00", "not valid msgpack"),
        (b"\x81\xa6format", "not valid msgpack"),
        (msgpack.packb({1: 1}), "not valid msgpack"),
    ],
)
def test_bad_header_record_is_damage(header_payload: bytes, reason: str) -> None:
    with pytest.raises(LogDamaged, match=reason) as info:
        read_log_bytes(ref_log(header_payload=header_payload), drop_torn=True)
    assert (info.value.offset, info.value.record) == (8, 0)


def test_every_flipped_byte_is_detected() -> None:
    data = ref_log()
    for offset in range(len(data)):
        for mask in (0x01, 0x80, 0xFF):
            bad = flipped(data, offset, mask)
            for drop_torn in (False, True):
                try:
                    scan = read_log_bytes(bad, drop_torn=drop_torn)
                except LogError:
                    continue
                # Only acceptable if nothing observable changed (cannot happen here).
                pytest.fail(f"flip at byte {offset} mask {mask:#x} read back as {scan!r}")


# --- torn records ------------------------------------------------------------------


def test_truncation_anywhere_in_the_last_record_is_torn(tmp_path: Path) -> None:
    data = ref_log()
    last = frame_offsets()[-1]
    for cut in range(last + 1, len(data)):
        path = write(tmp_path, data[:cut])
        with pytest.raises(TornRecord) as info:
            read_log(path)
        have, need = cut - last, (8 if cut - last < 8 else 12 + len(PAYLOADS[-1]))
        assert (info.value.offset, info.value.record) == (last, 3)
        assert info.value.reason == f"incomplete final record ({have} of {need} bytes)"
        assert str(path) in str(info.value)

        scan = read_log(path, drop_torn=True)
        assert scan.payloads == tuple(PAYLOADS[:2])
        assert scan.end == last
        assert scan.size - scan.end == have
        assert isinstance(scan.torn, TornRecord)
        assert (scan.torn.offset, scan.torn.record) == (last, 3)


@pytest.mark.parametrize("record", [2, 3])
def test_truncation_inside_a_middle_record_is_torn_at_that_record(record: int) -> None:
    start = frame_offsets()[record - 1]
    data = ref_log()[: start + 9]
    with pytest.raises(TornRecord):
        read_log_bytes(data)
    scan = read_log_bytes(data, drop_torn=True)
    assert scan.payloads == tuple(PAYLOADS[: record - 1])
    assert scan.torn is not None
    assert (scan.torn.offset, scan.torn.record) == (start, record)


def test_truncation_at_a_record_boundary_is_a_good_shorter_log() -> None:
    for n, end in enumerate(frame_offsets()):
        scan = read_log_bytes(ref_log()[:end])
        assert scan.payloads == tuple(PAYLOADS[:n])
        assert scan.torn is None


def test_a_cut_inside_the_first_batch_record_is_damage_not_droppable(tmp_path: Path) -> None:
    """A log is created holding its first batch, so no crash can cut it: like a torn
    header, a file ending inside it is damage, and repair refuses it, changing nothing."""
    start = frame_offsets()[0]
    for cut in range(start + 1, frame_offsets()[1]):
        data = ref_log()[:cut]
        with pytest.raises(LogDamaged, match="incomplete first batch record") as info:
            read_log_bytes(data, drop_torn=True)
        assert type(info.value) is LogDamaged
        assert (info.value.offset, info.value.record) == (start, 1)
        path = write(tmp_path, data)
        for attempt in (repair_log, lambda p: LogWriter.open(p, drop_torn=True)):
            with pytest.raises(LogDamaged, match="first batch") as info:
                attempt(path)
            assert type(info.value) is LogDamaged
        assert path.read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.dmlog"]  # no side file


def test_a_torn_header_is_damage_not_droppable() -> None:
    header_end = frame_offsets()[0]
    for cut in range(9, header_end):
        with pytest.raises(LogDamaged, match="incomplete header record") as info:
            read_log_bytes(ref_log()[:cut], drop_torn=True)
        assert type(info.value) is LogDamaged


# --- locking -----------------------------------------------------------------------


def test_second_writer_in_the_same_process_is_locked_out(tmp_path: Path) -> None:
    path = tmp_path / "game.dmlog"
    with LogWriter.create(path, HEADER) as w:
        with pytest.raises(LogLocked, match=f"pid={os.getpid()} ") as info:
            LogWriter.open(path)
        assert str(info.value).startswith(f"{path} is being written by")
        with pytest.raises(LogLocked):
            repair_log(path)
        w.append(b"still mine")
    with LogWriter.open(path) as w2:  # released on close
        assert w2.append(b"now mine") == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.dmlog"]  # no lock file


def test_writer_in_another_process_is_named(tmp_path: Path) -> None:
    path = tmp_path / "game.dmlog"
    LogWriter.create(path, HEADER).close()
    script = (
        "import sys\nfrom core.log import LogWriter\n"
        "w = LogWriter.open(sys.argv[1])\nprint('ready', flush=True)\nsys.stdin.read()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with subprocess.Popen(
        [sys.executable, "-c", script, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
        text=True,
    ) as child:
        try:
            assert child.stdout is not None
            assert child.stdout.readline() == "ready\n"
            with pytest.raises(LogLocked) as info:
                LogWriter.open(path)
            assert f"another process (pid={child.pid} host=" in str(info.value)
        finally:
            child.communicate("")
    with LogWriter.open(path):  # the lock died with its holder
        pass


def test_closing_twice_is_harmless_and_a_closed_writer_refuses(tmp_path: Path) -> None:
    w = LogWriter.create(tmp_path / "game.dmlog", HEADER, sync=False)
    w.close()
    w.close()
    assert w.closed
    with pytest.raises(LogError, match="closed"):
        w.append(b"x")


# --- failing writes ----------------------------------------------------------------


def test_a_failed_write_makes_the_writer_unusable(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "game.dmlog"
    w = LogWriter.create(path, HEADER)
    w.append(b"good")
    real_write_all = log_file._write_all

    def half_then_enospc(fd: int, data: bytes) -> None:
        real_write_all(fd, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(log_file, "_write_all", half_then_enospc)
    with pytest.raises(LogError, match="unusable"):
        w.append(b"this frame is cut short")
    monkeypatch.setattr(log_file, "_write_all", real_write_all)
    with pytest.raises(LogError, match="unusable"):
        w.append(b"must not follow garbage")
    with pytest.raises(LogError):
        w.append_many([b"nor this"])
    w.close()

    with pytest.raises(TornRecord):
        LogWriter.open(path)
    result = repair_log(path)
    assert result.kept_records == 1
    with LogWriter.open(path) as w2:
        assert w2.append(b"after repair") == 2
    assert read_log(path).payloads == (b"good", b"after repair")


def test_a_failed_fsync_makes_the_writer_unusable(tmp_path: Path, monkeypatch) -> None:
    with LogWriter.create(tmp_path / "game.dmlog", HEADER) as w:

        def eio(fd: int) -> None:
            raise OSError(errno.EIO, "Input/output error")

        monkeypatch.setattr(log_file, "_fsync", eio)
        with pytest.raises(LogError):
            w.append(b"x")
        monkeypatch.undo()
        with pytest.raises(LogError, match="unusable"):
            w.append(b"y")


def test_a_failed_create_leaves_no_half_made_log(tmp_path: Path, monkeypatch) -> None:
    def enospc(fd: int, data: bytes) -> None:
        os.write(fd, data[:3])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(log_file, "_write_all", enospc)
    with pytest.raises(LogError, match="cannot create"):
        LogWriter.create(tmp_path / "game.dmlog", HEADER)
    monkeypatch.undo()
    assert not (tmp_path / "game.dmlog").exists()
    LogWriter.create(tmp_path / "game.dmlog", HEADER).close()  # and the lock was released


def test_create_names_the_log_only_once_its_header_is_whole(tmp_path: Path, monkeypatch) -> None:
    """The header is written under ``<path>.new`` and linked into place: a crash while
    creating leaves no log at all, and the next create reuses the stale ``.new``
    (and removes it: only the log is left)."""
    path = tmp_path / "game.dmlog"
    seen: list[bool] = []

    def watching(fd: int, data: bytes) -> None:
        seen.append(path.exists())
        os.write(fd, data)

    monkeypatch.setattr(log_file, "_write_all", watching)
    LogWriter.create(path, HEADER).close()
    assert seen == [False]  # the name did not exist while the header was being written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.dmlog"]  # nor any other file

    other = tmp_path / "other.dmlog"
    Path(f"{other}.new").write_bytes(b"DMLOG\x01\r\n\x05")  # a creation killed midway
    with LogWriter.create(other, HEADER) as w:
        w.append(b"first")
    assert read_log(other).payloads == (b"first",)
    assert not Path(f"{other}.new").exists()


def test_create_without_hard_links_renames_but_never_replaces(tmp_path: Path, monkeypatch) -> None:
    def no_links(src: str, dst: str) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    path = tmp_path / "game.dmlog"
    with LogWriter.create(path, HEADER) as w:
        w.append(b"x")
    assert read_log(path).payloads == (b"x",)
    with pytest.raises(LogError, match="already exists"):
        LogWriter.create(path, HEADER)
    assert read_log(path).payloads == (b"x",)


def test_a_header_over_the_size_limit_is_damage_and_never_written(tmp_path: Path) -> None:
    big = {"padding": "x" * MAX_HEADER}
    with pytest.raises(LogDamaged, match="exceeds the limit") as info:
        read_log_bytes(ref_log(header_payload=ref_header(big)))
    assert (info.value.offset, info.value.record) == (8, 0)
    with pytest.raises(ValueError, match="cannot be read back"):
        LogWriter.create(tmp_path / "game.dmlog", big)
    assert not (tmp_path / "game.dmlog").exists()


# --- repair ------------------------------------------------------------------------


def test_repair_keeps_the_torn_bytes_and_then_the_log_opens(tmp_path: Path) -> None:
    data = ref_log()
    last = frame_offsets()[-1]
    path = write(tmp_path, data[: last + 10])
    with pytest.raises(TornRecord):
        LogWriter.open(path)

    result = repair_log(path)
    side = f"{path}.torn-{last}"
    assert result == RepairResult(str(path), kept_records=2, removed_bytes=10, side_file=side)
    assert Path(side).read_bytes() == data[last : last + 10]
    assert path.read_bytes() == data[:last]
    with LogWriter.open(path) as w:
        assert w.append(PAYLOADS[2]) == 3
    assert path.read_bytes() == data

    assert repair_log(path) == RepairResult(str(path), 3, 0, None)  # a good log is untouched
    assert path.read_bytes() == data


def test_repair_refuses_real_damage_and_changes_nothing(tmp_path: Path) -> None:
    bad = flipped(ref_log(), frame_offsets()[0] + 9)[:-3]  # damaged AND torn
    path = write(tmp_path, bad)
    with pytest.raises(LogDamaged) as info:
        repair_log(path)
    assert type(info.value) is LogDamaged
    assert path.read_bytes() == bad
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.dmlog"]


def test_repair_reuses_an_identical_side_file_from_an_interrupted_repair(tmp_path: Path) -> None:
    data = ref_log()
    last = frame_offsets()[-1]
    path = write(tmp_path, data[: last + 5])
    Path(f"{path}.torn-{last}").write_bytes(data[last : last + 5])
    assert repair_log(path).side_file == f"{path}.torn-{last}"
    path.write_bytes(data[: last + 6])
    assert repair_log(path).side_file == f"{path}.torn-{last}.1"  # different bytes: new name


@pytest.mark.parametrize("failing", ["_write_all", "_fsync"])
def test_a_repair_that_fails_on_a_full_disk_leaves_nothing_half_made(
    tmp_path: Path, monkeypatch, failing: str
) -> None:
    """The side file cannot be written whole (ENOSPC while writing or syncing it): the
    repair fails saying why, the log is as it was, and no empty or partial side file stays
    to pass for the torn bytes; once there is room the repair goes through."""
    last = frame_offsets()[-1]
    torn = ref_log()[: last + 10]
    path = write(tmp_path, torn)

    def enospc(fd: int, *data: bytes) -> None:
        if data:
            os.write(fd, data[0][:3])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(log_file, failing, enospc)
    with pytest.raises(LogError, match=r"cannot repair log \(No space left on device\)"):
        repair_log(path)
    with pytest.raises(LogError, match="No space left"):
        LogWriter.open(path, drop_torn=True)
    assert path.read_bytes() == torn
    assert [p.name for p in tmp_path.iterdir()] == ["game.dmlog"]
    monkeypatch.undo()
    assert repair_log(path).side_file == f"{path}.torn-{last}"
    assert Path(f"{path}.torn-{last}").read_bytes() == torn[last:]


def test_open_with_drop_torn_repairs_first(tmp_path: Path) -> None:
    last = frame_offsets()[-1]
    path = write(tmp_path, ref_log()[: last + 3])
    with LogWriter.open(path, drop_torn=True) as w:
        assert w.repaired == RepairResult(str(path), 2, 3, f"{path}.torn-{last}")
        assert w.records == 2
        assert w.append(b"new third") == 3
    assert read_log(path).payloads == (*PAYLOADS[:2], b"new third")


# --- tailing -----------------------------------------------------------------------


def test_follow_log_sees_new_records_and_waits_for_a_half_written_one(tmp_path: Path) -> None:
    path = tmp_path / "game.dmlog"
    with LogWriter.create(path, HEADER) as w:
        w.append(b"one")
        scan = read_log(path)
        offset, record = scan.end, scan.records + 1
        assert follow_log(path, offset, record) == ([], offset, record)

        w.append(b"two")
        w.append_many([b"three", b"four"])
        new, offset2, record2 = follow_log(path, offset, record)
        assert new == [b"two", b"three", b"four"]
        assert (offset2, record2) == (w.end, 5)

        frame = ref_frame(b"five")
        with open(path, "ab") as f:  # a writer caught mid-append
            f.write(frame[:6])
        assert follow_log(path, offset2, record2) == ([], offset2, record2)
        with open(path, "ab") as f:
            f.write(frame[6:-1])
        assert follow_log(path, offset2, record2) == ([], offset2, record2)
        with open(path, "ab") as f:
            f.write(frame[-1:])
        assert follow_log(path, offset2, record2) == ([b"five"], offset2 + len(frame), 6)
        assert follow_log(path, offset, record)[0] == [b"two", b"three", b"four", b"five"]


def test_follow_log_raises_on_damage_with_real_offsets(tmp_path: Path) -> None:
    offsets = frame_offsets()
    path = write(tmp_path, flipped(ref_log(), offsets[2] + 9))
    for start in (0, 1, 2):
        with pytest.raises(LogDamaged) as info:
            follow_log(path, offsets[start], start + 1)
        assert (info.value.offset, info.value.record) == (offsets[2], 3)
        assert info.value.reason == "payload checksum mismatch"


def test_follow_log_rejects_bad_positions(tmp_path: Path) -> None:
    path = write(tmp_path, ref_log())
    with pytest.raises(ValueError):
        follow_log(path, 0, 0)
    with pytest.raises(LogError, match="shorter than offset"):
        follow_log(path, len(ref_log()) + 1, 4)


# --- fuzzing -----------------------------------------------------------------------

PREAMBLE = b"DMLOG\x01\r\n"


@settings(derandomize=True, max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_after_the_preamble_only_raise_log_errors(tail: bytes) -> None:
    for drop_torn in (False, True):
        with contextlib.suppress(LogError):
            read_log_bytes(PREAMBLE + tail, drop_torn=drop_torn)


@settings(derandomize=True, max_examples=200, deadline=None)
@given(
    payloads=st.lists(st.binary(max_size=24), max_size=4),
    kind=st.sampled_from(["flip", "truncate", "delete", "insert"]),
    data=st.data(),
)
def test_mutated_logs_only_raise_log_errors(payloads, kind, data) -> None:
    good = ref_log(payloads)
    at = data.draw(st.integers(0, len(good) - 1), label="at")
    if kind == "flip":
        bad = flipped(good, at, data.draw(st.integers(1, 255), label="mask"))
    elif kind == "truncate":
        bad = good[:at]
    elif kind == "delete":
        bad = good[:at] + good[at + data.draw(st.integers(1, 16), label="n") :]
    else:
        bad = good[:at] + data.draw(st.binary(min_size=1, max_size=16), label="new") + good[at:]
    for drop_torn in (False, True):
        try:
            scan = read_log_bytes(bad, drop_torn=drop_torn)
        except LogError:
            continue
        if kind == "flip":
            pytest.fail("a flipped byte was read back silently")
        if kind == "truncate":  # only ever a prefix of what was written
            assert list(scan.payloads) == payloads[: len(scan.payloads)]
