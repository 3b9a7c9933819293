"""Scoring examples from RULES.md section 3, each as written there."""

import pytest

from core.modes.multiplayer.scoring import Breakdown, hazard_points, score_round, tunnel_points


@pytest.mark.parametrize(
    ("tunnels", "points"),
    [
        ("1 2 3", 6),
        ("1 2 4", 3),
        ("2 3 4", 0),
        ("1 1 2 2 3", 9),
        ("1 1 1", 3),
        ("1 2 2 3", 6),
        ("1 2 3 4 5", 15),
        ("", 0),
    ],
)
def test_tunnel_sequences(tunnels, points):
    """Sequences start at 1, never branch, each die in at most one sequence."""
    assert tunnel_points(tunnels.split()) == points


def test_beer_and_other_faces_do_not_extend_tunnels():
    assert tunnel_points(["1", "beer", "2", "gem3", "magic2"]) == 3


def test_treasure_most_gems_doubles():
    """3 gems and 4 gems score 3 and 8."""
    a, b = score_round([["gem3"], ["gem2", "gem1", "gem1"]])
    assert (a.treasure, b.treasure) == (3, 8)


def test_treasure_tie_for_most_means_nobody_doubles():
    a, b, c = score_round([["gem3"], ["gem2", "gem1"], ["gem1"]])
    assert (a.treasure, b.treasure, c.treasure) == (3, 3, 1)


def test_no_gems_no_doubling():
    a, b = score_round([["1"], ["2"]])
    assert a.treasure == b.treasure == 0


def test_tiebreak_compares_only_the_tied_players():
    """Outside the comparison a player's gems never double, however many they have."""
    scores = score_round([["gem3", "gem3"], ["gem2"], ["gem1"]], compared=[1, 2])
    assert [s.treasure for s in scores] == [6, 4, 1]


def test_hazards_against_tools_example():
    """2 pickaxes, 3 cave-ins, no shield, 4 dragons -> +2."""
    faces = ["pickaxe", "pickaxe", "cavein1", "cavein2", "dragon4"]
    assert hazard_points(faces) == 2


@pytest.mark.parametrize(
    ("faces", "points"),
    [
        (["cavein2"], -2),
        (["dragon2", "dragon1"], -3),
        (["cavein1", "pickaxe"], 1),
        (["dragon4", "shield", "shield"], 8),
        (["pickaxe", "shield"], 0),
        (["chest2", "chest1"], 0),
    ],
)
def test_hazard_and_tool_formula(faces, points):
    """(P > 0 ? P x C : -C) + (S > 0 ? S x D : -D); chests score nothing."""
    assert hazard_points(faces) == points


def test_breakdown_total_adds_categories():
    assert Breakdown(6, 8, -2).total == 12


def test_hero_faces_count_like_dice():
    """An Engineer's tunnel 2 and pickaxe complete a sequence and work a cave-in."""
    (score,) = score_round([["1", "3", "cavein2", "2", "pickaxe"]])
    assert (score.tunnel, score.hazard) == (6, 2)
