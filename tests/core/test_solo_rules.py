"""The solo game's rules (RULES.md section 4): setup, each taking rule and its refusal,
neutralizing, freezing, spending and recycling, the refills, and the end."""

from __future__ import annotations

import pytest
from attrs import evolve

from core.commands import EndSolo, NewGame, Refill, SpendMagic, TakeDie, parse_command
from core.dice import DIE_COUNT, KIND_OF
from core.errors import RuleError
from core.events import game as ev
from core.events.codec import Batch, decode_batch, encode_batch
from core.game import Game
from core.modes.solo import events as sev
from core.mountain import EMPTY, SLOTS, fillable_slots, slot_index
from core.projections.state import OVER, PREGAME, SOLO
from core.read.text import describe
from core.rng import DiceRng
from core.rules import resolve
from core.rules.legal import legal_commands
from tests.support.builders import row0, solo_state

T = [d for d in range(DIE_COUNT) if KIND_OF[d] == "tunnel"]
G = [d for d in range(DIE_COUNT) if KIND_OF[d] == "treasure"]
H = [d for d in range(DIE_COUNT) if KIND_OF[d] == "hazard"]
TOOL = [d for d in range(DIE_COUNT) if KIND_OF[d] == "tool"]
M = [d for d in range(DIE_COUNT) if KIND_OF[d] == "magic"]


def when(state, command, rng=None):
    return resolve(state, command, rng or DiceRng(5, 1))


def refused(state, command) -> RuleError:
    with pytest.raises(RuleError) as caught:
        when(state, command)
    return caught.value


# -- setup ----------------------------------------------------------------------


def test_setup_rolls_three_magic_dice_into_the_trove_then_fills_the_mountain():
    """Given a solo NewGame, then the starting trove is 3 magic dice and the mountain is full."""
    events, state = resolve(PREGAME, NewGame(("Ada",), seed=3, mode="solo"), DiceRng(3, 0))
    assert [type(e) for e in events[:3]] == [
        ev.GameStarted,
        sev.StartingTroveRolled,
        ev.MountainFilled,
    ]
    assert events[0].mode == "solo" and events[0].starting_magic == 3
    rolled = events[1].rolls
    assert [d for d, _ in rolled] == M[:3] and events[1].refills == 2
    assert state.troves == (tuple(M[:3]),)
    assert all(state.faces[d] == f for d, f in rolled)
    assert len(events[2].placements) == 20 and None not in state.mountain
    assert len(state.bag) == DIE_COUNT - 23 and state.solo.refills_left == 2
    assert state.phase == SOLO and state.to_act() == 0


@pytest.mark.parametrize("magic", [0, 1, 2])
def test_the_harder_variant_starts_with_fewer_magic_dice(magic):
    game = Game.new(["Ada"], seed=11, mode="solo", starting_magic=magic)
    assert len(game.state.troves[0]) == magic or game.state.is_over
    started = game.events()[0][1]
    assert started.starting_magic == magic


@pytest.mark.parametrize("magic", [-1, 4, "3", None, 2.0])
def test_starting_magic_outside_0_to_3_is_refused(magic):
    with pytest.raises(RuleError) as caught:
        Game.new(["Ada"], seed=1, mode="solo", starting_magic=magic)
    assert caught.value.code == "bad_option"


def test_a_solo_game_has_one_player_and_no_heroes():
    with pytest.raises(RuleError) as caught:
        Game.new(["Ada", "Brok"], seed=1, mode="solo")
    assert caught.value.code == "bad_option"
    with pytest.raises(RuleError) as caught:
        Game.new(["Ada"], seed=1, mode="solo", hero_deal="random")
    assert "rule D8" in str(caught.value)


# -- taking: magic, tool and treasure dice, and top dice only --------------------


@pytest.mark.parametrize(
    "die, face", [(M[5], "magic2"), (TOOL[0], "pickaxe"), (G[0], "gem3"), (TOOL[1], "chest2")]
)
def test_magic_tool_and_treasure_dice_can_always_be_taken(die, face):
    state = solo_state(row0((die, face)))
    events, after = when(state, TakeDie(0, die))
    assert events == (sev.SoloDieTaken(die, face, 0, 0),)
    assert after.troves == ((die,),) and after.mountain[0] is None
    assert after.faces[die] == face


