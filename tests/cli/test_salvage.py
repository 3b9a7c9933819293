"""``dice-miner log salvage LOG OUT``: the longest good beginning of a damaged log, kept.

A byte flipped before the last record, or junk appended, could not be salvaged by any
tool: repair removes only a torn tail. Salvage writes what comes before the first damage
as a new log that verifies and plays on; the damaged file is never changed.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import msgpack
import pytest

from core.game import Game
from core.log.framing import encode_log, read_log_bytes
from frontends.cli.main import main

GOOD = (Path(__file__).resolve().parents[2] / "replays" / "three-players.dmlog").read_bytes()
SCAN = read_log_bytes(GOOD)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def flipped(offset: int) -> bytes:
    data = bytearray(GOOD)
    data[offset] ^= 0x10
    return bytes(data)


def forged_die() -> bytes:
    payloads = list(SCAN.payloads)
    batch = msgpack.unpackb(payloads[40], raw=False)
    batch["events"][0]["seat"] = 3  # a seat a three-seat game does not have
    payloads[40] = msgpack.packb(batch, use_bin_type=True)
    return encode_log(SCAN.header, payloads)


@pytest.mark.parametrize(
    ("case", "data", "kept", "reason"),
    [
        ("junk appended", GOOD + b"junk" * 5, 96, "frame header checksum mismatch"),
        ("a byte flipped", flipped(SCAN.offsets[30] + 20), 30, "payload checksum mismatch"),
        ("a length flipped", flipped(SCAN.offsets[50] + 1), 50, "frame header checksum mismatch"),
        ("a torn tail", GOOD[:-7], 95, "incomplete final record"),
        ("a record not replayable", forged_die(), 40, "cannot be replayed"),
    ],
)
def test_salvage_keeps_every_record_before_the_damage(tmp_path, case, data, kept, reason):
    log, out = tmp_path / "damaged.dmlog", tmp_path / "kept.dmlog"
    log.write_bytes(data)
    code, said, _ = run("log", "salvage", str(log), str(out))
    assert code == 0 and f"kept the {kept} records" in said and reason in said, said
    assert log.read_bytes() == data  # the evidence is left as it was
    end = SCAN.offsets[kept] if kept < len(SCAN.offsets) else len(GOOD)
    assert out.read_bytes() == GOOD[:end]  # byte for byte the good beginning
    assert run("log", "verify", str(out))[0] == 0
    with Game.open(out) as game:  # it plays on
        assert game.seq == Game.load(out).seq


def test_salvage_of_a_good_log_copies_it_whole(tmp_path):
    log, out = tmp_path / "good.dmlog", tmp_path / "copy.dmlog"
    log.write_bytes(GOOD)
    code, said, _ = run("log", "salvage", str(log), str(out))
    assert code == 0 and "no damage found" in said and out.read_bytes() == GOOD


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (flipped(SCAN.offsets[0] + 30), "nothing to salvage: its first record is damaged"),
        (flipped(12), "damaged at byte 8 (record 0)"),
        (b"not a log at all", "not a Dice Miner log"),
    ],
)
def test_nothing_to_salvage_is_one_line_and_no_file(tmp_path, data, words):
    log, out = tmp_path / "bad.dmlog", tmp_path / "kept.dmlog"
    log.write_bytes(data)
    code, _, err = run("log", "salvage", str(log), str(out))
    assert code == 2 and words in err and err.count("\n") == 1, err
    assert not out.exists()


def test_salvage_never_overwrites(tmp_path):
    log, out = tmp_path / "damaged.dmlog", tmp_path / "kept.dmlog"
    log.write_bytes(GOOD + b"junk")
    out.write_bytes(b"precious")
    code, _, err = run("log", "salvage", str(log), str(out))
    assert code == 2 and "already exists" in err and out.read_bytes() == b"precious"
