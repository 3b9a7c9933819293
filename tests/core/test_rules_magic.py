"""The magic phase: spending magic faces to reroll, with every restriction (rule D6)."""

import pytest

from core.commands import EndMagicTurn, SpendMagic, TakeDie
from core.errors import RuleError
from core.modes.multiplayer import events as ev
from core.projections.state import MAGIC, REPLENISH
from tests.support.builders import ScriptedRng, dice_of, make_state, when

M = dice_of("magic")
T = dice_of("tunnel")
H = dice_of("hazard")
TOOL = dice_of("tool")


def magic_state(trove, heroes=None, other=None, **changes):
    """Ada to act in the magic phase (Brok after her) with this trove."""
    changes.setdefault("pending", (0, 1))
    return make_state(
        phase=MAGIC,
        troves={0: trove, 1: other or [(M[7], "magic1")]},
        heroes=heroes,
        **changes,
    )


def test_spending_rerolls_exactly_n_chosen_dice():
    state = magic_state([(M[0], "magic2"), (M[1], "magic1"), (T[0], "3"), (T[1], "4"), (T[2], "5")])
    events, after = when(state, SpendMagic(0, (T[0], T[2]), die=M[0]), ScriptedRng(["1", "2"]))
    assert events == (ev.MagicSpent(0, M[0], None, ((T[0], "1"), (T[2], "2"))),)
    assert (after.faces[T[0]], after.faces[T[1]], after.faces[T[2]]) == ("1", "4", "2")
    assert M[0] in after.spent and after.to_act() == 0  # M1 is left: the turn goes on


def test_spending_the_last_magic_face_ends_the_turn():
    state = magic_state([(M[0], "magic1"), (T[0], "3")])
    events, after = when(state, SpendMagic(0, (T[0],), die=M[0]), ScriptedRng(["1"]))
    assert events[-1] == ev.MagicTurnEnded(0) and after.to_act() == 1


def test_too_few_or_too_many_targets_are_refused():
    state = magic_state([(M[0], "magic2"), (T[0], "3"), (T[1], "4")])
    for targets in [(T[0],), (T[0], T[1], M[0])]:
        with pytest.raises(RuleError) as refused:
            when(state, SpendMagic(0, targets, die=M[0]))
        assert refused.value.code in ("wrong_target_count", "bad_target")
    with pytest.raises(RuleError) as refused:
        when(state, SpendMagic(0, (T[0],), die=M[0]))
    assert refused.value.code == "wrong_target_count"
    assert "choose exactly 2 dice" in str(refused.value)


def test_rule_d6_fewer_eligible_than_symbols_rerolls_all_eligible():
    state = magic_state([(M[0], "magic3"), (T[0], "3"), (H[0], "dragon4")])
    events, _ = when(state, SpendMagic(0, (T[0],), die=M[0]), ScriptedRng(["1"]))
    assert events[0].rolls == ((T[0], "1"),)


def test_rule_d6_the_same_die_twice_is_refused():
    state = magic_state([(M[0], "magic2"), (T[0], "3"), (T[1], "3")])
    with pytest.raises(RuleError) as refused:
        when(state, SpendMagic(0, (T[0], T[0]), die=M[0]))
    assert refused.value.code == "duplicate_dice"


@pytest.mark.parametrize(
    ("target_of", "reason"),
    [
        (lambda: H[0], "hazard dice are never rerolled"),
        (lambda: M[0], "it is the die being spent"),
        (lambda: M[1], "already spent this round"),
    ],
)
def test_hazards_spent_magic_and_the_spending_die_cannot_be_rerolled(target_of, reason):
    state = magic_state(
        [(M[0], "magic1"), (M[1], "magic2"), (H[0], "cavein2"), (T[0], "2")],
        spent=frozenset({M[1]}),
    )
    with pytest.raises(RuleError) as refused:
        when(state, SpendMagic(0, (target_of(),), die=M[0]))
    assert refused.value.code == "bad_target" and reason in str(refused.value)


def test_an_unspent_magic_die_can_be_rerolled_and_then_spent():
    state = magic_state([(M[0], "magic1"), (M[1], "beer"), (T[0], "2")])
    _, state = when(state, SpendMagic(0, (M[1],), die=M[0]), ScriptedRng(["magic1"]))
    events, _ = when(state, SpendMagic(0, (T[0],), die=M[1]), ScriptedRng(["1"]))
    assert events[0].die == M[1]


def test_a_spent_die_cannot_be_spent_again_this_round():
    state = magic_state([(M[0], "magic1"), (M[1], "magic1"), (T[0], "2"), (T[1], "2")])
    _, state = when(state, SpendMagic(0, (T[0],), die=M[0]), ScriptedRng(["1"]))
    with pytest.raises(RuleError) as refused:
        when(state, SpendMagic(0, (T[1],), die=M[0]))
    assert refused.value.code == "magic_spent"


