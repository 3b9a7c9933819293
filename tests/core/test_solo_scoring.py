"""Solo scoring (RULES.md section 4): each category, and every rating band's boundaries."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.commands import TakeDie
from core.dice import DIE_COUNT, KIND_OF
from core.game import Game
from core.modes.solo.scoring import RATINGS, SoloBreakdown, rating, score_solo, solo_score

T = [d for d in range(DIE_COUNT) if KIND_OF[d] == "tunnel"]
G = [d for d in range(DIE_COUNT) if KIND_OF[d] == "treasure"]
H = [d for d in range(DIE_COUNT) if KIND_OF[d] == "hazard"]
TOOL = [d for d in range(DIE_COUNT) if KIND_OF[d] == "tool"]
M = [d for d in range(DIE_COUNT) if KIND_OF[d] == "magic"]


@pytest.mark.parametrize(
    "score, band",
    [
        (0, "Disaster"),
        (14, "Disaster"),
        (15, "A brave start"),
        (30, "A brave start"),
        (31, "Improving"),
        (45, "Improving"),
        (46, "Average"),  # rule D10: the sheet misprints this band as 45-50
        (60, "Average"),
        (61, "Excellent"),
        (70, "Excellent"),
        (71, "Masterful"),
        (200, "Masterful"),
    ],
)
def test_every_rating_band_boundary(score, band):
    assert rating(score) == band


def test_the_bands_cover_every_score_once_in_order():
    lows = [low for low, _ in RATINGS]
    assert lows == sorted(lows) and lows[0] == 0
    assert [b for _, b in RATINGS] == [
        "Disaster",
        "A brave start",
        "Improving",
        "Average",
        "Excellent",
        "Masterful",
    ]


def test_a_negative_score_has_no_band():
    with pytest.raises(ValueError):
        rating(-1)


def test_neutralized_hazards_score_one_per_symbol():
    faces = {H[0]: "dragon4", H[1]: "cavein2", TOOL[0]: "shield", TOOL[1]: "pickaxe"}
    result = score_solo(faces, {H[0], H[1]}, set(), ())
    assert result.breakdown == SoloBreakdown(hazards=6, treasure=0, frozen=0, tunnels=0)
    assert result.score == 6 and result.rating == "Disaster"


def test_a_hazard_not_neutralized_scores_nothing():
    assert score_solo({H[0]: "dragon4"}, set(), set(), ()).score == 0


def test_unfrozen_treasure_scores_one_per_gem_frozen_two():
    faces = {G[0]: "gem3", G[1]: "gem2", G[2]: "gem1", TOOL[0]: "chest2"}
    result = score_solo(faces, set(), {G[1]}, ())
    assert result.breakdown == SoloBreakdown(hazards=0, treasure=4, frozen=4, tunnels=0)
    assert result.score == 8


def test_each_sequence_reaching_5_scores_5():
    faces = {T[i]: str(v) for i, v in enumerate([1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3, 4])}
    sequences = (tuple(T[0:5]), tuple(T[5:10]), tuple(T[10:14]))
    result = score_solo(faces, set(), set(), sequences)
    assert result.breakdown.tunnels == 10 and result.score == 10


def test_tools_magic_and_short_sequences_score_nothing():
    faces = {M[0]: "magic3", TOOL[0]: "chest2", T[0]: "1", T[1]: "2"}
    assert score_solo(faces, set(), set(), ((T[0], T[1]),)).score == 0


def test_a_full_trove_adds_every_category():
    faces = {H[0]: "dragon2", G[0]: "gem3", G[1]: "gem2"}
    faces |= {T[i]: str(i + 1) for i in range(5)}
    result = score_solo(faces, {H[0]}, {G[0]}, (tuple(T[:5]),))
    assert result.breakdown == SoloBreakdown(hazards=2, treasure=2, frozen=6, tunnels=5)
    assert result.score == result.breakdown.total == 15 and result.rating == "A brave start"


@given(st.integers(min_value=0, max_value=500))
def test_the_band_is_the_last_whose_lowest_score_is_reached(score):
    band = rating(score)
    index = [b for _, b in RATINGS].index(band)
    assert RATINGS[index][0] <= score
    assert index == len(RATINGS) - 1 or score < RATINGS[index + 1][0]


def test_solo_score_reads_a_played_game_and_matches_its_end_event():
    """A game played freezing every gem it can scores in all four categories."""
    game = Game.new(["Ada"], seed=4, mode="solo")
    while not game.state.is_over:
        legal = game.legal()
        game.issue(next((c for c in legal if isinstance(c, TakeDie) and c.freeze), legal[0]))
    ended = game.events()[-1][1]
    result = solo_score(game.state)
    assert (ended.score, ended.rating) == (result.score, result.rating)
    state = game.state
    trove = state.troves[0]
    expected = sum(
        {"cavein1": 1, "cavein2": 2, "dragon1": 1, "dragon2": 2, "dragon4": 4}.get(
            state.faces[d], 0
        )
        for d in trove
    )
    gems = {"gem1": 1, "gem2": 2, "gem3": 3}
    expected += sum(
        gems.get(state.faces[d], 0) * (2 if state.solo.is_frozen(d) else 1) for d in trove
    )
    expected += 5 * sum(1 for seq in state.solo.sequences if state.faces[seq[-1]] == "5")
    assert result.score == expected
    assert min(attrs.astuple(result.breakdown)) > 0
