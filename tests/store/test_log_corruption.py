"""Promise 2 on a real game: every damage is detected, reported where it is, never replayed.

A 4-player game with undos (254 events in 202 records, about 25 KB) is damaged
in memory in every way a disk or a careless copy can: one flipped byte at every
offset, a cut at every length, records dropped, doubled or swapped, a zeroed
page, random garbage. Each must raise one of the log errors, with the byte
offset and record number of the damaged frame, or (for a cut at a record
boundary, or a torn tail dropped on request) read as exactly an earlier point of
the same game. No damage may ever yield a different state.
"""

from __future__ import annotations

import bisect
import subprocess
import sys
from pathlib import Path

import pytest

from core.errors import LogDamaged, LogError, LogVersionError, TornRecord
from core.events.codec import Batch
from core.game import Game
from core.log import read_log_bytes, repair_log
from core.log.framing import FRAME_OVERHEAD, PREAMBLE_SIZE
from core.projections.state import PREGAME, GameState
from core.projections.timeline import Timeline
from core.rng import DiceRng
from core.store import decode_scan
from tests.support.kill_writer import new_game, play

REPO = Path(__file__).resolve().parents[2]
SEED, GAME, UNDO_ODDS = 3, 2, 4  # game 2 of seed 3: four players, many undos


class Recorded:
    """The recorded game: its bytes, frames, batches and the state after each batch."""

    def __init__(self, path: Path) -> None:
        with new_game(SEED, GAME, path, sync=False) as game:
            play(game, undo_odds=UNDO_ODDS)
        self.path = path
        self.data = path.read_bytes()
        scan = read_log_bytes(self.data)
        self.payloads = scan.payloads
        self.batches: list[Batch] = decode_scan(scan)
        #: Start of every frame, the header's included (record n starts at starts[n]).
        self.starts = (PREAMBLE_SIZE, *scan.offsets)
        self.ends = (*scan.offsets, len(self.data))
        timeline, self.states = Timeline(), [PREGAME]
        for batch in self.batches:
            timeline = timeline.apply_batch(batch)
            self.states.append(timeline.state)
        self.events = timeline.seq

    def record_at(self, offset: int) -> int:
        """The number of the frame holding byte ``offset`` (the header is record 0)."""
        return bisect.bisect_right(self.starts, offset) - 1


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Recorded:
    return Recorded(tmp_path_factory.mktemp("corruption") / "game.dmlog")


def test_the_recorded_game_is_a_real_one(game: Recorded) -> None:
    assert game.events >= 200 and len(game.batches) >= 150
    assert game.states[-1].is_over
    assert sum(type(b.command).__name__ == "Undo" for b in game.batches) >= 10


def replayed(data: bytes, *, drop_torn: bool = False) -> tuple[int, GameState]:
    """Read, decode and replay a log held in memory: (records, final state)."""
    batches = decode_scan(read_log_bytes(data, drop_torn=drop_torn))
    timeline = Timeline()
    for batch in batches:
        timeline = timeline.apply_batch(batch)
    return len(batches), timeline.state


def flipped(data: bytes, offset: int, mask: int) -> bytes:
    damaged = bytearray(data)
    damaged[offset] ^= mask
    return bytes(damaged)


def expected_error(offset: int, mask: int) -> type[LogError]:
    """What a flip at ``offset`` must raise: the preamble has its own errors."""
    if offset < 5:
        return LogError  # "not a Dice Miner log"
    if offset == 5 and (1 ^ mask) > 1:
        return LogVersionError  # the version byte now names a future version
    return LogDamaged


def raised(data: bytes, drop_torn: bool) -> LogError:
    """The error reading, decoding and replaying ``data`` raises (failing if none)."""
    try:
        result = replayed(data, drop_torn=drop_torn)
    except LogError as err:
        return err
    pytest.fail(f"damaged log read back as {result[0]} records")