def test_only_top_dice_can_be_taken():
    """No side picks in solo: a die with a die on it is refused, naming the one above."""
    mountain = {(0, 0): (T[0], "1"), (0, 1): (T[1], "1"), (1, 0): (T[2], "1")}
    error = refused(solo_state(mountain), TakeDie(0, T[0]))
    assert error.code == "die_covered"
    assert str(error) == (
        f"die {T[0]} is covered by die {T[2]}; in the solo game only top dice can be taken"
    )


def test_a_die_not_on_the_mountain_is_refused():
    assert refused(solo_state(row0((T[0], "1"))), TakeDie(0, T[1])).code == "die_not_on_mountain"
    assert refused(solo_state(row0((T[0], "1"))), TakeDie(0, 99)).code == "unknown_die"
    assert refused(solo_state(row0((T[0], "1"))), TakeDie(1, T[0])).code == "unknown_player"


# -- taking: tunnels and sequences -----------------------------------------------


def test_a_1_is_always_taken_and_opens_a_new_sequence():
    state = solo_state(row0((T[1], "1")), trove=[(T[0], "1")], sequences=((T[0],),))
    events, after = when(state, TakeDie(0, T[1]))
    assert events == (sev.SoloDieTaken(T[1], "1", 0, 0, sequence=1),)
    assert after.solo.sequences == ((T[0],), (T[1],))


def test_a_value_extends_a_sequence_ending_one_below():
    state = solo_state(
        row0((T[2], "3")), trove=[(T[0], "1"), (T[1], "2")], sequences=((T[0], T[1]),)
    )
    events, after = when(state, TakeDie(0, T[2]))
    assert events[0].sequence == 0
    assert after.solo.sequences == ((T[0], T[1], T[2]),)


def test_a_3_without_a_sequence_1_2_is_refused_with_the_rule():
    error = refused(solo_state(row0((T[2], "3"))), TakeDie(0, T[2]))
    assert error.code == "no_sequence"
    assert str(error) == "a 3 needs a sequence 1, 2 to extend; you have none"


def test_each_sequence_holds_each_number_once():
    """A single 1 supports only one 2: every 2 must follow its own 1."""
    trove = [(T[0], "1"), (T[1], "2")]
    state = solo_state(row0((T[2], "2")), trove=trove, sequences=((T[0], T[1]),))
    error = refused(state, TakeDie(0, T[2]))
    assert error.code == "no_sequence"
    assert str(error) == "a 2 needs a sequence 1 to extend; you have none (your sequences: 1-2)"


def test_a_value_may_not_skip_a_number():
    trove = [(T[0], "1"), (T[1], "2"), (T[2], "3")]
    state = solo_state(row0((T[3], "5")), trove=trove, sequences=((T[0], T[1], T[2]),))
    assert refused(state, TakeDie(0, T[3])).code == "no_sequence"


def test_a_tunnel_die_joins_the_first_sequence_it_fits():
    """Sequences 1-2 and 1: a 2 can only join the second; a new 2 after that, none."""
    trove = [(T[0], "1"), (T[1], "2"), (T[2], "1")]
    state = solo_state(
        row0((T[3], "2"), (T[4], "2")), trove=trove, sequences=((T[0], T[1]), (T[2],))
    )
    events, after = when(state, TakeDie(0, T[3]))
    assert events[0].sequence == 1
    assert after.solo.sequences == ((T[0], T[1]), (T[2], T[3]))
    assert refused(after, TakeDie(0, T[4])).code == "no_sequence"


def test_two_equal_sequences_are_extended_lowest_first():
    trove = [(T[0], "1"), (T[1], "1")]
    state = solo_state(row0((T[2], "2")), trove=trove, sequences=((T[0],), (T[1],)))
    events, _ = when(state, TakeDie(0, T[2]))
    assert events[0].sequence == 0


# -- taking: hazards and neutralizing ---------------------------------------------


