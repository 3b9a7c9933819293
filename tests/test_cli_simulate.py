"""``dice-miner simulate``: deterministic logs, a summary per bot, clear errors."""

import json
import os

import pytest

from core.bots.series import log_bytes, play_one
from core.game import Game
from core.rng import derive_seed
from tests.cli_helpers import run_cli

ARGS = ("--players", "3", "--bots", "greedy,random", "--seed", "77", "--games", "3")


def logs_in(directory) -> dict[str, bytes]:
    return {name: (directory / name).read_bytes() for name in sorted(os.listdir(directory))}


def test_the_same_arguments_give_byte_identical_logs(capsys, tmp_path):
    code_a, out_a, _ = run_cli(capsys, "simulate", *ARGS, "--out", tmp_path / "a")
    code_b, _, _ = run_cli(capsys, "simulate", *ARGS, "--out", tmp_path / "b")
    a, b = logs_in(tmp_path / "a"), logs_in(tmp_path / "b")
    assert code_a == code_b == 0
    assert len(a) == 3 and a == b  # one log per game, nothing else (no lock files)
    assert "written without fsync" in out_a


def test_simulated_logs_are_what_a_file_log_holds(tmp_path):
    """Writing the in-memory game at the end gives the bytes Game.new(log=...) writes."""
    result = play_one(["random", "random"], 9, 0, out_dir=str(tmp_path))
    direct = tmp_path / "direct.dmlog"
    game = Game.new(["random-1", "random-2"], result.seed, log=str(direct), sync=False)
    for batch in Game.load(result.path).batches()[1:]:
        game.issue(batch.command)
    game.close()
    assert direct.read_bytes() == open(result.path, "rb").read()  # noqa: SIM115
    assert log_bytes(Game.load(result.path)) == direct.read_bytes()


def test_game_seeds_derive_from_the_series_seed(capsys, tmp_path):
    run_cli(capsys, "simulate", *ARGS, "--out", tmp_path)
    names = sorted(os.listdir(tmp_path))
    seeds = [Game.load(tmp_path / n).state.seed for n in names]
    assert seeds == [derive_seed(77, i) for i in range(3)]
    assert all(f"{seed:016x}" in name for seed, name in zip(seeds, names, strict=True))


def test_the_summary_gives_wins_and_mean_score_per_bot(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "simulate", *ARGS, "--json")
    summary = json.loads(out)
    assert code == 0 and summary["games"] == 3 and summary["games_per_second"] > 0
    rows = {row["bot"]: row for row in summary["results"]}
    assert set(rows) == {"greedy", "random"}
    assert rows["greedy"]["seats"] == 2 and rows["random"]["seats"] == 1
    assert sum(row["wins"] for row in rows.values()) >= 3
    _, text, _ = run_cli(capsys, "simulate", *ARGS)
    assert "games/s" in text and "greedy" in text and "mean score" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--bots", "nobody"), "unknown bot 'nobody'"),
        (("--bots", "greedy,random,greedy", "--players", "2"), "3 bots named for 2 seats"),
        (("--games", "0"), "--games"),
        (("--players", "5"), "--players"),
        (("--seed", "-1"), "--seed"),
    ],
)
def test_bad_arguments_are_one_line_errors(capsys, argv, message):
    code, out, err = run_cli(capsys, "simulate", *argv)
    assert code == 2 and out == "" and message in err


def test_an_existing_log_is_never_overwritten(capsys, tmp_path):
    run_cli(capsys, "simulate", *ARGS, "--out", tmp_path)
    before = logs_in(tmp_path)
    code, _, err = run_cli(capsys, "simulate", *ARGS, "--out", tmp_path)
    assert code == 2 and "already exists" in err
    assert logs_in(tmp_path) == before
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = run_cli(capsys, "simulate", *ARGS, "--out", blocker)
    assert code == 2 and "not a directory" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["simulate", "--help"],
        ["replay", "--help"],
        ["demo", "--help"],
        ["log", "--help"],
        ["log", "show", "--help"],
        ["log", "verify", "--help"],
        ["log", "diff", "--help"],
        ["log", "repair", "--help"],
    ],
)
def test_every_command_has_help(capsys, argv):
    code, out, _ = run_cli(capsys, *argv)
    assert code == 0 and "usage: dice-miner" in out


def test_demo_plays_a_game_with_the_named_bots(capsys):
    code, out, _ = run_cli(capsys, "demo", "--players", "2", "--seed", "3", "--bots", "greedy")
    assert code == 0 and "wins" in out and "greedy bot" in out
    assert run_cli(capsys, "demo", "--bots", "nobody")[0] == 2
