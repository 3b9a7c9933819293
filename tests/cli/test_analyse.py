"""``dice-miner analyse``: its outputs, its kept file, and bad input in one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from core.analysis import ANALYSIS_VERSION
from tests.support.cli_helpers import flip_byte, run_cli, truncate

REPLAYS = Path(__file__).resolve().parents[2] / "replays"


@pytest.fixture
def log(tmp_path) -> Path:
    path = tmp_path / "game.dmlog"
    shutil.copy(REPLAYS / "tie-break.dmlog", path)
    return path


def test_text_by_default_and_the_analysis_kept_beside_the_log(capsys, log):
    code, out, err = run_cli(capsys, "analyse", log, "--samples", "4")
    assert code == 0 and err == ""
    assert out.startswith("game.dmlog: a 2-player game")
    assert "won after a tie-break" in out and "biggest losses:" in out
    (kept,) = log.parent.glob(f"game.dmlog.analysis-v{ANALYSIS_VERSION}-*.json")
    assert f"(analysis kept in {kept})" in out
    code, again, _ = run_cli(capsys, "analyse", log, "--samples", "4")
    assert code == 0 and f"(analysis read back from {kept})" in again
    assert again.replace("read back from", "kept in") == out


def test_json_is_the_kept_file_byte_for_byte(capsys, log):
    code, out, _ = run_cli(capsys, "analyse", log, "--samples", "4", "--json", "--jobs", "2")
    (kept,) = log.parent.glob(f"game.dmlog.analysis-v{ANALYSIS_VERSION}-*.json")
    assert code == 0 and out == kept.read_text()
    document = json.loads(out)
    assert document["options"]["samples"] == 4 and document["log"]["mode"] == "multi"
    assert {"decisions", "events", "summary", "thresholds", "undone"} <= set(document)
    code, fresh, _ = run_cli(capsys, "analyse", log, "--samples", "4", "--json", "--no-cache")
    assert fresh == out  # computed again, in one process: the same bytes


def test_the_progress_bar_goes_to_stderr(capsys, log):
    code, out, err = run_cli(
        capsys, "analyse", log, "--samples", "2", "--json", "--no-cache", "--progress", "always"
    )
    assert code == 0 and json.loads(out)["options"]["samples"] == 2
    assert "analysing game.dmlog" in err


def test_no_cache_writes_nothing(capsys, log):
    code, _, _ = run_cli(capsys, "analyse", log, "--samples", "2", "--no-cache")
    assert code == 0 and list(log.parent.iterdir()) == [log]


def test_bad_input_is_one_line_and_exit_2(capsys, log, tmp_path):
    flipped, torn = tmp_path / "flipped.dmlog", tmp_path / "torn.dmlog"
    flip_byte(log, flipped, 2500)
    truncate(log, torn, 7)
    notes = tmp_path / "notes.txt"
    notes.write_text("hello\n")
    for target, message in [
        (flipped, "damaged at byte"),
        (torn, "torn"),
        (tmp_path / "missing.dmlog", "cannot read log"),
        (notes, "not a Dice Miner log"),
        (tmp_path, "Is a directory"),
    ]:
        code, out, err = run_cli(capsys, "analyse", target, "--samples", "2")
        assert code == 2 and out == "", target
        assert message.lower() in err.lower() and len(err.strip().splitlines()) == 1, err
        assert "Traceback" not in err
    for bad in ("0", "-3", "many"):
        code, _, err = run_cli(capsys, "analyse", log, "--samples", bad)
        assert code == 2 and "--samples" in err and "Traceback" not in err
