"""The analysis's calibration scripts and benchmark measure what they say (not how well)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.analysis import agreement
from core.analysis import analyse_log
from core.analysis.judge import Options
from core.bots.play import play_game
from core.bots.registry import make_bot
from core.game import Game
from scripts import branch_calibration
from scripts.analysis_calibration import brier, reliability, report, round_starts


def test_calibration_reads_the_chances_analyse_reports_at_each_rounds_start(tmp_path):
    path = tmp_path / "game.dmlog"
    game = Game.new(["Ada", "Brok", "Cid"], 12, log=str(path), sync=False)
    play_game(game, [make_bot("greedy")] * 3)
    game.close()
    rows = round_starts(Game.load(path), Options(4))
    document = analyse_log(str(path), 4, keep=False).document
    began = [e["win_chance"] for e in document["events"] if e["type"] == "RoundBegan"]
    assert [r for r, _, _ in rows] == [1, 1, 1, 2, 2, 2, 3, 3, 3]
    assert [round(100 * p, 2) for _, p, _ in rows] == [c for chances in began for c in chances]
    winners = Game.load(path).state.winners
    assert [won for _, _, won in rows[:3]] == [
        1 / len(winners) if s in winners else 0 for s in range(3)
    ]


def test_brier_and_reliability_by_hand():
    rows = [(1, 0.9, 1.0), (1, 0.05, 0.0), (2, 0.95, 0.0), (2, 0.5, 0.5)]
    assert brier(rows) == (0.01 + 0.0025 + 0.9025 + 0) / 4
    table = reliability(rows)
    assert [(b["bin"], b["n"]) for b in table] == [("0-10%", 1), ("50-60%", 1), ("90-100%", 2)]
    assert table[-1]["predicted"] == 0.925 and table[-1]["won"] == 0.5
    figures = report(rows, 2)
    assert figures["brier_even"] == round(brier([(r, 0.5, w) for r, _, w in rows]), 4)
    assert figures["rounds"]["2"]["chances"] == 2


def test_the_benchmark_compares_two_analyses_of_one_game(tmp_path):
    path = str(Path(__file__).resolve().parents[2] / "replays" / "two-players.dmlog")
    few = analyse_log(path, 2, keep=False).document
    assert agreement(few, few)["same_mark"] == 1.0 and agreement(few, few)["loss_gap_max"] == 0
    more = analyse_log(path, 8, keep=False).document
    figures = agreement(few, more)
    assert figures["choices"] == sum(not d["forced"] for d in few["decisions"])
    assert 0 <= figures["same_best"] <= 1 and figures["chance_gap_mean"] > 0


def test_the_branch_calibration_plays_the_best_move_in_a_same_luck_branch():
    """Each compared decision's branch is the original up to it, then the best move; the
    control (the played move again) gives the original's final scores."""
    bots = ("greedy", "greedy", "random")
    part = branch_calibration.compare(bots, 5, 4, 6, 0)
    assert part["control"] is True
    assert part["rows"], "with 4 futures the best move found differs from some played"
    for row in part["rows"]:
        assert row["loss"] >= 0 and row["won_before"] in (0.0, 0.5, 1.0, 1 / 3)
    figures = branch_calibration.report([part, part], 5, 50)
    assert figures["n"] == 2 * len(part["rows"]) and figures["controls"] == 2
    assert figures["raised"] + figures["unchanged"] + figures["lowered"] == figures["n"]


def test_wilson_and_the_bootstrap_by_hand():
    low, high = branch_calibration.wilson(8, 10)
    assert round(low, 4) == 0.4902 and round(high, 4) == 0.9433
    same = [[{"delta": 1}, {"delta": -1}], [{"delta": 1}, {"delta": -1}]]
    assert branch_calibration.bootstrap(same, branch_calibration.raised, 1, 100) == (0.5, 0.5)
    figures = branch_calibration.summary([{"delta": 2, "won": 1.0, "won_before": 0.0}] * 4)
    assert figures["raised_share"] == 1.0 and figures["mean_delta95"] == [2.0, 2.0]
    assert figures["win_share_delta"] == 1.0
