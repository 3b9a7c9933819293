"""``dice-miner branch``: a what-if log, ``log verify`` and ``log show`` on it, and its
refusals (one line, exit 2)."""

from __future__ import annotations

import hashlib
import json
import re
import shutil

import msgpack
import pytest

from core.bots import make_bot
from core.bots.play import bot_command
from core.branch import branch_points
from core.game import Game
from core.log.framing import encode_log
from core.store import load_batches
from replays.golden import SPECS
from tests.support.cli_helpers import flip_byte, run_cli, truncate

FOUR = next(spec for spec in SPECS if spec.name == "four-players").log_path
SECRET = bytes(range(32))


@pytest.fixture
def parent(tmp_path):
    path = tmp_path / "game.dmlog"
    shutil.copy(FOUR, path)
    return path


def sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def a_point(path, index: int = 20) -> int:
    return branch_points(load_batches(path)[1])[index]


def refused(capsys, *argv) -> str:
    """The one line ``dice-miner ARGV`` refuses with (exit 2)."""
    code, out, err = run_cli(capsys, *argv)
    assert code == 2, (out, err)
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    return err.strip()


def test_branch_writes_a_log_that_verifies_and_says_it_is_a_branch(capsys, parent, tmp_path):
    at, out = a_point(parent), tmp_path / "what-if.dmlog"
    code, said, err = run_cli(capsys, "branch", parent, "--at", at, "--luck", "same", "--out", out)
    assert code == 0 and err == ""
    assert (
        f"a branch of {parent} (SHA-256 {sha(parent)[:16]}...) after its first {at} events" in said
    )
    assert "with the same luck" in said and f"play --resume {out}" in said
    code, verified, _ = run_cli(capsys, "log", "verify", out)
    assert code == 0
    first, second = verified.splitlines()
    assert first.startswith(f"{out}: ok: ") and "reproduces every event" in first
    assert second.strip() == (
        f"a branch of the log whose SHA-256 is {sha(parent)}, after its first {at} events, "
        "with the same luck (the parent's dice at every position)"
    )
    code, shown, _ = run_cli(capsys, "log", "show", out)
    fact = shown.splitlines()[at]
    assert fact.split()[:2] == [str(at), "GameBranched"]
    assert f"Branched from another game (its log's SHA-256 {sha(parent)[:16]}...)" in fact
    assert f"after its first {at} events, with the same luck" in fact
    code, listed, _ = run_cli(capsys, "log", "show", out, "--json")
    record = json.loads(listed.splitlines()[at])
    assert (record["type"], record["parent"], record["at"]) == ("GameBranched", sha(parent), at)


def test_fresh_luck_without_a_seed_draws_one_and_records_it(capsys, parent, tmp_path):
    out = tmp_path / "fresh.dmlog"
    code, said, _ = run_cli(
        capsys, "branch", parent, "--at", a_point(parent), "--luck", "fresh", "--out", out
    )
    seed = int(re.search(r"fresh luck \(seed (\d+)\)", said).group(1))
    assert code == 0
    fact = load_batches(out)[1][-1].events[0]
    assert (fact.luck, fact.seed) == ("fresh", seed)
    code, verified, _ = run_cli(capsys, "log", "verify", out)
    assert code == 0 and f"with fresh luck (seed {seed} from there on)" in verified


def test_a_branch_of_a_branch_names_its_own_parent(capsys, parent, tmp_path):
    first, second = tmp_path / "first.dmlog", tmp_path / "second.dmlog"
    run_cli(capsys, "branch", parent, "--at", a_point(parent, 30), "--luck", "same", "--out", first)
    with Game.open(first, sync=False) as game:  # played on another way
        game.issue(game.legal()[-1])
    at = a_point(first, 25)
    code, _, _ = run_cli(capsys, "branch", first, "--at", at, "--luck", "same", "--out", second)
    assert code == 0
    code, verified, _ = run_cli(capsys, "log", "verify", second)
    assert code == 0
    assert f"a branch of the log whose SHA-256 is {sha(first)}, after its first {at}" in verified
    assert f"SHA-256 is {sha(parent)}" not in verified  # its parent's parent was cut off


