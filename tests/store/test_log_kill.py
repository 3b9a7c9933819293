"""Promise 1: no acknowledged event is lost when the writing process is killed at any moment.

The trials themselves are in ``tests/support/soak_kill.py`` (also the longer soak:
``python -m tests.support.soak_kill --trials 2000``); the writer is
``tests/support/kill_writer.py``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import core.log.file as log_file
from tests.support.kill_writer import game_path, new_game, play
from tests.support.soak_kill import REPO, ExpectedLogs, Figures, check_log, run_trials

TRIALS = 200


def test_sigkill_at_random_moments_loses_no_acknowledged_event(tmp_path: Path, capsys) -> None:
    """200 writers SIGKILLed mid-game: each log opens (after repair if torn) with every ack."""
    figures = run_trials(TRIALS, seed=2019, max_acks=100, base=tmp_path)
    with capsys.disabled():
        print(f"\n{figures.summary()}")
    assert figures.trials == TRIALS
    assert figures.killed > TRIALS * 0.9  # killed mid-run, not after finishing
    assert figures.acked_events > TRIALS * 20
    # The trials reached every kind of moment the promise covers:
    assert figures.repaired > 0  # inside a record's write: a torn tail, repaired
    assert figures.interrupted_creates > 0  # while creating a log: no log, nothing acked
    assert figures.header_only == 0  # a log is created with its game's opening batch
    assert figures.lock_refusals > 0  # while another process held the writer's lock


def test_a_writer_that_acknowledges_too_early_is_caught(tmp_path: Path) -> None:
    """The check has teeth: a writer acking one event before it is written fails it."""
    with pytest.raises(AssertionError, match=r"acknowledged seq \d+ lost"):
        run_trials(12, seed=5, max_acks=60, ahead=1, base=tmp_path)


def test_every_command_is_fsynced_before_issue_returns(tmp_path: Path, monkeypatch) -> None:
    """Durable before acknowledged: when ``issue`` returns, the whole file has been fsynced."""
    synced: list[int] = []
    real_fsync = log_file._fsync

    def recording_fsync(fd: int) -> None:
        real_fsync(fd)
        synced.append(os.fstat(fd).st_size)

    monkeypatch.setattr(log_file, "_fsync", recording_fsync)
    path = tmp_path / "game.dmlog"
    commits = 0

    def check(seq: int) -> None:
        nonlocal commits
        commits += 1
        assert synced[-1] == path.stat().st_size, f"returned before syncing up to seq {seq}"

    with new_game(2019, 1, path) as game:
        check(game.seq)
        play(game, check)
    assert commits > 50
    assert len(synced) >= commits


def test_a_freshly_started_writer_killed_mid_game_loses_nothing(tmp_path: Path) -> None:
    """The plain way, without the fork server: ``python -m tests.support.kill_writer`` acks on its
    stdout; it is SIGKILLed after its 40th ack, and its log keeps every acked event."""
    scratch = tmp_path / "expected"
    scratch.mkdir()
    expected = ExpectedLogs(31, scratch, 1)
    with subprocess.Popen(
        [sys.executable, "-m", "tests.support.kill_writer", str(tmp_path), "--seed", "31"],
        stdout=subprocess.PIPE,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        text=True,
    ) as writer:
        assert writer.stdout is not None
        acked = [int(writer.stdout.readline().split()[2]) for _ in range(40)]
        os.kill(writer.pid, signal.SIGKILL)
        acked += [int(line.split()[2]) for line in writer.stdout]  # acks still in the pipe
    assert writer.returncode == -signal.SIGKILL
    figures = Figures()
    check_log(game_path(tmp_path, 0), 0, max(acked), expected, figures)
    assert figures.acked_events == max(acked) >= 40
