"""Setup: the first-player roll-off (rule D4), hero choice order, the first filling."""

import pytest

from core.commands import ChooseHero, NewGame, TakeDie
from core.errors import RuleError
from core.modes.multiplayer import events as ev
from core.mountain import dice_on
from core.projections.state import EXCAVATION, PREGAME, SETUP
from core.rules import decide
from tests.support.builders import ScriptedRng, when


def new(players=3, **options):
    names = ("Ada", "Brok", "Cira", "Dain")[:players]
    return NewGame(names, seed=5, game_id="g", **options)


def start(players=3, faces=(), **options):
    events, state = when(PREGAME, new(players, **options), ScriptedRng(faces))
    return events, state


def test_highest_roll_starts_and_beer_beats_five():
    events, state = start(3, ["5", "beer", "2"])
    assert events[1] == ev.FirstPlayerRolled(((0, "5"), (1, "beer"), (2, "2")))
    assert events[2].seat == 1 and state.first_seat == 1


def test_rule_d4_only_the_players_tied_for_highest_roll_again():
    events, state = start(4, ["4", "5", "1", "5", "3", "2"])
    assert events[1] == ev.FirstPlayerRolled(((0, "4"), (1, "5"), (2, "1"), (3, "5")))
    assert events[2] == ev.FirstPlayerRolled(((1, "3"), (3, "2")))
    assert state.first_seat == 1


def test_heroes_are_chosen_counter_clockwise_from_the_first_players_right():
    """With 4 players and Cira (seat 2) first: Brok, Ada, Dain, then Cira last."""
    events, state = start(4, ["1", "2", "5", "3"])
    assert events[-1] == ev.FirstPlayerChosen(2, (1, 0, 3, 2))
    assert state.phase == SETUP and state.to_act() == 1


def test_choosing_heroes_then_the_mountain_is_filled_and_round_one_begins():
    _, state = start(2, ["5", "1"])  # Ada first; Brok chooses first
    _, state = when(state, ChooseHero(1, "Engineer"))
    events, state = when(state, ChooseHero(0, "Surveyor"))
    assert [type(e) for e in events] == [ev.HeroChosen, ev.MountainFilled, ev.RoundBegan]
    assert len(events[1].placements) == 20 and len(state.bag) == 40
    assert state.phase == EXCAVATION and state.to_act() == 0 and state.round == 1
    assert len(set(dice_on(state.mountain))) == 20
    assert all(state.faces[d] is not None for d in dice_on(state.mountain))


def test_a_hero_cannot_be_taken_twice_or_out_of_turn_or_unknown():
    _, state = start(2, ["5", "1"])
    with pytest.raises(RuleError) as refused:
        when(state, ChooseHero(0, "Engineer"))
    assert refused.value.code == "not_your_turn"
    _, state = when(state, ChooseHero(1, "Engineer"))
    with pytest.raises(RuleError) as refused:
        when(state, ChooseHero(0, "Engineer"))
    assert refused.value.code == "hero_taken" and "Brok already chose" in str(refused.value)
    with pytest.raises(RuleError) as refused:
        when(state, ChooseHero(0, "Wizard"))
    assert refused.value.code == "unknown_hero"


def test_no_dice_can_be_taken_before_the_heroes_are_chosen():
    _, state = start(2, ["5", "1"])
    with pytest.raises(RuleError) as refused:
        when(state, TakeDie(1, 0))
    assert refused.value.code == "wrong_phase"


def test_random_hero_deal_skips_the_choice():
    events, state = start(3, hero_deal="random")
    dealt = next(e for e in events if isinstance(e, ev.HeroesDealt))
    assert len(set(dealt.heroes)) == 3 and state.phase == EXCAVATION


@pytest.mark.parametrize(
    "command",
    [
        NewGame(("Ada",), seed=1),
        NewGame(("A", "B", "C", "D", "E"), seed=1),
        NewGame(("Ada", "Ada"), seed=1),
        NewGame(("Ada", ""), seed=1),
        NewGame(("Ada", "x" * 41), seed=1),
        NewGame(("Ada", "Brok"), seed=-1),
        NewGame(("Ada", "Brok"), seed=2**64),
        NewGame(("Ada", "Brok"), seed="7"),
        NewGame(("Ada", "Brok"), seed=1, mode="team"),
        NewGame(("Ada", "Brok"), seed=1, hero_deal="auction"),
    ],
)
def test_bad_options_are_refused(command):
    with pytest.raises(RuleError) as refused:
        decide(PREGAME, command, ScriptedRng())
    assert refused.value.code == "bad_option"


def test_a_game_starts_only_once_and_commands_need_a_game():
    _, state = start(2)
    with pytest.raises(RuleError) as refused:
        when(state, new(2))
    assert refused.value.code == "game_started"
    with pytest.raises(RuleError) as refused:
        when(PREGAME, ChooseHero(0, "Engineer"))
    assert refused.value.code == "no_game"
