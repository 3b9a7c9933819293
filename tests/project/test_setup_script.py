"""./play and ./test set up .venv with a recent enough Python, or say in one line why not.

The scripts run in a scratch copy of the repository's top level with fake interpreters
(shell scripts that log their arguments), so nothing is installed and no network is used.
"""

import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FAKE_PYTHON = """#!/bin/sh
# A stand-in interpreter: logs its arguments; `-m venv DIR` makes DIR/bin/python (a copy).
echo "$0 $*" >> "$FAKE_LOG"
case "$1" in
  --version) echo "Python {version}" ;;
  -c) exit {too_old} ;;
  -m)
    if [ "$2" = venv ]; then mkdir -p "$3/bin" && cp "$0" "$3/bin/python"; fi
    if [ "$2" = pytest ]; then echo "pytest ran"; fi ;;
esac
exit 0
"""

FAKE_DICE_MINER = '#!/bin/sh\necho "dice-miner $*"\n'


def fake(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def interpreter(path: Path, version: str) -> Path:
    too_old = int(tuple(map(int, version.split("."))) < (3, 11))
    return fake(path, FAKE_PYTHON.format(version=version, too_old=too_old))


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "setup.sh", repo / "scripts")
    for script in ("play", "test"):
        shutil.copy(ROOT / script, repo)
    (repo / "pyproject.toml").write_text("")
    return repo


def run(repo: Path, script: str, python: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHON": python, "FAKE_LOG": str(repo.parent / "calls.log")}
    return subprocess.run(
        [str(repo / script), *args], env=env, capture_output=True, text=True, timeout=30
    )


def calls(repo: Path) -> str:
    log = repo.parent / "calls.log"
    return log.read_text() if log.exists() else ""


def test_a_too_old_python_is_named_in_one_line_and_nothing_is_made(checkout: Path):
    old = interpreter(checkout.parent / "bin" / "python3.10", "3.10.13")
    result = run(checkout, "play", str(old))
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "3.11 or newer" in lines[0] and "Python 3.10.13" in lines[0]
    assert "PYTHON=python3.12" in lines[0]
    assert not (checkout / ".venv").exists()
    assert "-m venv" not in calls(checkout)


def test_a_missing_python_is_named(checkout: Path):
    result = run(checkout, "test", "no-such-python3.99")
    assert result.returncode == 1
    assert "no-such-python3.99 is not found" in result.stderr
    assert not (checkout / ".venv").exists()


def test_a_recent_python_makes_the_venv_installs_once_and_runs(checkout: Path):
    new = interpreter(checkout.parent / "bin" / "python3.12", "3.12.1")
    first = run(checkout, "test", str(new), "-k", "x")
    assert first.returncode == 0, first.stderr
    assert "pytest ran" in first.stdout
    log = calls(checkout)
    assert f"{new} -m venv .venv" in log
    assert "pip install --quiet --disable-pip-version-check -e .[test]" in log
    assert log.rstrip().endswith("-m pytest -n auto --dist loadfile -k x")
    assert (checkout / ".venv" / ".installed-test").exists()
    fake(checkout / ".venv" / "bin" / "dice-miner", FAKE_DICE_MINER)  # pip's, for real
    before = calls(checkout).count("pip install")
    again = run(checkout, "test", str(new))
    assert again.returncode == 0 and calls(checkout).count("pip install") == before
    play = run(checkout, "play", str(new))
    assert play.stdout.strip() == "dice-miner play"  # no arguments: the terminal game
    assert calls(checkout).count("pip install") == before  # the test install holds the game's
    for args, runs in [
        (("--seed", "3", "--solo"), "dice-miner play --seed 3 --solo"),  # options: the game's
        (("serve", "--port", "0"), "dice-miner serve --port 0"),  # a command: as given
        (("--help",), "dice-miner play --help"),  # the game's options, then the commands
        (("-h",), "dice-miner play -h"),
    ]:
        assert run(checkout, "play", str(new), *args).stdout.strip() == runs


def test_the_first_run_says_what_it_is_doing_and_a_later_run_is_silent(checkout: Path):
    """The first ./play installs for half a minute or more: it says so, then that it is done."""
    new = interpreter(checkout.parent / "bin" / "python3.12", "3.12.1")
    fake(checkout / ".venv" / "bin" / "dice-miner", FAKE_DICE_MINER)
    (checkout / ".venv" / "bin" / "python").symlink_to(new)
    first = run(checkout, "play", str(new))
    assert first.returncode == 0, first.stderr
    said = first.stderr.splitlines()
    assert said[0].startswith("setup: installing Dice Miner into .venv"), first.stderr
    assert "about a minute" in said[0]
    assert re.fullmatch(r"setup: installed in \d+ s", said[-1]), said
    again = run(checkout, "play", str(new))
    assert again.stderr == "" and again.stdout.strip() == "dice-miner play"
    (checkout / ".venv" / "bin" / "python").unlink()
    (checkout / ".venv" / ".installed").unlink()
    made = run(checkout, "test", str(new))
    assert "setup: first run: making .venv" in made.stderr
    assert "installing Dice Miner and its test tools" in made.stderr


def test_a_venv_made_by_an_old_python_is_remade(checkout: Path):
    interpreter(checkout / ".venv" / "bin" / "python", "3.10.13")
    (checkout / ".venv" / ".installed-test").touch()
    new = interpreter(checkout.parent / "bin" / "python3.12", "3.12.1")
    result = run(checkout, "test", str(new))
    assert result.returncode == 0, result.stderr
    assert "was made with Python 3.10.13; remaking it" in result.stderr
    assert f"{new} -m venv .venv" in calls(checkout)
    assert "-e .[test]" in calls(checkout)  # the stale install stamp went with the old .venv
    assert (
        "Python 3.12.1"
        in subprocess.run(
            [str(checkout / ".venv" / "bin" / "python"), "--version"],
            env={**os.environ, "FAKE_LOG": os.devnull},
            capture_output=True,
            text=True,
        ).stdout
    )
