"""``dice-miner simulate``: deterministic logs, a summary per bot, clear errors."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.bots.play import play_game
from core.bots.registry import make_bot
from core.bots.series import log_bytes, log_name, play_one
from core.bots.series import play_series as real_play_series
from core.game import Game
from core.read.views import event_text, walk
from core.rng import derive_seed
from frontends.cli import simulate
from scripts import bot_strength
from tests.support.cli_helpers import run_cli

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


# -- found in a developer's review ---------------------------------------------------


def test_the_progress_bar_draws_on_stderr_and_needs_no_terminal(tmp_path):
    """Forced on with stdin from /dev/null and stdout piped: the JSON stays clean, no traceback."""
    done = subprocess.run(
        [sys.executable, "-m", "frontends.cli", "simulate", *ARGS, "--progress", "always"]
        + ["--json", "--out", str(tmp_path)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0
    assert done.stdout.startswith("{") and json.loads(done.stdout)["games"] == 3
    assert "simulating 3 games" in done.stderr and "Traceback" not in done.stderr


def test_ctrl_c_prints_the_games_played_and_leaves_only_whole_logs(capsys, tmp_path, monkeypatch):
    played = []

    def two_games_then_ctrl_c(bots, seed, games, **kwargs):
        for result in real_play_series(bots, seed, 2, **kwargs):
            played.append(result)
            yield result
        cut_short = tmp_path / log_name(2, derive_seed(seed, 2))
        cut_short.write_bytes(b"")  # created, then interrupted before its bytes were written
        raise KeyboardInterrupt

    monkeypatch.setattr(simulate, "play_series", two_games_then_ctrl_c)
    code, out, err = run_cli(capsys, "simulate", *ARGS, "--out", tmp_path, "--json")
    assert code == 130
    assert json.loads(out)["games"] == 2  # the summary of the games played
    assert "interrupted after 2 of 3 games" in err and "2 whole logs in" in err
    assert err.rstrip().endswith("the same command with --resume goes on")
    assert sorted(os.listdir(tmp_path)) == sorted(os.path.basename(r.path) for r in played)


@pytest.mark.parametrize(
    ("out", "message"),
    [
        ("", "--out needs the name of a directory"),
        ("file/below", "cannot make the --out directory"),
    ],
)
def test_an_out_directory_that_cannot_be_made_is_named(capsys, tmp_path, out, message):
    (tmp_path / "file").write_text("x")
    target = str(tmp_path / out) if out else ""
    code, _, err = run_cli(capsys, "simulate", *ARGS, "--out", target)
    assert code == 2 and message in err and len(err.splitlines()) == 1


def test_an_unwritable_out_directory_is_refused_before_any_game(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(simulate, "play_series", None)  # no game may start
    monkeypatch.setattr(os, "access", lambda path, mode: False)  # as for a user without rights
    code, _, err = run_cli(capsys, "simulate", *ARGS, "--out", tmp_path)
    assert code == 2 and "cannot write logs into this directory" in err


def test_demo_words_each_event_from_the_state_before_it(capsys):
    """As ``log show`` does: a magic spend names the faces its dice had, then rolled."""
    code, out, _ = run_cli(capsys, "demo", "--players", "2", "--seed", "7")
    game = Game.new(["Ada", "Brok"], 7)
    play_game(game, [make_bot("random"), make_bot("random")])
    words = [f"{step.seq:4d}  {event_text(step)}" for step in walk(game.batches())]
    assert code == 0 and out.splitlines()[: len(words)] == words
    assert any(" spent die " in line for line in words)


@pytest.mark.parametrize("delay", ["-1", "nan", "inf", "soon"])
def test_demo_refuses_a_delay_that_is_not_a_pause(capsys, delay):
    code, out, err = run_cli(capsys, "demo", "--delay", delay)
    assert code == 2 and out == "" and "--delay" in err


def test_bot_strength_takes_the_seeds_simulate_takes(capsys):
    with pytest.raises(SystemExit):
        bot_strength.main(["--games", "1", "--lineup", "random,random", "--seed", "-1"])
    assert "--seed" in capsys.readouterr().err


def test_bot_strength_interrupted_says_so_in_one_line(capsys, monkeypatch):
    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(bot_strength, "measure", interrupted)
    try:
        code = bot_strength.main(["--games", "1", "--lineup", "random,random"])
    except KeyboardInterrupt:  # would stop the whole test run
        pytest.fail("Ctrl-C escaped bot_strength.main as a traceback")
    assert code == 130
    assert (
        capsys.readouterr().err
        == "bot_strength.py: interrupted (nothing is reported before the end)\n"
    )


# -- going on with an interrupted series ------------------------------------------------

SERIES = ("simulate", "--players", "3", "--bots", "greedy,random", "--seed", "4", "--games", "6")


def test_resume_reads_back_the_logs_there_and_plays_only_the_rest(capsys, tmp_path):
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    _, out, _ = run_cli(capsys, *SERIES, "--out", str(whole), "--json")
    fresh = json.loads(out)
    code, out, _ = run_cli(capsys, *SERIES, "--out", str(whole), "--json", "--resume")
    again = json.loads(out)
    assert code == 0 and again["resumed"] == 6 and again["games"] == 6  # nothing left to play
    assert again["results"] == fresh["results"] and fresh["resumed"] == 0
    run_cli(capsys, *SERIES, "--out", str(cut))
    for index in (1, 4):  # as an interrupt would leave the series: two games not logged
        os.remove(cut / log_name(index, derive_seed(4, index)))
    code, out, _ = run_cli(capsys, *SERIES, "--out", str(cut), "--json", "--resume")
    assert code == 0
    summary = json.loads(out)
    assert summary["resumed"] == 4 and summary["games"] == 6
    assert summary["results"] == fresh["results"]  # the same figures as the whole series
    for log in whole.iterdir():  # and the same logs, byte for byte
        assert (cut / log.name).read_bytes() == log.read_bytes()


def test_without_resume_a_log_already_there_is_refused_naming_the_option(capsys, tmp_path):
    run_cli(capsys, *SERIES, "--games", "1", "--out", str(tmp_path))
    code, _, err = run_cli(capsys, *SERIES, "--games", "1", "--out", str(tmp_path))
    assert code != 0 and "already exists" in err and "--resume" in err


@pytest.mark.parametrize(
    "spoil, reason",
    [
        (lambda path: path.write_bytes(path.read_bytes()[:-7]), "cannot resume from it"),
        (lambda path: path.write_bytes(b""), "cannot resume from it"),
    ],
)
def test_resume_refuses_a_log_that_is_not_whole_and_leaves_it(capsys, tmp_path, spoil, reason):
    run_cli(capsys, *SERIES, "--games", "2", "--out", str(tmp_path))
    path = tmp_path / log_name(1, derive_seed(4, 1))
    spoil(path)
    spoiled = path.read_bytes()
    code, _, err = run_cli(capsys, *SERIES, "--games", "2", "--out", str(tmp_path), "--resume")
    assert code != 0 and str(path) in err and reason in err
    assert path.read_bytes() == spoiled  # never overwritten


def test_resume_refuses_another_series_log_under_this_one_s_name(capsys, tmp_path):
    other = tmp_path / "other"
    run_cli(capsys, "simulate", "--players", "2", "--bots", "random", "--seed", "4",
            "--games", "1", "--out", str(other))  # fmt: skip
    (log,) = other.iterdir()  # game 0 of seed 4, but two random bots, not this lineup
    ours = tmp_path / log.name
    ours.write_bytes(log.read_bytes())
    code, _, err = run_cli(capsys, *SERIES, "--games", "1", "--out", str(tmp_path), "--resume")
    assert code != 0 and "not game 0 of this series" in err


def test_resume_needs_an_out_directory(capsys):
    code, _, err = run_cli(capsys, *SERIES, "--resume")
    assert code != 0 and "--out" in err
