"""Excavation: top picks, sharing a beer, side picks with the sliding rule, and refusals."""

import pytest

from core.commands import ChooseHero, ShareBeer, TakeDie
from core.errors import RuleError
from core.modes.multiplayer import events as ev
from core.mountain import slot_index
from core.projections.state import MAGIC
from tests.support.builders import ScriptedRng, dice_of, make_state, when

T = dice_of("tunnel")
BEER_TOOL = dice_of("tool")[0]


def small_mountain():
    """Row 0: dice T0 T1 T2; row 1: T3 (on T0, T1) and T4 (on T1, T2); row 2: T5 on top."""
    return {
        (0, 0): (T[0], "1"),
        (0, 1): (T[1], "2"),
        (0, 2): (T[2], "3"),
        (1, 0): (T[3], "4"),
        (1, 1): (T[4], "5"),
        (2, 0): (T[5], "beer"),
    }


def test_taking_a_top_die_moves_it_to_the_trove_and_passes_the_turn():
    """Given a mountain, when Ada takes the top die, then it is hers and Brok is to act."""
    state = make_state(mountain=small_mountain())
    events, after = when(state, TakeDie(0, T[5]))
    assert events == (ev.DieTaken(0, T[5], "beer", 2, 0, ()),)
    assert after.troves[0] == (T[5],) and after.to_act() == 1
    assert after.faces[T[5]] == "beer"  # a taken die keeps its face


def test_a_die_under_two_dice_is_refused_with_both_named():
    state = make_state(mountain=small_mountain())
    with pytest.raises(RuleError) as refused:
        when(state, TakeDie(0, T[1]))
    assert refused.value.code == "die_covered"
    assert str(refused.value) == (
        f"die {T[1]} is covered by dice {T[3]} and {T[4]}; only top dice can be taken"
    )


def test_after_a_shared_beer_a_die_under_two_dice_is_refused_naming_side_dice_too():
    """In a beer turn side dice may be taken: the refusal must not say "only top dice"."""
    state = make_state(mountain=small_mountain(), beer_shared=True, picks_left=2)
    with pytest.raises(RuleError) as refused:
        when(state, TakeDie(0, T[1]))
    assert refused.value.code == "die_covered"
    assert str(refused.value) == (
        f"die {T[1]} is covered by dice {T[3]} and {T[4]}; "
        "a top die or a side die (one die above it) can be taken"
    )
    events, _ = when(state, TakeDie(0, T[0]))  # a side die: taken
    assert events[0].die == T[0]


def test_a_side_die_needs_a_shared_beer():
    state = make_state(mountain=small_mountain())
    with pytest.raises(RuleError) as refused:
        when(state, TakeDie(0, T[0]))  # covered by T3 only
    assert refused.value.code == "side_needs_beer"


def test_not_your_turn():
    state = make_state(mountain=small_mountain())
    with pytest.raises(RuleError) as refused:
        when(state, TakeDie(1, T[5]))
    assert refused.value.code == "not_your_turn"
    assert "Ada's turn" in str(refused.value)


def test_a_command_when_no_one_is_to_act_is_refused_not_a_crash():
    """A magic phase with no seat pending waits for no one: a RuleError, never a TypeError."""
    state = make_state(mountain=small_mountain(), phase=MAGIC, pending=())
    with pytest.raises(RuleError) as refused:
        when(state, TakeDie(0, T[5]))
    assert refused.value.code == "not_your_turn"
    assert str(refused.value) == "it is no one's turn, not Ada's"


@pytest.mark.parametrize("die", [-1, 60, 10**9, "3", None, 2.0, True])
def test_unknown_die(die):
    state = make_state(mountain=small_mountain())
    with pytest.raises(RuleError) as refused:
        when(state, TakeDie(0, die))
    assert refused.value.code == "unknown_die"


@pytest.mark.parametrize("seat", [-1, 2, "0", None])
def test_unknown_player(seat):
    state = make_state(mountain=small_mountain())
    with pytest.raises(RuleError) as refused:
        when(state, TakeDie(seat, T[5]))
    assert refused.value.code == "unknown_player"


def test_die_not_on_the_mountain():
    state = make_state(mountain=small_mountain())
    with pytest.raises(RuleError) as refused:
        when(state, TakeDie(0, T[10]))
    assert refused.value.code == "die_not_on_mountain"


def test_taking_in_the_wrong_phase():
    state = make_state(mountain=small_mountain(), phase=MAGIC, pending=(0, 1))
    with pytest.raises(RuleError) as refused:
        when(state, TakeDie(0, T[5]))
    assert refused.value.code == "wrong_phase"


def test_choosing_a_hero_outside_setup_is_refused():
    state = make_state(mountain=small_mountain())
    with pytest.raises(RuleError) as refused:
        when(state, ChooseHero(0, "Engineer"))
    assert refused.value.code == "wrong_phase"


def beer_state():
    return make_state(
        mountain=small_mountain(), troves={0: [(BEER_TOOL, "beer")], 1: [(T[20], "2")]}
    )


def test_sharing_a_beer_rerolls_gives_and_grants_two_picks():
    state = beer_state()
    events, after = when(state, ShareBeer(0, BEER_TOOL, 1), ScriptedRng(["shield"]))
    assert events == (ev.BeerShared(0, BEER_TOOL, 1, "shield"),)
    assert after.troves == ((), (T[20], BEER_TOOL))
    assert after.faces[BEER_TOOL] == "shield"
    assert (after.to_act(), after.picks_left, after.beer_shared) == (0, 2, True)


