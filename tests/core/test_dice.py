"""The dice set and heroes as RULES.md section 1 gives them (rule D1: one data table)."""

from collections import Counter

from core.dice import (
    ALL_DICE,
    BEER,
    COUNTS,
    DICE_SET,
    FACES,
    HEROES,
    KIND_OF,
    face_kind,
    magic_symbols,
)
from core.game import Game


def test_sixty_dice_in_five_types():
    assert len(ALL_DICE) == 60
    assert COUNTS == {"tunnel": 27, "treasure": 8, "hazard": 10, "tool": 7, "magic": 8}
    assert Counter(KIND_OF) == COUNTS


def test_every_type_has_six_faces_and_exactly_one_beer():
    for faces in FACES.values():
        assert len(faces) == 6 and faces.count(BEER) == 1


def test_tunnel_and_treasure_faces_are_the_confirmed_ones():
    assert FACES["tunnel"] == ("1", "2", "3", "4", "5", "beer")
    assert sorted(FACES["treasure"]) == sorted(["gem3", "gem2", "gem1", "gem1", "gem1", "beer"])


def test_rule_d1_hazard_tool_and_magic_faces():
    assert sorted(FACES["hazard"]) == sorted(
        ["cavein1", "cavein2", "dragon1", "dragon2", "dragon4", "beer"]
    )
    assert sorted(FACES["tool"]) == sorted(
        ["pickaxe", "pickaxe", "shield", "chest1", "chest2", "beer"]
    )
    assert [magic_symbols(f) for f in FACES["magic"]] == [1, 1, 2, 2, 3, 0]


def test_faces_belong_to_one_type():
    assert face_kind("dragon4") == "hazard" and face_kind("3") == "tunnel"


def test_six_heroes_with_their_faces():
    assert HEROES == {
        "Alchemist": ("magic1", "magic1", "magic1"),
        "Dragon Slayer": ("shield", "magic1"),
        "Engineer": ("2", "pickaxe"),
        "Prospector": ("gem1", "pickaxe"),
        "Surveyor": ("1", "magic1"),
        "Treasurer": ("gem1", "chest2"),
    }


def test_rule_d1_every_log_records_its_dice_set_and_rules():
    game = Game.new(["Ada", "Brok"], seed=1)
    assert game.header["dice_set"] == DICE_SET
    assert game.state.dice_set == DICE_SET and game.state.rules
