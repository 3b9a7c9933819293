"""docs/reference/log-format.md against the tools: every error a damaged log gets is in its tables,
word for word, and its sample reader agrees with the tools on where a log is damaged.

A third party wrote a reader from the documents alone and had to guess a dozen error
texts; this keeps the tables and the tools saying the same thing.
"""

from __future__ import annotations

import contextlib
import io
import re
import struct
import zlib
from pathlib import Path

import msgpack
import pytest

from core.log.framing import PREAMBLE, encode_frame, encode_log, read_log_bytes
from frontends.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "reference" / "log-format.md").read_text()
GOOD = (ROOT / "replays" / "three-players.dmlog").read_bytes()
SCAN = read_log_bytes(GOOD)
HEADER = msgpack.packb(SCAN.header, use_bin_type=True)


def reason_templates() -> list[str]:
    """The texts of the tables' "Reason text" column, each a template."""
    found = []
    for line in DOC.splitlines():
        cells = line.split(" | ")
        if line.startswith("| ") and len(cells) >= 3 and "`" in cells[-1]:
            found += re.findall(r"`([^`]+)`", cells[-1])
    return found


def pattern(template: str) -> re.Pattern[str]:
    """A template as a regex: ``<path>``, ``N``, ``...`` and the like stand for anything."""
    text = template
    if not text.startswith(("<path>", "dice-miner:")):
        text = f"<path>: damaged at byte <offset> (record <n>): {text}"
    if not text.startswith("dice-miner:"):
        text = f"dice-miner: {text}"
    out = re.escape(text)
    out = re.sub(r"<[a-z]+>|\\\.\\\.\\\.", ".+", out)
    out = re.sub(r"\b[NMBVWXTF]\b", ".+", out)
    return re.compile(out)


def batches(change) -> bytes:
    """The good log with ``change(list of batch maps)`` applied, framed again."""
    maps = [msgpack.unpackb(p, raw=False) for p in SCAN.payloads]
    change(maps)
    return encode_log(SCAN.header, [msgpack.packb(m, use_bin_type=True) for m in maps])


def first_event(**fields):
    def change(maps):
        maps[4]["events"][0].update(fields)  # record 5: a DieTaken

    return change


def frame_with_length(length: int) -> bytes:
    raw = struct.pack("<I", length)
    return raw + struct.pack("<I", zlib.crc32(raw))


def header_frame(payload: bytes) -> bytes:
    return PREAMBLE + encode_frame(payload)


CASES = {
    "empty": b"",
    "prefix of the magic": b"DML",
    "not a log": b"PK\x03\x04 zip",
    "newer format": b"DMLOG\x02\r\n",
    "format 0": b"DMLOG\x00\r\n",
    "text mode": b"DMLOG\x01\n\n" + GOOD[8:],
    "short preamble": b"DMLOG\x01\r",
    "no header": PREAMBLE,
    "bad length crc": PREAMBLE + b"\x05\x00\x00\x00\x00\x00\x00\x00" + GOOD[16:],
    "huge length": PREAMBLE + frame_with_length(17 << 20) + b"x" * 64,
    "bad payload crc": GOOD[:-1] + bytes([GOOD[-1] ^ 1]),
    "header too big": header_frame(msgpack.packb({"format": 1, "x": "y" * 70000})),
    "header not msgpack": header_frame(b"\xc1"),
    "header a list": header_frame(msgpack.packb([1])),
    "header without format": header_frame(msgpack.packb({"game_id": "x"})),
    "header format 2": header_frame(msgpack.packb({"format": 2})),
    "only a header": header_frame(HEADER),
    "cut in the first batch": GOOD[: SCAN.offsets[0] + 20],
    "cut in the last batch": GOOD[:-3],
    "batch too big": encode_log(SCAN.header, [b"\x00" * (300 * 1024)]),
    "batch not msgpack": encode_log(SCAN.header, [b"\xc1"]),
    "batch seq negative": batches(lambda m: m[0].update(seq=-1)),
    "record version newer": batches(lambda m: m[1].update(v=3)),
    "record version text": batches(lambda m: m[1].update(v="2")),
    "request too long": batches(lambda m: m[1].update(v=2, request="x" * 65)),
    "command not a map": batches(lambda m: m[1].update(cmd=5)),
    "command without tag": batches(lambda m: m[1]["cmd"].pop("t")),
    "command tag malformed": batches(lambda m: m[1]["cmd"].update(t="no such")),
    "command tag newer": batches(lambda m: m[1]["cmd"].update(t="future")),
    "command field type": batches(lambda m: m[1]["cmd"].update(seat="1")),
    "command field missing": batches(lambda m: m[1]["cmd"].pop("seat")),
    "event without tag": batches(lambda m: m[4]["events"][0].pop("t")),
    "event without version": batches(lambda m: m[4]["events"][0].pop("v")),
    "event version text": batches(first_event(v="1")),
    "event version newer": batches(first_event(v=9)),
    "event type newer": batches(first_event(t="FutureEvent")),
    "event field missing": batches(lambda m: m[4]["events"][0].pop("die")),
    "event field type": batches(first_event(die=1.5)),
    "event out of range": batches(first_event(die=99)),
    "seq out of order": batches(lambda m: m.__setitem__(slice(4, 6), [m[5], m[4]])),
    "not replayable": batches(first_event(seat=3)),
    "old hero unknown": batches(lambda m: m[1]["events"][0].update(v=1, hero="Nobody", faces=None)),
}


def tool_error(path: Path) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["log", "show", str(path)])
    return code, err.getvalue()


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_error_of_a_damaged_log_is_in_the_documents_tables(tmp_path, case):
    """The tool's one line matches a row of docs/reference/log-format.md's error tables."""
    path = tmp_path / "case.dmlog"
    path.write_bytes(CASES[case])
    code, err = tool_error(path)
    assert code == 2 and err.count("\n") == 1, err
    line = err.rstrip("\n").replace(str(path), "<path>")
    matches = [t for t in reason_templates() if pattern(t).fullmatch(line)]
    assert matches, f"{case}: {line!r} is in no table of docs/reference/log-format.md"


@pytest.mark.parametrize("case", ["a folder", "a missing file"])
def test_a_folder_or_a_missing_file_is_in_the_table_too(tmp_path, case):
    path = tmp_path if case == "a folder" else tmp_path / "missing.dmlog"
    code, err = tool_error(path)
    line = err.rstrip("\n").replace(str(path), "<path>")
    assert code == 2 and any(pattern(t).fullmatch(line) for t in reason_templates()), line


def sample_reader():
    """The reading sketch of docs/reference/log-format.md, run as it is printed."""
    code = DOC.split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict = {}
    exec(compile(code, "docs/reference/log-format.md", "exec"), scope)
    return scope["read_dice_miner_log"]


FRAMING = [c for c in sorted(CASES) if list(CASES).index(c) < list(CASES).index("only a header")]


@pytest.mark.parametrize("case", FRAMING)
def test_the_documents_sample_reader_refuses_what_the_tools_refuse(case):
    """Files under 5 bytes included: the sketch and the table once disagreed on them."""
    with pytest.raises(ValueError):
        sample_reader()(CASES[case])


def test_the_documents_sample_reader_reads_a_good_log_as_the_tools_do():
    header, payloads = sample_reader()(GOOD)
    assert header == SCAN.header and tuple(payloads) == SCAN.payloads
