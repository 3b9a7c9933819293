"""The web client's JavaScript checked on its own: Biome's linter and formatter, and the
pure modules' unit tests under ``node --test`` (tests/web/js/). Node and the tools come from
Debian's ``nodejs``/``npm`` and ``package-lock.json`` (``scripts/setup.sh test`` runs
``npm ci``); without them these tests skip, except in CI (``CI=true``), where they fail.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIOME = ROOT / "node_modules" / ".bin" / "biome"


def _node_or_skip() -> str:
    node = shutil.which("node")
    missing = "node" if node is None else "node_modules (npm ci)" if not BIOME.exists() else None
    if missing is None:
        return str(node)
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"the JavaScript checks must run in CI: {missing} is missing")
    pytest.skip(f"the JavaScript checks need {missing}")


def _run(*args: str) -> None:
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"


def test_biome_lints_clean() -> None:
    _node_or_skip()
    _run(str(BIOME), "lint", "--error-on-warnings")


def test_biome_formatting_holds() -> None:
    _node_or_skip()
    _run(str(BIOME), "format")


def test_node_unit_tests_pass() -> None:
    node = _node_or_skip()
    _run(node, "--test", "tests/web/js/")


def test_node_modules_are_not_committed() -> None:
    """Ignored as a folder and as a link to one (a worktree may share another's), and
    nothing under it is tracked."""
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    assert "node_modules" in ignored  # no slash: a link named so is ignored too
    tracked = subprocess.run(
        ["git", "ls-files", "node_modules"], cwd=ROOT, capture_output=True, text=True
    )
    assert tracked.returncode == 0 and tracked.stdout == ""