@pytest.mark.parametrize(
    ("mask", "step", "drop_torn"), [(0x01, 1, True), (0x80, 8, False), (0xFF, 16, True)]
)
def test_a_flipped_byte_anywhere_is_reported_at_its_record(
    game: Recorded, mask: int, step: int, drop_torn: bool
) -> None:
    """XOR 0x01 at every offset (0x80 at every 8th, 0xFF every 16th): an error naming the
    damaged frame's offset and record, even when asked to drop a torn tail."""
    checked = 0
    for offset in range(0, len(game.data), step):
        err = raised(flipped(game.data, offset, mask), drop_torn)
        assert type(err) is expected_error(offset, mask), (offset, err)
        if offset >= PREAMBLE_SIZE:
            record = game.record_at(offset)
            assert (err.offset, err.record) == (game.starts[record], record), (offset, err)
        checked += 1
    assert checked >= len(game.data) // step


def cut_points(game: Recorded) -> list[int]:
    """Every length through the header and the first and last two records, and 2000 more."""
    edges = [*range(game.starts[3]), *range(game.starts[-2], len(game.data))]
    rng = DiceRng(SEED, 0xC07)
    return sorted({*edges, *(rng.below(len(game.data)) for _ in range(2000))})


def test_a_cut_at_any_length_is_damage_or_an_earlier_point_of_the_same_game(
    game: Recorded,
) -> None:
    """Cuts inside the preamble, the header or the first batch (written with the header, so
    never cut by a crash) are damage; inside a later batch, a torn tail; on a record
    boundary, a shorter good log; dropping a torn tail gives the records before it."""
    header_end = game.starts[1]
    boundaries = {end: n for n, end in enumerate(game.ends)}  # cut length -> records kept
    for cut in cut_points(game):
        data = game.data[:cut]
        if cut < header_end:
            err = raised(data, drop_torn=True)
            assert type(err) is LogDamaged and err.record == 0, (cut, err)
        elif cut in boundaries:
            assert read_log_bytes(data).payloads == game.payloads[: boundaries[cut]]
        elif cut < game.ends[1]:
            err = raised(data, drop_torn=True)
            assert type(err) is LogDamaged and (err.offset, err.record) == (header_end, 1)
            assert err.reason.startswith("incomplete first batch record"), (cut, err)
        else:
            record = game.record_at(cut - 1)
            err = raised(data, drop_torn=False)
            assert type(err) is TornRecord, (cut, err)
            assert (err.offset, err.record) == (game.starts[record], record)
            scan = read_log_bytes(data, drop_torn=True)
            assert scan.payloads == game.payloads[: record - 1]
            assert scan.size - scan.end == cut - game.starts[record]


def test_a_log_cut_on_a_record_boundary_replays_to_that_point_exactly(game: Recorded) -> None:
    """At every 8th boundary and the last few: exactly the state after that many commands."""
    last = len(game.ends) - 1
    for records in sorted({*range(0, last, 8), *range(last - 3, last + 1)}):
        assert replayed(game.data[: game.ends[records]]) == (records, game.states[records])


def splice(game: Recorded, frames: list[int]) -> bytes:
    """A log made of the preamble, the header and these batch records, in this order."""
    parts = [game.data[: game.starts[1]]]
    parts += [game.data[game.starts[n] : game.ends[n]] for n in frames]
    return b"".join(parts)


def test_dropped_doubled_or_swapped_records_are_damage_at_that_record(game: Recorded) -> None:
    """Frames that are intact but out of place (at every 6th record and the last few):
    their seq gives them away."""
    last = len(game.batches)
    for n in sorted({*range(1, last, 6), *range(last - 3, last + 1)}):
        rest = [k for k in range(1, last + 1) if k != n]
        cases = {"doubled": list(range(1, n + 1)) + list(range(n, last + 1))}
        if n < last:
            cases["dropped"] = rest
            cases["swapped"] = [*range(1, n), n + 1, n, *range(n + 2, last + 1)]
        for kind, frames in cases.items():
            with pytest.raises(LogDamaged) as info:
                replayed(splice(game, frames), drop_torn=True)
            where = n + 1 if kind == "doubled" else n  # the first frame out of place
            assert info.value.record == where, (kind, n, info.value)
            assert "expected" in info.value.reason, (kind, n, info.value)
    # Dropping the last record is not damage: it is the game one command earlier.
    assert replayed(splice(game, list(range(1, last)))) == (last - 1, game.states[last - 1])