def test_after_a_beer_a_side_die_can_be_taken_and_its_run_slides():
    """rule D3: taking side die T0 slides T3 down to (0, 0) and T5 to (1, 0)."""
    _, state = when(beer_state(), ShareBeer(0, BEER_TOOL, 1), ScriptedRng(["shield"]))
    events, after = when(state, TakeDie(0, T[0]))
    assert events == (ev.DieTaken(0, T[0], "1", 0, 0, ((T[3], 0, 0), (T[5], 1, 0))),)
    assert after.to_act() == 0 and after.picks_left == 1  # the second pick is still Ada's
    _, after = when(after, TakeDie(0, T[5]))
    assert after.to_act() == 1 and not after.beer_shared


def test_only_one_beer_a_turn():
    _, state = when(beer_state(), ShareBeer(0, BEER_TOOL, 1), ScriptedRng(["beer"]))
    state = state  # the die went to Brok; even with another beer, once per turn
    with pytest.raises(RuleError) as refused:
        when(state, ShareBeer(0, BEER_TOOL, 1))
    assert refused.value.code == "beer_already_shared"


def test_share_a_die_that_does_not_show_beer():
    state = make_state(mountain=small_mountain(), troves={0: [(BEER_TOOL, "shield")]})
    with pytest.raises(RuleError) as refused:
        when(state, ShareBeer(0, BEER_TOOL, 1))
    assert refused.value.code == "not_beer"


def test_share_someone_elses_die():
    state = make_state(mountain=small_mountain(), troves={1: [(BEER_TOOL, "beer")]})
    with pytest.raises(RuleError) as refused:
        when(state, ShareBeer(0, BEER_TOOL, 1))
    assert refused.value.code == "not_your_die"


def test_share_with_yourself():
    with pytest.raises(RuleError) as refused:
        when(beer_state(), ShareBeer(0, BEER_TOOL, 0))
    assert refused.value.code == "bad_recipient"


def test_share_with_nobody():
    with pytest.raises(RuleError) as refused:
        when(beer_state(), ShareBeer(0, BEER_TOOL, 5))
    assert refused.value.code == "unknown_player"


def test_a_beer_die_of_any_type_can_be_shared_hazards_too():
    hazard = dice_of("hazard")[0]
    state = make_state(mountain=small_mountain(), troves={0: [(hazard, "beer")]})
    _, after = when(state, ShareBeer(0, hazard, 1), ScriptedRng(["dragon4"]))
    assert after.troves[1] == (hazard,) and after.faces[hazard] == "dragon4"


def test_solo_options_are_refused_in_multiplayer():
    with pytest.raises(RuleError) as refused:
        when(make_state(mountain=small_mountain()), TakeDie(0, T[5], as_face="3"))
    assert refused.value.code == "solo_only"


def test_the_last_die_ends_the_excavation_and_the_next_player_starts_magic():
    magic = dice_of("magic")[0]
    state = make_state(
        players=3,
        mountain={(0, 0): (T[0], "1")},
        troves={0: [(magic, "magic1")], 1: [(dice_of("magic")[1], "magic2")]},
        active=2,
    )
    events, after = when(state, TakeDie(2, T[0]))
    assert events[:2] == (ev.DieTaken(2, T[0], "1", 0, 0, ()), ev.MagicPhaseBegan((0, 1, 2)))
    assert after.phase == MAGIC and after.to_act() == 0


def test_rule_d5_one_die_left_after_a_beer_ends_the_turn():
    """rule D5: the beer's second pick finds the mountain empty; the next player starts magic."""
    magic = dice_of("magic")
    state = make_state(
        players=3,
        mountain={(0, 0): (T[0], "1")},
        troves={0: [(BEER_TOOL, "beer"), (magic[0], "magic1")], 1: [(magic[1], "magic1")]},
        active=0,
    )
    _, state = when(state, ShareBeer(0, BEER_TOOL, 2), ScriptedRng(["pickaxe"]))
    events, after = when(state, TakeDie(0, T[0]))
    assert ev.MagicPhaseBegan((1, 2, 0)) in events
    assert after.to_act() == 1


def test_rule_d3_an_inner_side_die_under_its_left_neighbour_slides_that_diagonal():
    """Given a beer shared, when Ada takes (1, 2), covered only by (2, 1), then the run
    (2, 1), (3, 0) slides to (1, 2), (2, 1), and (3, 0) is left empty."""
    mountain = {(0, i): (T[i], "1") for i in range(6)}
    mountain |= {(1, i): (T[6 + i], "2") for i in range(5)}
    mountain |= {(2, 0): (T[11], "3"), (2, 1): (T[12], "4"), (3, 0): (T[13], "5")}
    state = make_state(mountain=mountain, picks_left=2, beer_shared=True)
    events, after = when(state, TakeDie(0, T[8]))  # (1, 2): (2, 1) above it, (2, 2) empty
    assert events == (ev.DieTaken(0, T[8], "2", 1, 2, ((T[12], 1, 2), (T[13], 2, 1))),)
    assert after.troves[0] == (T[8],)
    assert after.mountain[slot_index(1, 2)] == T[12] and after.mountain[slot_index(2, 1)] == T[13]
    assert T[8] not in after.mountain and after.mountain[slot_index(3, 0)] is None
    assert after.to_act() == 0 and after.picks_left == 1  # the beer's second pick is next