def test_refusals_are_one_line_with_exit_code_2(capsys, parent, tmp_path):
    out = str(tmp_path / "out.dmlog")
    _, batches = load_batches(parent)
    inside = next(b for b in batches[1:] if len(b.events) > 1)
    line = refused(capsys, "branch", parent, "--at", inside.seq + 1, "--luck", "same", "--out", out)
    assert f"the nearest branch points are {inside.seq} and {inside.end}" in line
    end = batches[-1].end
    line = refused(capsys, "branch", parent, "--at", end + 5, "--luck", "same", "--out", out)
    assert f"holds {end} events: {end + 5} is beyond its end" in line
    line = refused(capsys, "branch", parent, "--at", end, "--luck", "same", "--out", out)
    assert "the game is over there" in line
    line = refused(capsys, "branch", parent, "--at", 3, "--luck", "same", "--seed", 4, "--out", out)
    assert "--seed goes with --luck fresh" in line
    damaged = tmp_path / "damaged.dmlog"
    flip_byte(parent, damaged, -30)
    line = refused(capsys, "branch", damaged, "--at", 3, "--luck", "same", "--out", out)
    assert f"{damaged}: damaged at byte" in line
    torn = tmp_path / "torn.dmlog"
    truncate(parent, torn, 5)
    line = refused(capsys, "branch", torn, "--at", 3, "--luck", "same", "--out", out)
    assert "incomplete final record" in line
    line = refused(
        capsys, "branch", tmp_path / "none.dmlog", "--at", 3, "--luck", "same", "--out", out
    )
    assert "cannot read log" in line
    line = refused(capsys, "branch", parent, "--at", 3, "--luck", "same", "--out", parent)
    assert "already exists" in line
    assert not (tmp_path / "out.dmlog").exists()


def test_a_secret_not_revealed_is_refused_with_the_same_luck_saying_why(capsys, tmp_path):
    live = tmp_path / "live.dmlog"
    with Game.new(["Ada", "Brok"], secret=SECRET, log=live, sync=False) as game:
        bots = [make_bot("greedy"), make_bot("greedy")]
        for _ in range(12):
            game.issue(bot_command(game, bots[game.to_act()]))
    at, out = a_point(live, 8), tmp_path / "out.dmlog"
    line = refused(capsys, "branch", live, "--at", at, "--luck", "same", "--out", out)
    assert f"{live}: cannot branch at event {at}: " in line
    assert "secret seed not revealed yet" in line and "fresh luck does not" in line
    code, _, _ = run_cli(
        capsys, "branch", live, "--at", at, "--luck", "fresh", "--seed", 8, "--out", out
    )
    assert code == 0
    code, verified, _ = run_cli(capsys, "log", "verify", out)
    assert code == 0
    assert "came from a secret seed not revealed" in verified
    assert "from its seed 8, reproduces every event" in verified


def test_verify_finds_a_header_that_names_another_parent(capsys, parent, tmp_path):
    out, forged = tmp_path / "branch.dmlog", tmp_path / "forged.dmlog"
    at = a_point(parent)
    run_cli(capsys, "branch", parent, "--at", at, "--luck", "same", "--out", out)
    scan, _ = load_batches(out)
    header = {**scan.header, "branch": {"parent": "00" * 32, "at": at}}
    forged.write_bytes(encode_log(header, scan.payloads))
    code, said, _ = run_cli(capsys, "log", "verify", forged)
    assert code == 1
    assert said.splitlines()[0] == (
        f"{forged}: DIFFERS in what it says of the game it was branched from:"
    )
    assert "the header's branch is" in said
    plain = tmp_path / "plain.dmlog"
    scan, _ = load_batches(parent)
    raw = msgpack.unpackb(msgpack.packb({**scan.header, "branch": {"parent": "ab", "at": 3}}))
    plain.write_bytes(encode_log(raw, scan.payloads))
    code, said, _ = run_cli(capsys, "log", "verify", plain)
    assert code == 1 and "names a parent" in said


def test_branch_has_help(capsys):
    code, out, _ = run_cli(capsys, "branch", "--help")
    assert code == 0 and "--luck" in out and "--at N" in out