def test_zeroed_pages_and_random_garbage_are_detected(game: Recorded) -> None:
    rng = DiceRng(SEED, 0xBAD)
    cases = [(page, 4096, None) for page in range(0, len(game.data), 4096)]
    cases += [(rng.below(len(game.data) - 64), 1 + rng.below(64), rng) for _ in range(300)]
    for offset, size, garbage in cases:
        bad = bytearray(game.data)
        for i in range(offset, min(offset + size, len(bad))):
            bad[i] = 0 if garbage is None else garbage.below(256)
        if bytes(bad) == game.data:
            continue  # the garbage happened to equal what was there
        with pytest.raises(LogError) as info:
            replayed(bytes(bad), drop_torn=True)
        assert not isinstance(info.value, TornRecord)


def test_a_log_damaged_before_its_end_is_never_replayed_nor_repaired(
    game: Recorded, tmp_path: Path
) -> None:
    """Through the files: load, load dropping a torn tail, open and repair all refuse, at
    the damaged record, and leave the file as it was (and open leaves no lock behind)."""
    path = tmp_path / "damaged.dmlog"
    for n in range(1, len(game.batches) + 1):
        payload_size = game.ends[n] - game.starts[n] - FRAME_OVERHEAD
        data = flipped(game.data, game.starts[n] + 8 + payload_size // 2, 0x10)
        path.unlink(missing_ok=True)
        path.write_bytes(data)
        for attempt in (Game.load, lambda p: Game.load(p, drop_torn=True), Game.open, repair_log):
            with pytest.raises(LogDamaged) as info:
                attempt(path)
            assert type(info.value) is LogDamaged
            assert (info.value.offset, info.value.record) == (game.starts[n], n)
            assert str(path) in str(info.value)
        assert path.read_bytes() == data  # and no lock was left held: each next attempt
        # would otherwise have raised LogLocked
    assert [p.name for p in tmp_path.iterdir()] == ["damaged.dmlog"]  # no lock or side file


def test_a_torn_tail_is_reported_then_repaired_to_the_game_one_command_earlier(
    game: Recorded, tmp_path: Path
) -> None:
    last = len(game.batches)
    size = game.ends[last] - game.starts[last]
    cut = game.starts[last] + 1 + DiceRng(SEED, 0x7EA2).below(size - 1)
    path = tmp_path / "torn.dmlog"
    path.write_bytes(game.data[:cut])
    with pytest.raises(TornRecord) as info:
        Game.load(path)
    assert (info.value.offset, info.value.record) == (game.starts[last], last)
    assert Game.load(path, drop_torn=True).state == game.states[last - 1]
    result = repair_log(path)
    assert Path(result.side_file).read_bytes() == game.data[game.starts[last] : cut]
    with Game.open(path) as reopened:
        assert reopened.state == game.states[last - 1]


def test_dice_miner_log_repair_drops_only_a_torn_tail(game: Recorded, tmp_path: Path) -> None:
    """The command line: ``dice-miner log repair LOG`` keeps the torn bytes in a side file
    and leaves a log that opens; on real damage it refuses and changes nothing."""
    last = len(game.batches)
    cut = game.starts[last] + 9
    torn, damaged = tmp_path / "torn.dmlog", tmp_path / "damaged.dmlog"
    torn.write_bytes(game.data[:cut])
    bad = flipped(game.data, game.starts[2] + 10, 0x01)
    damaged.write_bytes(bad)

    def repair(path: Path) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "frontends.cli", "log", "repair", str(path)],
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=60,
        )

    done = repair(torn)
    assert done.returncode == 0, done.stderr
    side = f"{torn}.torn-{game.starts[last]}"
    assert side in done.stdout and "Traceback" not in done.stderr
    assert Path(side).read_bytes() == game.data[game.starts[last] : cut]
    assert torn.read_bytes() == game.data[: game.starts[last]]
    with Game.open(torn) as reopened:
        assert reopened.state == game.states[last - 1]

    refused = repair(damaged)
    assert refused.returncode != 0
    assert f"byte {game.starts[2]} (record 2)" in refused.stdout + refused.stderr
    assert damaged.read_bytes() == bad
