"""The documents name only files that exist: a path in backticks in the README, the
changelog or a page of docs/ must be in the repository (the README once named
``frontends/web/resume.py`` long after it was gone)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: A path in backticks under one of the repository's own folders.
PATH = re.compile(r"`((?:core|frontends|tests|scripts|benchmarks|docs|replays|\.ci)/[\w./-]+)`")
DOCUMENTS = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_path_a_document_names_exists(document: Path):
    named = {m.group(1).rstrip(".") for m in PATH.finditer(document.read_text())}
    missing = sorted(p for p in named if not (ROOT / p).exists())
    assert not missing, f"{document.name} names paths that do not exist: {missing}"


def test_the_check_finds_a_missing_path(tmp_path):
    page = "see `frontends/web/resume.py` and `core/game.py`"
    named = {m.group(1) for m in PATH.finditer(page)}
    assert sorted(p for p in named if not (ROOT / p).exists()) == ["frontends/web/resume.py"]


def test_the_inner_loop_leaves_out_browsers_terminals_databases_and_slow_tests():
    """The markers the README's quick loop names are registered and given by fixture."""
    import subprocess
    import sys

    quick = "not browser and not tmux and not postgres and not slow"
    files = [
        "tests/web/test_games.py",  # none of them: all stay
        "tests/web/browser/test_game_page.py",  # the browser's
        "tests/cli/tmux/test_play.py",  # the terminal's
        "tests/host/test_scale_out.py",  # the database's
        "tests/store/test_store_contract.py",  # the database's only for its PostgreSQL backend
    ]
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "--strict-markers", "-m", quick] + files,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert listed.returncode == 0, listed.stdout + listed.stderr
    kept = {line.split("::")[0] for line in listed.stdout.splitlines() if "::" in line}
    assert kept == {"tests/web/test_games.py", "tests/store/test_store_contract.py"}
    assert "[postgres" not in listed.stdout and "[memory" in listed.stdout