def test_a_hazard_needs_a_matching_tool():
    error = refused(solo_state(row0((H[0], "dragon2"))), TakeDie(0, H[0]))
    assert error.code == "no_free_tool"
    assert (
        str(error)
        == "a 2-dragon hazard needs an unassigned shield in your trove; you have no shield"
    )
    with_pickaxe = solo_state(row0((H[0], "dragon2")), trove=[(TOOL[0], "pickaxe")])
    assert refused(with_pickaxe, TakeDie(0, H[0])).code == "no_free_tool"


def test_a_tool_neutralizes_one_hazard_and_no_other():
    state = solo_state(row0((H[0], "cavein2"), (H[1], "cavein1")), trove=[(TOOL[0], "pickaxe")])
    events, after = when(state, TakeDie(0, H[0]))
    assert events == (sev.SoloDieTaken(H[0], "cavein2", 0, 0, tool=TOOL[0]),)
    assert after.solo.neutralized == ((H[0], TOOL[0]),)
    assert after.solo.is_neutralized(H[0]) and not after.solo.is_neutralized(TOOL[0])
    error = refused(after, TakeDie(0, H[1]))
    assert error.code == "no_free_tool"
    assert str(error) == (
        "a 1-cave-in hazard needs an unassigned pickaxe in your trove; "
        f"every pickaxe is assigned (die {TOOL[0]} neutralizes die {H[0]})"
    )


def test_the_lowest_free_tool_neutralizes_and_each_is_used_once():
    trove = [(TOOL[3], "shield"), (TOOL[1], "shield"), (TOOL[0], "pickaxe")]
    state = solo_state(row0((H[0], "dragon4"), (H[1], "dragon1")), trove=trove)
    _, state = when(state, TakeDie(0, H[0]))
    _, state = when(state, TakeDie(0, H[1]))
    assert state.solo.neutralized == ((H[0], TOOL[1]), (H[1], TOOL[3]))


# -- taking: treasure and freezing ----------------------------------------------


def test_a_treasure_frozen_needs_a_free_chest():
    error = refused(solo_state(row0((G[0], "gem2"))), TakeDie(0, G[0], freeze=True))
    assert error.code == "no_free_chest"
    assert str(error) == f"no free chest to freeze die {G[0]} on; you have no chest"
    events, after = when(solo_state(row0((G[0], "gem2"))), TakeDie(0, G[0]))
    assert events[0].chest is None and not after.solo.is_frozen(G[0])


def test_a_tool_die_with_k_chests_holds_k_frozen_treasure_dice():
    """One die showing 2 chests and one showing 1: three frozen dice, not four."""
    trove = [(TOOL[2], "chest1"), (TOOL[1], "chest2")]
    gems = [(G[i], "gem1") for i in range(4)]
    state = solo_state(row0(*gems), trove=trove)
    holders = []
    for die, _ in gems[:3]:
        events, state = when(state, TakeDie(0, die, freeze=True))
        holders.append(events[0].chest)
    assert holders == [TOOL[1], TOOL[1], TOOL[2]]
    assert all(state.solo.is_frozen(d) for d, _ in gems[:3])
    error = refused(state, TakeDie(0, G[3], freeze=True))
    assert str(error) == f"no free chest to freeze die {G[3]} on; your 3 chest places are all taken"
    _, state = when(state, TakeDie(0, G[3]))  # unfrozen is still fine
    assert not state.solo.is_frozen(G[3])


def test_only_treasure_can_be_frozen():
    state = solo_state(row0((T[0], "1")), trove=[(TOOL[1], "chest2")])
    assert refused(state, TakeDie(0, T[0], freeze=True)).code == "freeze_not_treasure"


def test_freeze_is_yes_or_no():
    state = solo_state(row0((G[0], "gem1")), trove=[(TOOL[1], "chest2")])
    assert refused(state, TakeDie(0, G[0], freeze="maybe")).code == "bad_freeze"


def test_a_pickaxe_or_shield_holds_no_frozen_treasure():
    state = solo_state(row0((G[0], "gem3")), trove=[(TOOL[0], "pickaxe"), (TOOL[1], "shield")])
    assert refused(state, TakeDie(0, G[0], freeze=True)).code == "no_free_chest"


