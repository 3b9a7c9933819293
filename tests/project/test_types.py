"""The code type-checks: mypy over ``core`` and ``frontends`` with the project's settings.

The settings are ``[tool.mypy]`` in ``pyproject.toml`` (the packages, the Python
version, the strictness); this runs mypy as a developer would, in the repository,
so its incremental cache (``.mypy_cache``) makes a run after a small change take
about a second (a clean checkout's first run: about 5 s here).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_finds_no_errors_in_core_and_frontends():
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert done.returncode == 0 and not errors, (
        f"mypy (exit {done.returncode}) reports {len(errors)} errors:\n"
        + "\n".join(errors or [done.stdout.strip(), done.stderr.strip()])
    )
    assert done.stdout.startswith("Success: no issues found"), done.stdout
