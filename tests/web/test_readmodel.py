"""The board's read model for the pages: the round's score so far, and the solo game's details.

These are what a player of the physical game counts on the table and the terminal
shows (``frontends/cli/tui/panels.py``): the board JSON carries them so the page
draws them without adding up a single point itself.
"""

from __future__ import annotations

from pathlib import Path

from core.modes.multiplayer.events import RoundScored, TieBreakScored
from core.modes.solo.scoring import solo_score
from core.projections.state import EXCAVATION, MAGIC
from core.read.views import walk
from core.store import load_batches
from frontends.web.readmodel import board_view
from tests.support.web_support import make_app, record_game

REPLAYS = Path(__file__).resolve().parents[2] / "replays"


def test_the_round_so_far_is_what_the_round_then_scores(tmp_path):
    """Just before each round is scored, every seat's score so far is the score it gets."""
    record_game(tmp_path / "g.dmlog")
    _, batches = load_batches(tmp_path / "g.dmlog")
    scored = 0
    for step in walk(batches):
        if isinstance(step.event, RoundScored):
            now = board_view(step.before, step.seq)["table"]["round_now"]
            assert now == [list(s) for s in step.event.scores], step.seq
            scored += 1
    assert scored == 3


def test_the_round_so_far_is_shown_only_while_dice_are_dug_or_magic_spent(tmp_path):
    record_game(tmp_path / "g.dmlog", names=("Ann", "Bo"))
    _, batches = load_batches(tmp_path / "g.dmlog")
    phases = set()
    for step in walk(batches):
        now = board_view(step.after, step.seq + 1)["table"]["round_now"]
        live = step.after.phase in (EXCAVATION, MAGIC) and bool(step.after.troves)
        assert (now is not None) == live, (step.seq, step.after.phase)
        if now is not None:
            phases.add(step.after.phase)
            assert len(now) == 2 and all(len(parts) == 3 for parts in now)
    assert phases == {EXCAVATION, MAGIC}


def test_in_a_tie_break_only_the_tied_players_score_so_far():
    _, batches = load_batches(REPLAYS / "tie-break.dmlog")
    checked = 0
    for step in walk(batches):
        if isinstance(step.event, TieBreakScored):
            now = board_view(step.before, step.seq)["table"]["round_now"]
            tied = dict(zip(step.event.seats, step.event.scores, strict=True))
            assert now == [list(tied[s]) if s in tied else None for s in range(len(now))]
            checked += 1
    assert checked >= 1


def test_the_solo_board_has_the_sequences_the_breakdown_and_the_refills():
    _, batches = load_batches(REPLAYS / "solo.dmlog")
    seen_sequences = False
    for step in walk(batches):
        state = step.after
        if not state.troves:
            continue
        table = board_view(state, step.seq + 1)["table"]
        score = solo_score(state)
        b = table["solo_score"]["breakdown"]
        assert b == {
            "hazards": score.breakdown.hazards,
            "treasure": score.breakdown.treasure,
            "frozen": score.breakdown.frozen,
            "tunnels": score.breakdown.tunnels,
        }
        assert sum(b.values()) == table["solo_score"]["score"] == score.score
        assert table["sequences"] == [list(seq) for seq in state.solo.sequences]
        assert table["refills_left"] == state.solo.refills_left
        assert "round_now" not in table
        seen_sequences = seen_sequences or len(table["sequences"]) > 1
    assert seen_sequences


def test_the_api_state_carries_the_round_so_far(tmp_path):
    app = make_app(tmp_path)
    record_game(app.config["REPLAYS_DIR"] / "four.dmlog")
    client = app.test_client()
    total = client.get("/api/replays/four.dmlog").get_json()["events"]
    found = False
    for at in range(1, total + 1, 7):
        state = client.get(f"/api/replays/four.dmlog/state?at={at}").get_json()
        if state["phase"] in (EXCAVATION, MAGIC) and state["table"]["round_now"]:
            found = True
            assert len(state["table"]["round_now"]) == 4
    assert found