# -- taking: beer is wild (rule D9) ----------------------------------------------


def test_a_beer_die_is_turned_to_a_chosen_face():
    state = solo_state(row0((T[0], "beer")))
    events, after = when(state, TakeDie(0, T[0], as_face="1"))
    assert events == (sev.SoloDieTaken(T[0], "1", 0, 0, wild=True, sequence=0),)
    assert after.faces[T[0]] == "1" and after.solo.sequences == ((T[0],),)


def test_rule_d9_the_chosen_face_must_itself_be_legal():
    error = refused(solo_state(row0((T[0], "beer"))), TakeDie(0, T[0], as_face="3"))
    assert error.code == "no_sequence"
    assert str(error) == f"die {T[0]} as 3: a 3 needs a sequence 1, 2 to extend; you have none"
    error = refused(solo_state(row0((H[0], "beer"))), TakeDie(0, H[0], as_face="dragon4"))
    assert error.code == "no_free_tool"


def test_a_wild_hazard_or_treasure_follows_the_rules_of_its_chosen_face():
    trove = [(TOOL[0], "shield"), (TOOL[1], "chest1")]
    state = solo_state(row0((H[0], "beer"), (G[0], "beer")), trove=trove)
    events, state = when(state, TakeDie(0, H[0], as_face="dragon4"))
    assert events[0].tool == TOOL[0] and events[0].wild
    events, state = when(state, TakeDie(0, G[0], as_face="gem3", freeze=True))
    assert events[0].chest == TOOL[1] and state.faces[G[0]] == "gem3"


def test_a_beer_die_needs_a_face_and_only_a_beer_die_takes_one():
    error = refused(solo_state(row0((T[0], "beer"))), TakeDie(0, T[0]))
    assert error.code == "choose_face" and f"take {T[0]} as 1" in str(error)
    assert refused(solo_state(row0((T[0], "2"))), TakeDie(0, T[0], as_face="1")).code == "not_wild"


@pytest.mark.parametrize("face", ["beer", "gem3", "7", "", 3])
def test_a_wild_face_must_be_a_face_of_the_die(face):
    assert refused(solo_state(row0((T[0], "beer"))), TakeDie(0, T[0], as_face=face)).code == (
        "bad_face"
    )


# -- spending magic and recycling -------------------------------------------------

# Row 0: T0 T1 T2; row 1: T3 on (T0, T1). Top dice: T2 and T3; T3 covers T0 and T1.
STACK = {(0, 0): (T[0], "2"), (0, 1): (T[1], "3"), (0, 2): (T[2], "4"), (1, 0): (T[3], "5")}


def test_a_spent_magic_die_leaves_the_game_and_recycles_top_dice_into_the_bag():
    state = solo_state(STACK, trove=[(M[0], "magic2"), (T[5], "1")])
    events, after = when(state, SpendMagic(0, (T[3], T[2]), die=M[0]))
    assert events == (sev.SoloMagicSpent(M[0], ((T[3], 1, 0), (T[2], 0, 2))),)
    assert after.troves == ((T[5],),) and after.solo.out_of_game == (M[0],)
    assert T[3] in after.bag and T[2] in after.bag and M[0] not in after.bag
    assert after.faces[T[3]] is None and after.faces[T[2]] is None
    assert after.mountain[slot_index(1, 0)] is None and after.mountain[0] == T[0]


def test_recycling_is_one_at_a_time():
    """A die uncovered by the first recycled die may follow it, but not come before it."""
    state = solo_state(STACK, trove=[(M[0], "magic2")])
    events, _ = when(state, SpendMagic(0, (T[3], T[0]), die=M[0]))
    assert events[0].recycled == ((T[3], 1, 0), (T[0], 0, 0))
    error = refused(state, SpendMagic(0, (T[0], T[3]), die=M[0]))
    assert error.code == "recycle_not_top" and f"covered by die {T[3]}" in str(error)


