"""The analysis's calibration script and benchmark measure what they say (not how well)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.analysis import agreement
from core.analysis import analyse_log
from core.analysis.judge import Options
from core.bots.play import play_game
from core.bots.registry import make_bot
from core.game import Game
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
    path = str(Path(__file__).resolve().parent.parent / "replays" / "two-players.dmlog")
    few = analyse_log(path, 2, keep=False).document
    assert agreement(few, few)["same_mark"] == 1.0 and agreement(few, few)["loss_gap_max"] == 0
    more = analyse_log(path, 8, keep=False).document
    figures = agreement(few, more)
    assert figures["choices"] == sum(not d["forced"] for d in few["decisions"])
    assert 0 <= figures["same_best"] <= 1 and figures["chance_gap_mean"] > 0
