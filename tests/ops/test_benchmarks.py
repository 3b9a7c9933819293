"""The benchmarks' pieces run, at a tiny size, and measure what they say (not how fast)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import append, games, instructions, rebuild, recording, seek
from benchmarks.__main__ import _table
from core.bots.series import play_one
from core.game import Game


def test_games_rebuild_and_sizes(tmp_path):
    folder = str(tmp_path / "random")
    played = games.simulate("random", 3, folder, chunk=2)
    assert played["games"] == 3 and played["events"] > 3 * 100
    assert played["median_per_s"] > 0 and played["best_per_s"] >= played["median_per_s"]
    paths = rebuild.log_files(folder)
    assert len(paths) == 3  # the warm-up games are kept apart
    sizes = games.log_sizes(folder, 3, played["events"])
    assert sizes["bytes_per_game"] * 3 >= sizes["bytes"] - 3
    records = rebuild.decode_plain(paths[0])
    assert records[0]["format"] == 1 and len(records) == len(Game.load(paths[0]).batches()) + 1
    figures = rebuild.rebuild(paths, 3, chunk=2)  # best of 3: one run preempted is not it
    assert figures["logs"] == 3 and figures["ratio"] > 1


def test_the_long_log_seeks_and_appends(tmp_path):
    figures = seek.seek(str(tmp_path / "long.dmlog"), 700, repeat=1)
    assert figures["events"] >= 700 and len(figures["seek_us"]) == seek.POINTS
    assert figures["flatness"] >= 1 and figures["snapshots"] >= figures["events"] // 64
    long = Game.load(tmp_path / "long.dmlog")
    assert long.state.is_over and long.seq == figures["events"]
    written = append.append(str(tmp_path), 1, 1)
    assert written["fsync_per_event_events_per_s"] > 0
    assert written["events"] > written["batches"] > 50


def test_the_table_marks_targets_met_and_missed():
    figures = {"rebuild_ratio": 4.2, "random_games_per_s": 300.0, "seek_flatness": 1.3}
    rows = _table(figures, notes={name: "" for name in figures})
    assert "<= 5: met" in rows and ">= 500: missed" in rows and "<= 2: met" in rows


def test_recording_alone_writes_the_very_logs_the_games_wrote(tmp_path):
    """The floor does all the recording a played game does: its files are byte-identical."""
    played = recording.recorded_games(3, seed=1)
    for index, game in enumerate(played):
        (tmp_path / "played").mkdir(exist_ok=True)
        real = play_one(["random"] * 4, 1, index, out_dir=str(tmp_path / "played")).path
        copy = tmp_path / f"recorded-{index}.dmlog"
        recording.record(game, str(copy))
        assert copy.read_bytes() == Path(real).read_bytes()
    figures = recording.recording(2, str(tmp_path / "runs"), repeat=1)
    assert figures["games"] == 2 and figures["commands"] > 2 * 50 and figures["games_per_s"] > 0


def test_the_instruction_counter_reads_callgrind_and_its_worker_plays():
    report = "==1== Events    : Ir\n==1== Collected : 123456789\n==1==\n==1== I   refs: 123,456,789"
    assert instructions.collected(report) == 123456789
    with pytest.raises(ValueError, match="no count"):
        instructions.collected("valgrind: command not found")
    assert instructions.main(["--worker", "1"]) == 0  # what valgrind runs, without valgrind


def test_the_recording_workers_differ_only_by_writing_the_logs(tmp_path):
    instructions.record_games(2, str(tmp_path / "facts"), write=False)
    instructions.record_games(2, str(tmp_path), write=True)
    written = sorted(p.name for p in tmp_path.glob("*.dmlog"))
    assert written == ["game-0000.dmlog", "game-0001.dmlog"]
    assert not (tmp_path / "facts").exists()  # facts only: nothing written
    for stage in ("record", "facts"):
        assert instructions.main(["--worker", "1", "--stage", stage]) == 0


def test_the_web_worker_plays_its_games_to_the_end_through_the_live_games(tmp_path):
    instructions.web(2, str(tmp_path))
    logs = sorted(tmp_path.glob("*.dmlog"))
    assert len(logs) == 3  # the warm-up game and the two counted
    for log in logs:
        assert Game.load(log).state.is_over


def test_the_spectators_benchmark_counts_every_delivery_of_a_real_server():
    """A tiny run: 20 streams, 3 moves; every spectator holds every event, and it says so."""
    from benchmarks import spectators

    figures = spectators.measure(spectators=20, moves=3, clients=2, pause=0.1)
    assert figures["errors"] == 0 and figures["events"] >= 3
    assert figures["deliveries"] == 20 * figures["events"]
    assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    assert figures["server_cpu_ms_per_move"] > 0 and figures["rss_streams_mib"] > 0