def test_a_spend_recycles_exactly_one_die_per_symbol_or_all_that_are_left():
    state = solo_state(STACK, trove=[(M[0], "magic2")])
    error = refused(state, SpendMagic(0, (T[3],), die=M[0]))
    assert error.code == "wrong_recycle_count"
    assert str(error) == f"die {M[0]} shows 2 magic: recycle exactly 2 top dice, not 1"
    one_left = solo_state(row0((T[0], "1")), trove=[(M[0], "magic3")])
    events, after = when(one_left, SpendMagic(0, (T[0],), die=M[0]))
    assert events[0].recycled == ((T[0], 0, 0),) and after.mountain == EMPTY


@pytest.mark.parametrize(
    "trove, command, code",
    [
        ([(M[0], "beer")], SpendMagic(0, (T[3],), die=M[0]), "no_magic"),
        ([(T[5], "1")], SpendMagic(0, (T[3],), die=T[5]), "not_magic"),
        ([(M[0], "magic1")], SpendMagic(0, (T[3],), die=M[1]), "not_your_die"),
        ([(M[0], "magic1")], SpendMagic(0, (T[3],), hero_face=0), "no_heroes"),
        ([(M[0], "magic1")], SpendMagic(0, (T[3],)), "bad_source"),
        ([(M[0], "magic2")], SpendMagic(0, (T[3], T[3]), die=M[0]), "duplicate_dice"),
        ([(M[0], "magic1")], SpendMagic(0, (T[6],), die=M[0]), "die_not_on_mountain"),
        ([(M[0], "magic1")], SpendMagic(0, (T[0],), die=M[0]), "recycle_not_top"),
    ],
)
def test_bad_spends_are_refused(trove, command, code):
    assert refused(solo_state(STACK, trove=trove), command).code == code


def test_nothing_can_be_recycled_from_an_empty_mountain():
    state = solo_state({}, trove=[(M[0], "magic1")])
    assert refused(state, SpendMagic(0, (), die=M[0])).code == "nothing_to_recycle"


# -- refills --------------------------------------------------------------------


def test_a_refill_keeps_the_mountain_dice_and_fills_empty_slots_bottom_first():
    state = solo_state(STACK, trove=[(M[0], "magic1")])
    expected = fillable_slots(state.mountain)
    events, after = when(state, Refill(0))
    (refilled,) = events
    assert isinstance(refilled, sev.MountainRefilled)
    assert [SLOTS.index((r, c)) for _, r, c, _ in refilled.placements] == expected
    for (row, col), (die, _) in STACK.items():
        assert after.mountain[slot_index(row, col)] == die  # dice on the mountain stay
    assert None not in after.mountain and after.solo.refills_left == 1
    assert len(after.bag) == len(state.bag) - len(expected)
    assert after.troves == state.troves and after.faces[M[0]] == "magic1"  # no reroll


def test_a_refill_fills_a_slot_only_on_two_dice():
    """Dice left high on the mountain block nothing: slots are filled from the bottom up."""
    state = solo_state({(0, 2): (T[0], "1"), (0, 3): (T[1], "1"), (1, 2): (T[2], "1")})
    _, after = when(state, Refill(0))
    assert None not in after.mountain
    assert after.mountain[slot_index(1, 2)] == T[2]


def test_at_most_two_refills():
    state = solo_state({}, trove=[(M[0], "magic1")], refills_left=0)
    error = refused(state, Refill(0))
    assert error.code == "no_refills_left"
    assert str(error).startswith("you have used both refills")


def test_a_refill_needs_dice_in_the_bag_and_an_empty_slot():
    full = solo_state({k: (d, "1") for d, k in enumerate(SLOTS)})
    assert refused(full, Refill(0)).code == "mountain_full"
    empty_bag = solo_state(row0((T[0], "1")), bag=())
    assert refused(empty_bag, Refill(0)).code == "bag_empty"


def test_two_refills_in_a_game_then_none():
    """Refill, recycle a die, refill again, recycle again: the third refill is refused."""
    state = solo_state({}, trove=[(M[0], "magic1"), (M[1], "magic1")])
    for spender, refills_left in ((M[0], 1), (M[1], 0)):
        _, state = when(state, Refill(0))
        assert state.solo.refills_left == refills_left and None not in state.mountain
        top = state.mountain[slot_index(4, 0)]
        _, state = when(state, SpendMagic(0, (top,), die=spender))
    error = refused(state, Refill(0))
    assert error.code == "no_refills_left"
    assert str(error) == "you have used both refills (the mountain refills 2 times)"


