"""Forged, well-checksummed records through every log tool: only documented errors come out.

A CRC catches accidents, not forgery: whoever rewrites a record and its checksum can
put anything of the right shape into a log (a die 99 once made ``log show`` and
``replay`` end in a traceback). Each example here changes one field of one record of
a real log (or drops it), frames the result correctly, and runs every command-line
tool that reads logs on it: each must answer with its exit code and a sentence.
"""

from __future__ import annotations

import contextlib
import io
import shutil
from pathlib import Path

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.log.framing import encode_log, read_log_bytes
from frontends.cli.main import main
from tests.support.web_support import make_app

ROOT = Path(__file__).resolve().parents[2]
LOGS = (
    ROOT / "replays" / "three-players.dmlog",
    ROOT / "replays" / "four-players-undo.dmlog",
    ROOT / "replays" / "solo.dmlog",
    ROOT / "tests" / "data" / "herochosen-v1.dmlog",
)
#: Exit codes the tools document: 0 ok, 1 damage or a difference, 2 unreadable.
DOCUMENTED = {0, 1, 2}

EDGE_INTS = (-(1 << 63), -1, 0, 1, 2, 3, 4, 5, 6, 26, 27, 45, 59, 60, 99, (1 << 53) + 1)
EDGE_INTS += ((1 << 63), (1 << 64) - 1)
WORDS = ("", "1", "5", "beer", "gem3", "cavein2", "magic3", "chest2", "pickaxe", "Surveyor")
WORDS += ("Treasurer", "multi", "solo", "random", "same", "fresh", "x" * 70, "new", "take")

scalars = st.one_of(
    st.sampled_from(EDGE_INTS),
    st.integers(-3, 70),
    st.sampled_from(WORDS),
    st.none(),
    st.booleans(),
    st.floats(allow_nan=False, width=32),
)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5), max_leaves=12)


def alike(value):
    """Values of the shape of ``value``: an int for an int, a list of alike items for a list."""
    if type(value) is int:
        return st.one_of(st.sampled_from(EDGE_INTS), st.integers(-3, 70))
    if type(value) is str:
        return st.sampled_from(WORDS)
    if type(value) is list and value:
        item = alike(value[0])
        return st.one_of(
            st.lists(item, min_size=len(value), max_size=len(value)),
            st.lists(item, max_size=len(value) + 1),
            *(
                st.builds(lambda v, i: [*value[:i], v, *value[i + 1 :]], item, st.just(i))
                for i in range(min(len(value), 4))
            ),
        )
    return values


def forge(data: bytes, draw) -> bytes:
    """``data`` with one field of one batch record replaced (or removed), well framed."""
    scan = read_log_bytes(data)
    payloads = list(scan.payloads)
    index = draw(st.integers(0, len(payloads) - 1))
    batch = msgpack.unpackb(payloads[index], raw=False)
    targets = [batch, batch["cmd"], *batch["events"]]
    target = draw(st.sampled_from(targets))
    key = draw(st.sampled_from(sorted(target)))
    if draw(st.integers(0, 9)) == 0:
        del target[key]
    else:  # mostly a value of the field's own shape, as a forger would write
        target[key] = draw(st.one_of(alike(target[key]), values))
    payloads[index] = msgpack.packb(batch, use_bin_type=True)
    return encode_log(scan.header, payloads)


def run_tool(*argv: str) -> tuple[int, str]:
    """Run ``dice-miner ARGV`` in this process: its exit code and what it wrote to stderr."""
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, err.getvalue()


def tools(original: Path, forged: Path, work: Path) -> list[tuple[str, ...]]:
    """Every tool that reads a log, each given the forged one."""
    repaired = work / "repair.dmlog"
    shutil.copyfile(forged, repaired)
    return [
        ("log", "show", str(forged)),
        ("log", "show", "--json", str(forged)),
        ("log", "show", "--hash", str(forged)),
        ("log", "verify", str(forged)),
        ("log", "diff", str(original), str(forged)),
        ("log", "repair", str(repaired)),
        ("replay", str(forged)),
        ("replay", "--json", "--at", "9", str(forged)),
        ("store", "import", "--store", str(work / "store"), str(forged)),
        ("branch", str(forged), "--at", "9", "--luck", "same", "--out", str(work / "b.dmlog")),
        ("log", "salvage", str(forged), str(work / "salvaged.dmlog")),
    ]


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data(), which=st.sampled_from(LOGS))
def test_a_forged_record_gets_a_documented_answer_from_every_tool(tmp_path_factory, data, which):
    """Every tool exits 0, 1 or 2 with its sentence, whatever one forged field holds."""
    work = tmp_path_factory.mktemp("forged")
    forged = work / "forged.dmlog"
    forged.write_bytes(forge(which.read_bytes(), data.draw))
    for argv in tools(which, forged, work):
        code, err = run_tool(*argv)
        assert code in DOCUMENTED, (argv, code, err)
        assert "Traceback" not in err, (argv, err)
        if err:  # an error is one sentence (store import reports each file on stdout)
            assert err.startswith("dice-miner: ") and err.count("\n") == 1, (argv, err)


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("die", 99, "bad DieTaken event: die 99 is not a die (0 to 59)"),
        ("seat", -1, "bad DieTaken event: seat -1 is not a seat (0 to 3)"),
        ("face", "gem3", "bad DieTaken event: face: die 56 (magic) has no face 'gem3'"),
        ("row", 7, "cannot be replayed (there is no slot at row 7, column 0)"),
    ],
)
def test_a_forged_die_is_damage_at_its_record_in_show_replay_and_verify(
    tmp_path, field, value, reason
):
    """The record taking die 99 loaded, and ``log show`` and ``replay`` crashed on it."""
    scan = read_log_bytes((LOGS[0]).read_bytes())
    payloads = list(scan.payloads)
    batch = msgpack.unpackb(payloads[4], raw=False)
    batch["events"][0][field] = value  # record 5: DieTaken of die 56 from row 4, column 0
    payloads[4] = msgpack.packb(batch, use_bin_type=True)
    forged = tmp_path / "forged.dmlog"
    forged.write_bytes(encode_log(scan.header, payloads))
    where = f"{forged}: damaged at byte {scan.offsets[4]} (record 5): {reason}"
    for argv in (("log", "show"), ("replay",), ("log", "show", "--json")):
        assert run_tool(*argv, str(forged)) == (2, f"dice-miner: {where}\n")
    code, _ = run_tool("log", "verify", str(forged))
    assert code == 1


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    """One web app for the examples: its replay viewer reads uploaded logs."""
    app = make_app(tmp_path_factory.mktemp("web"))
    yield app.test_client()
    app.extensions["dice_miner"].games.close()


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data(), which=st.sampled_from(LOGS))
def test_a_forged_record_uploaded_to_the_viewer_gets_a_documented_answer(web, data, which):
    """The viewer is a log tool too: a 201 and its pages, or a 4xx naming the damage."""
    forged = forge(which.read_bytes(), data.draw)
    answer = web.post("/api/replays", data=forged, headers={"X-Filename": "forged.dmlog"})
    assert answer.status_code in (201, 422), answer.get_data(as_text=True)
    if answer.status_code == 422:
        assert answer.get_json()["error"]["code"] in {"log_damaged", "log_version"}
        return
    name = answer.get_json()["name"]
    for page in ("", "/events", "/state", "/state?at=9", "/boards"):
        shown = web.get(f"/api/replays/{name}{page}")
        assert shown.status_code < 500, (page, shown.get_data(as_text=True))