def test_a_beer_faced_magic_die_has_no_symbols():
    state = magic_state([(M[0], "beer"), (M[1], "magic1"), (T[0], "2")])
    with pytest.raises(RuleError) as refused:
        when(state, SpendMagic(0, (T[0],), die=M[0]))
    assert refused.value.code == "no_magic"


def test_a_non_magic_die_cannot_be_spent():
    state = magic_state([(M[0], "magic1"), (T[0], "2")])
    with pytest.raises(RuleError) as refused:
        when(state, SpendMagic(0, (), die=T[0]))
    assert refused.value.code == "no_magic"


def test_hero_magic_faces_are_spent_once_a_round_each():
    """The Alchemist's three magic faces: each rerolls one die, once per round."""
    state = magic_state([(T[0], "2"), (T[1], "3")], heroes=("Alchemist", "Engineer"))
    _, state = when(state, SpendMagic(0, (T[0],), hero_face=0), ScriptedRng(["1"]))
    _, state = when(state, SpendMagic(0, (T[0],), hero_face=1), ScriptedRng(["5"]))
    assert state.hero_spent[0] == {0, 1}
    with pytest.raises(RuleError) as refused:
        when(state, SpendMagic(0, (T[1],), hero_face=0))
    assert refused.value.code == "magic_spent"


def test_hero_faces_that_are_not_magic_or_not_there():
    state = magic_state([(M[0], "magic1"), (T[0], "2")], heroes=("Engineer", "Alchemist"))
    for face, code in [(0, "no_magic"), (5, "not_hero_face"), ("0", "not_hero_face")]:
        with pytest.raises(RuleError) as refused:
            when(state, SpendMagic(0, (T[0],), hero_face=face))
        assert refused.value.code == code


def test_spend_names_exactly_one_source():
    state = magic_state([(M[0], "magic1"), (T[0], "2")], heroes=("Alchemist", "Engineer"))
    for kwargs in [{}, {"die": M[0], "hero_face": 0}]:
        with pytest.raises(RuleError) as refused:
            when(state, SpendMagic(0, (T[0],), **kwargs))
        assert refused.value.code == "bad_source"


def test_hero_faces_are_never_rerolled_and_other_troves_are_out_of_reach():
    state = magic_state([(M[0], "magic1"), (T[0], "2")], other=[(T[5], "1"), (M[7], "magic1")])
    with pytest.raises(RuleError) as refused:
        when(state, SpendMagic(0, (T[5],), die=M[0]))
    assert refused.value.code == "not_your_die"


def test_ending_the_turn_passes_it_and_the_last_turn_scores_the_round():
    state = magic_state([(M[0], "magic1"), (T[0], "1")])
    events, state = when(state, EndMagicTurn(0))
    assert events == (ev.MagicTurnEnded(0),) and state.to_act() == 1
    events, state = when(state, EndMagicTurn(1))
    assert isinstance(events[1], ev.RoundScored) and events[1].scores == ((1, 0, 0), (0, 0, 0))
    assert state.phase != MAGIC


def test_a_player_with_nothing_to_spend_is_skipped():
    state = make_state(
        players=3,
        mountain={(0, 0): (T[9], "2")},
        troves={0: [(T[0], "1")], 1: [(M[0], "magic1"), (T[1], "1")], 2: [(T[2], "1")]},
        active=2,
    )
    events, after = when(state, TakeDie(2, T[9]))
    assert [type(e) for e in events] == [ev.DieTaken, ev.MagicPhaseBegan, ev.MagicTurnEnded]
    assert events[2] == ev.MagicTurnEnded(0) and after.to_act() == 1


def test_spending_outside_the_magic_phase():
    state = make_state(troves={0: [(M[0], "magic1"), (T[0], "2")]}, mountain={(0, 0): (T[1], "1")})
    with pytest.raises(RuleError) as refused:
        when(state, SpendMagic(0, (T[0],), die=M[0]))
    assert refused.value.code == "wrong_phase"


def test_round_one_scoring_leads_to_replenish():
    state = magic_state([(T[0], "1")], other=[(T[1], "1")], pending=(1,))
    _, after = when(state, EndMagicTurn(1))
    assert after.phase == REPLENISH or after.round == 2


def test_a_face_without_magic_is_named_in_words_and_as_typed():
    """ "hero face 0 shows gem1" read as the log's names: the refusal says "h0" and "1 gem"."""
    state = magic_state([(T[0], "2"), (T[1], "gem2")], heroes=("Prospector", "Engineer"))
    with pytest.raises(RuleError) as refused:
        when(state, SpendMagic(0, (T[0],), hero_face=0))
    assert refused.value.message == "hero face h0 shows 1 gem, no magic"
    with pytest.raises(RuleError) as refused:
        when(state, SpendMagic(0, (T[0],), die=T[1]))
    assert refused.value.message == f"die {T[1]} shows 2 gems, no magic to spend"
    with pytest.raises(RuleError) as refused:
        when(state, SpendMagic(0, (T[0],), hero_face=4))
    assert refused.value.message == "your hero has no face h4 (its faces are h0 to h1)"