# -- the end --------------------------------------------------------------------


def test_stop_ends_and_scores_the_game():
    trove = [(G[0], "gem3"), (G[1], "gem2"), (TOOL[1], "chest2")]
    state = solo_state(row0((T[0], "1")), trove=trove, frozen=((G[1], TOOL[1]),))
    events, after = when(state, EndSolo(0))
    assert events == (sev.SoloGameEnded(7, "Disaster", stopped=True),)
    assert after.phase == OVER and after.is_over and after.to_act() is None
    assert refused(after, TakeDie(0, T[0])).code == "game_over"
    assert list(legal_commands(after)) == []


def test_the_game_ends_by_itself_when_nothing_more_can_be_done():
    """Taking the last takeable die, with no magic and no refill left, ends the game."""
    state = solo_state(row0((T[0], "1"), (T[1], "4")), refills_left=0)
    events, after = when(state, TakeDie(0, T[0]))
    assert events[-1] == sev.SoloGameEnded(0, "Disaster", stopped=False)
    assert after.is_over


def test_the_game_goes_on_while_a_refill_is_left():
    state = solo_state(row0((T[0], "1"), (T[1], "4")), refills_left=1)
    events, after = when(state, TakeDie(0, T[0]))
    assert len(events) == 1 and not after.is_over
    assert list(legal_commands(after))[-2:] == [Refill(0), EndSolo(0)]


def test_a_game_whose_first_mountain_offers_nothing_ends_at_setup():
    """With no magic dice and two untakeable top dice, there is nothing to do at all."""
    for seed in range(200):
        game = Game.new(["Ada"], seed=seed, mode="solo", starting_magic=0)
        if game.state.is_over:
            break
    else:
        pytest.fail("no seed in 0..199 gives an unplayable first mountain")
    assert isinstance(game.events()[-1][1], sev.SoloGameEnded)
    assert game.state.troves == ((),)


def test_multiplayer_refuses_solo_commands():
    game = Game.new(["Ada", "Brok"], seed=1, hero_deal="random")
    for command in (Refill(game.to_act()), EndSolo(game.to_act())):
        with pytest.raises(RuleError) as caught:
            game.issue(command)
        assert caught.value.code == "unknown_command"


# -- legal commands, text forms, the log ----------------------------------------


def test_legal_commands_offer_each_legal_way_to_take_a_die():
    trove = [(TOOL[1], "chest1"), (T[0], "1")]
    state = solo_state(row0((G[0], "gem2"), (T[1], "beer")), trove=trove, sequences=((T[0],),))
    takes = [c for c in legal_commands(state) if isinstance(c, TakeDie)]
    assert takes == [
        TakeDie(0, G[0]),
        TakeDie(0, G[0], freeze=True),
        TakeDie(0, T[1], as_face="1"),
        TakeDie(0, T[1], as_face="2"),
    ]


def test_legal_spends_name_each_set_of_recycled_dice_once():
    state = solo_state(STACK, trove=[(M[0], "magic2")])
    spends = [c.targets for c in legal_commands(state) if isinstance(c, SpendMagic)]
    assert sorted(map(sorted, spends)) == sorted(
        map(sorted, [(T[2], T[3]), (T[0], T[3]), (T[1], T[3])])
    )
    for targets in spends:
        when(state, SpendMagic(0, targets, die=M[0]))  # each one accepted


@pytest.mark.parametrize(
    "text",
    [
        "take 17 as 3",
        "take 30 freeze",
        "take 30 as gem3 freeze",
        "spend 52 on 3 7",
        "refill",
        "stop",
    ],
)
def test_solo_text_forms_round_trip(text):
    assert parse_command(text, 0).text() == text


