"""Hostile input to the whole reader: only the project's documented errors, in bounded time
and memory.

``tests/store/test_log_file.py`` fuzzes the framing alone. Here the bytes go all the way
through ``Game.load`` (framing, msgpack, the converter, upcasters, replay), and
many of them are *well framed*: their checksums are recomputed after the damage,
as a hostile upload would do, so the decoding and replaying layers are the ones
under test. Whatever comes in, the reader may only raise a ``DiceMinerError``
(never a crash, a hang or a runaway allocation); damage that the checksums do
see is never read back as anything but an earlier point of the same game.
"""

from __future__ import annotations

import contextlib
import tracemalloc
from datetime import timedelta
from pathlib import Path

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import DiceMinerError, EventFormatError, LogDamaged
from core.events.base import EVENT_TYPES
from core.events.codec import _UNPACK_LIMITS, MAX_BATCH_BYTES, decode_batch
from core.game import Game
from core.log import MAX_HEADER, MAX_PAYLOAD, read_log_bytes
from core.log.framing import PREAMBLE, encode_frame
from core.projections.state import PREGAME
from core.projections.timeline import Timeline
from core.store import decode_scan
from tests.support.kill_writer import new_game, play

FUZZ = settings(
    max_examples=150,
    deadline=timedelta(seconds=5),  # a hang or a blow-up fails the example
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


class Base:
    """A real 2-player game (about 130 events in 100 records) to mutate."""

    def __init__(self, path: Path) -> None:
        with new_game(2, 0, path, sync=False) as game:
            play(game)
        self.data = path.read_bytes()
        scan = read_log_bytes(self.data)
        self.header = msgpack.packb(scan.header, use_bin_type=True)
        self.payloads = list(scan.payloads)
        self.batches = decode_scan(scan)
        self.states = [PREGAME]
        timeline = Timeline()
        for batch in self.batches:
            timeline = timeline.apply_batch(batch)
            self.states.append(timeline.state)


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Base:
    return Base(tmp_path_factory.mktemp("fuzz") / "base.dmlog")


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz") / "input.dmlog"


def framed(header: bytes, payloads: list[bytes]) -> bytes:
    """A log with good checksums around whatever payloads it is given."""
    return PREAMBLE + b"".join(encode_frame(p) for p in [header, *payloads])


def load(path: Path, data: bytes, drop_torn: bool) -> Game | None:
    """``Game.load`` on ``data``: the game, or None if it raised a documented error."""
    path.write_bytes(data)
    try:
        return Game.load(path, drop_torn=drop_torn)
    except DiceMinerError:
        return None


# --- bytes -------------------------------------------------------------------------


@FUZZ
@given(data=st.binary(max_size=400), prefix=st.booleans(), drop_torn=st.booleans())
def test_random_bytes_only_raise_documented_errors(scratch, data, prefix, drop_torn) -> None:
    if prefix:  # past the preamble and a good header, into the batch records
        data = framed(msgpack.packb({"format": 1}), []) + data
    load(scratch, data, drop_torn)  # anything but a DiceMinerError fails the test


@FUZZ
@given(
    kind=st.sampled_from(["flip", "truncate", "delete", "insert", "repeat"]),
    at=st.floats(0, 1, exclude_max=True),
    size=st.integers(1, 64),
    noise=st.binary(min_size=1, max_size=64),
    drop_torn=st.booleans(),
)
def test_damaged_real_logs_are_refused_or_an_earlier_point_of_the_game(
    base, scratch, kind, at, size, noise, drop_torn
) -> None:
    """Raw damage to a real log: an error, or exactly the state after that many records of
    the same game (a cut on a record boundary, or a torn tail dropped on request)."""
    good = base.data
    i = int(at * len(good))
    bad = {
        "flip": lambda: good[:i] + bytes([good[i] ^ (noise[0] or 1)]) + good[i + 1 :],
        "truncate": lambda: good[:i],
        "delete": lambda: good[:i] + good[i + size :],
        "insert": lambda: good[:i] + noise + good[i:],
        "repeat": lambda: good[: i + size] + good[i:],
    }[kind]()
    game = load(scratch, bad, drop_torn)
    if game is not None:  # cut short, or garbage appended and dropped as a torn tail
        assert kind != "flip", f"a flipped byte at {i} was read back"
        batches = game.batches()
        assert batches == base.batches[: len(batches)]
        assert game.state == base.states[len(batches)]


# --- well-framed hostile records ---------------------------------------------------

#: Any value msgpack can carry, nested a little.
values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.sampled_from([0, 1, -1, 59, 60, 2**31, 10**9])
    | st.floats()
    | st.text(max_size=8)
    | st.sampled_from(sorted(EVENT_TYPES) + ["hero", "take", "undo", "beer", "Engineer"])
    | st.binary(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


def mutate(tree, path: list[int], value, how: str):
    """``tree`` with the node ``path`` leads to replaced by ``value`` (the whole tree if
    ``path`` is empty), or, for a map entry, removed or given an extra sibling."""
    if not path or not isinstance(tree, (dict, list)) or not tree:
        return value
    keys = list(tree) if isinstance(tree, dict) else list(range(len(tree)))
    key = keys[path[0] % len(keys)]
    tree = dict(tree) if isinstance(tree, dict) else list(tree)
    if isinstance(tree, dict) and len(path) == 1 and how == "drop":
        del tree[key]
    elif isinstance(tree, dict) and len(path) == 1 and how == "add":
        tree[f"extra{len(tree)}"] = value
    else:
        tree[key] = mutate(tree[key], path[1:], value, how)
    return tree


@FUZZ
@given(
    record=st.floats(0, 1, exclude_max=True),
    path=st.lists(st.integers(0, 50), max_size=5),  # [] replaces the whole record
    value=values,
    how=st.sampled_from(["replace", "replace", "drop", "add"]),
    drop_torn=st.booleans(),
)
def test_a_hostile_record_with_good_checksums_only_raises_documented_errors(
    base, scratch, record, path, value, how, drop_torn
) -> None:
    """A real record's msgpack changed anywhere (a field's value or type, a missing or
    extra key, a tag, a version, a seq), then framed with correct checksums."""
    n = int(record * len(base.payloads))
    tree = msgpack.unpackb(base.payloads[n], raw=False)
    payloads = list(base.payloads)
    payloads[n] = msgpack.packb(mutate(tree, path, value, how), use_bin_type=True)
    load(scratch, framed(base.header, payloads), drop_torn)


@FUZZ
@given(
    record=st.floats(0, 1, exclude_max=True),
    which=st.tuples(st.integers(0, 30), st.integers(0, 30)),
    value=st.sampled_from([-1, 0, 3, 4, 5, 6, 19, 20, 59, 60, 99, 2**31, 2**63])
    | st.integers(-(2**63), 2**64 - 1)
    | values,
    drop_torn=st.booleans(),
)
def test_an_event_field_set_to_anything_only_raises_documented_errors(
    base, scratch, record, which, value, drop_torn
) -> None:
    """One field of one event given any value (a seat, die or slot out of range, a wrong
    type), checksums recomputed: decoding refuses it, or replay does, as damage at its
    record; anything that does replay is the rules' business (``log verify``)."""
    n = int(record * len(base.payloads))
    tree = msgpack.unpackb(base.payloads[n], raw=False)
    event = tree["events"][which[0] % len(tree["events"])]
    fields = [k for k in event if k not in ("t", "v")]
    if fields:
        event[fields[which[1] % len(fields)]] = value
    payloads = list(base.payloads)
    payloads[n] = msgpack.packb(tree, use_bin_type=True)
    load(scratch, framed(base.header, payloads), drop_torn)


@FUZZ
@given(
    header=st.dictionaries(st.text(max_size=8), values, max_size=5),
    payloads=st.lists(values.map(lambda v: msgpack.packb(v, use_bin_type=True)), max_size=4),
)
def test_any_msgpack_in_the_header_and_records_only_raises_documented_errors(
    scratch, header, payloads
) -> None:
    load(scratch, framed(msgpack.packb({"format": 1, **header}), payloads), drop_torn=False)


# --- limits ------------------------------------------------------------------------


def test_the_decoder_has_size_limits_on_untrusted_records() -> None:
    """msgpack may not be asked for more than the record can hold."""
    assert _UNPACK_LIMITS["max_ext_len"] == 0
    for key in ("max_str_len", "max_bin_len", "max_array_len", "max_map_len"):
        assert 0 < _UNPACK_LIMITS[key] <= MAX_BATCH_BYTES
    declares_4gib = b"\x83\xa3seq\x00\xa3cmd\xc6\xff\xff\xff\xff"  # bin 32 of 4 GiB, then nothing
    with pytest.raises(EventFormatError):
        decode_batch(declares_4gib)
    deep = b"\x91" * 100_000 + b"\xc0"  # an array nested 100,000 deep
    with pytest.raises(EventFormatError):
        decode_batch(deep)


def peak_allocation(fn) -> int:
    """The peak bytes Python allocated while ``fn`` ran."""
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def crowded_map_record(size: int) -> bytes:
    """A record of ``size`` bytes that decodes into as many objects as it can: maps of
    1,024 distinct short keys (a dict entry and a str for every 4 or 5 bytes)."""
    keys = [f"{i:x}" for i in range(1024)]
    one_map = msgpack.packb(dict.fromkeys(keys, 0))
    count = (size - 32) // len(one_map)
    return msgpack.packb({"seq": 0, "cmd": {}, "events": [dict.fromkeys(keys, 0)] * count})


def nil_arrays_record(size: int) -> bytes:
    """A record of about ``size`` bytes that decodes into lists of 65,000 ``None`` each."""
    return msgpack.packb({"seq": 0, "cmd": {}, "events": [[None] * 65_000] * (size // 65_010)})


@pytest.mark.parametrize(
    ("what", "make", "bound"),
    [
        # Decoded in full, then refused: about 2 MiB of objects.
        ("256 KiB of maps", lambda: crowded_map_record(MAX_BATCH_BYTES), 8),
        ("256 KiB of nils", lambda: nil_arrays_record(MAX_BATCH_BYTES), 8),
        # Refused for its size before decoding (unlimited, it would build about 86 MiB of
        # objects); what remains is the file read once and the record copied once.
        ("a 16 MiB frame of maps", lambda: crowded_map_record(MAX_PAYLOAD), 40),
        ("the largest header", lambda: None, 4),
    ],
)
def test_memory_stays_bounded_for_hostile_records(tmp_path, what, make, bound) -> None:
    """Peak Python allocation loading a log with one hostile record, in MiB (the file's own
    bytes, read and copied once, included)."""
    payload = make()
    if payload is None:  # the header: a map crammed with keys, as big as allowed
        header = msgpack.packb(
            {"format": 1, **{f"{i:x}": 0 for i in range(MAX_HEADER // 7)}}, use_bin_type=True
        )
        assert len(header) <= MAX_HEADER
        data = framed(header, [])
    else:
        assert len(payload) <= MAX_PAYLOAD
        data = framed(msgpack.packb({"format": 1}), [payload])
    path = tmp_path / "hostile.dmlog"
    path.write_bytes(data)

    def attempt() -> None:
        with contextlib.suppress(LogDamaged):
            Game.load(path)

    peak = peak_allocation(attempt) / 2**20
    assert peak < bound, f"{what}: {peak:.1f} MiB"


def test_a_record_that_cannot_be_replayed_is_damage_and_open_keeps_no_lock(base, tmp_path) -> None:
    """A well-framed DieTaken from row 99: replay fails, reported at its record, and a
    failed ``Game.open`` releases the writer's lock (the next try is not LogLocked)."""
    payloads = list(base.payloads)
    n = next(
        i
        for i, p in enumerate(payloads)
        if msgpack.unpackb(p, raw=False)["events"][0]["t"] == "DieTaken"
    )
    batch = msgpack.unpackb(payloads[n], raw=False)
    batch["events"][0]["row"] = 99
    payloads[n] = msgpack.packb(batch, use_bin_type=True)
    path = tmp_path / "unreplayable.dmlog"
    path.write_bytes(framed(base.header, payloads))
    offset = read_log_bytes(path.read_bytes()).offsets[n]
    for attempt in (Game.load, Game.open, Game.open):
        with pytest.raises(LogDamaged, match="cannot be replayed") as info:
            attempt(path)
        assert (info.value.offset, info.value.record) == (offset, n + 1)