def test_solo_commands_and_events_round_trip_through_the_codec():
    events = (
        sev.StartingTroveRolled(((52, "magic3"), (53, "beer")), 2),
        sev.SoloDieTaken(17, "3", 2, 1, wild=True, sequence=0),
        sev.SoloDieTaken(40, "dragon4", 4, 0, tool=47),
        sev.SoloDieTaken(30, "gem2", 1, 1, chest=49),
        sev.SoloMagicSpent(52, ((3, 4, 0), (7, 3, 1))),
        sev.MountainRefilled(((3, 0, 0, "1"), (7, 1, 0, "beer"))),
        sev.SoloGameEnded(47, "Average", stopped=True),
    )
    for command in (Refill(0), EndSolo(0), TakeDie(0, 17, "3", True)):
        batch = Batch(9, command, events)
        assert decode_batch(encode_batch(batch)) == batch


def test_every_solo_event_is_described_in_words():
    game = Game.new(["Ada"], seed=2, mode="solo")
    while not game.state.is_over:
        game.issue(game.legal()[0])
    state, seen = PREGAME, set()
    from core.projections.apply import apply

    for _, event in game.events():
        text = describe(state, event)
        assert text != type(event).__name__ and text
        seen.add(type(event))
        state = apply(state, event)
    assert sev.SoloGameEnded in seen and sev.StartingTroveRolled in seen


def test_same_seed_and_commands_give_the_same_log_and_undo_rerolls_the_same_dice():
    def play(undo: bool) -> Game:
        game = Game.new(["Ada"], seed=21, mode="solo")
        while not game.state.is_over:
            legal = game.legal()
            command = Refill(0) if Refill(0) in legal else legal[0]
            before = game.seq
            events = game.issue(command)
            if undo and isinstance(command, Refill):
                game.undo()
                assert game.issue(command).events == events.events  # the same dice rolled
                assert game.seq > before
        return game

    first, second = play(False), play(False)
    assert first.stream.payloads() == second.stream.payloads()
    undone = play(True)
    assert undone.state == first.state


def test_a_solo_log_file_loads_back_to_the_same_game(tmp_path):
    path = tmp_path / "solo.dmlog"
    with Game.new(["Ada"], seed=13, mode="solo", log=path, sync=False) as game:
        issued = 0
        while not game.state.is_over:
            game.issue(game.legal()[-2 if issued % 3 else 0])  # a take, a refill or a spend
            issued += 1
            if issued % 4 == 0:
                game.undo()  # the log keeps the undone command and the undo
        final = game.state
    loaded = Game.load(path)
    assert loaded.state == final and loaded.state.mode == "solo"


def test_a_wild_beer_refused_for_want_of_a_face_names_only_the_faces_it_can_be_taken_as():
    """With sequences 1-2 and 1, a tunnel beer can be a 1, a 2 or a 3, not a 4 or a 5; the
    refusal lists those three, in words a player types back (no internal face names)."""
    trove = [(T[1], "1"), (T[2], "2"), (T[3], "1")]
    state = solo_state(row0((T[0], "beer"), (M[0], "beer")), trove=trove)
    state = state.replace(solo=evolve(state.solo, sequences=((T[1], T[2]), (T[3],))))
    error = refused(state, TakeDie(0, T[0]))
    assert error.code == "choose_face"
    assert f"'take {T[0]} as 1'" in error.message and "as 1, 2 or 3)" in error.message
    assert "4" not in error.message.split("(", 1)[1]
    magic = refused(state, TakeDie(0, M[0], as_face="magic7"))
    assert magic.code == "bad_face" and "magic1" not in magic.message
    assert f"'take {M[0]} as 1 magic'" in magic.message
    assert "1 magic, 2 magic or 3 magic" in magic.message
    # the words it suggests are a command that takes the die
    events, _ = when(state, parse_command(f"take {M[0]} as 3 magic", 0))
    assert events[0].face == "magic3" and events[0].wild


def test_a_wild_hazard_with_no_free_tool_says_none_of_its_faces_can_be_taken():
    error = refused(solo_state(row0((H[0], "beer"))), TakeDie(0, H[0]))
    assert error.code == "choose_face" and "none of its faces can be taken now" in error.message
