"""Replenish (caching under rule D7, rerolls, the new start player, the refill) and the end."""

import pytest

from core.commands import CacheDice, EndMagicTurn
from core.errors import RuleError
from core.modes.multiplayer import events as ev
from core.modes.multiplayer.cache import cache_capacity
from core.projections.state import EXCAVATION, MAGIC, OVER, REPLENISH
from tests.support.builders import ScriptedRng, dice_of, make_state, when

T = dice_of("tunnel")
TOOL = dice_of("tool")
G = dice_of("treasure")
H = dice_of("hazard")
M = dice_of("magic")


def replenish_state(trove0, trove1=(), heroes=None, **changes):
    changes.setdefault("pending", (0, 1))
    changes.setdefault("round_scores", (((5, 0, 0),), ((3, 0, 0),)))
    return make_state(
        phase=REPLENISH,
        troves={0: trove0, 1: list(trove1) or [(TOOL[6], "chest1")]},
        heroes=heroes,
        **changes,
    )


def test_rule_d7_a_chest_die_holds_dice_but_is_rerolled_itself():
    state = replenish_state([(TOOL[0], "chest2"), (T[0], "5"), (T[1], "4"), (T[2], "3")])
    assert cache_capacity(state, 0) == 2
    events, _ = when(state, CacheDice(0, (T[0], T[1])))
    assert events[0] == ev.DiceCached(0, (T[0], T[1]))
    with pytest.raises(RuleError) as refused:
        when(state, CacheDice(0, (T[0], T[1], T[2])))
    assert refused.value.code == "cache_too_big"


def test_rule_d7_caching_the_chest_die_itself_loses_its_chests():
    state = replenish_state([(TOOL[0], "chest2"), (T[0], "5"), (T[1], "4")])
    with pytest.raises(RuleError) as refused:
        when(state, CacheDice(0, (TOOL[0], T[0])))
    assert refused.value.code == "cache_too_big"
    assert "a chest die that holds dice is rerolled" in str(refused.value)


def test_rule_d7_hero_chests_can_keep_the_chest_die():
    """The Treasurer's 2 chests hold a chest-1 tool die and one more die."""
    state = replenish_state([(TOOL[0], "chest1"), (T[0], "5")], heroes=("Treasurer", "Engineer"))
    assert cache_capacity(state, 0) == 3
    when(state, CacheDice(0, (TOOL[0], T[0])))  # accepted: 2 <= 2 hero chests


def test_hazards_can_be_cached():
    state = replenish_state([(TOOL[0], "chest1"), (H[0], "dragon4")])
    events, _ = when(state, CacheDice(0, (H[0],)))
    assert events[0].dice == (H[0],)


def test_caching_dice_that_are_not_yours_or_twice():
    state = replenish_state([(TOOL[0], "chest2"), (T[0], "5")], [(TOOL[1], "chest1"), (T[1], "1")])
    with pytest.raises(RuleError) as refused:
        when(state, CacheDice(0, (T[1],)))
    assert refused.value.code == "not_your_die"
    with pytest.raises(RuleError) as refused:
        when(state, CacheDice(0, (T[0], T[0])))
    assert refused.value.code == "duplicate_dice"


def test_after_the_last_cache_uncached_dice_reroll_lowest_starts_and_the_mountain_refills():
    state = replenish_state(
        [(TOOL[0], "chest1"), (T[0], "5")],
        [(TOOL[1], "chest1"), (T[1], "1")],
        bag=tuple(range(30, 60)),
    )
    _, state = when(state, CacheDice(0, (T[0],)))
    events, after = when(state, CacheDice(1, ()), ScriptedRng(["2", "pickaxe", "shield"]))
    kinds = [type(e) for e in events]
    assert kinds == [
        ev.DiceCached,
        ev.TrovesRerolled,
        ev.StartPlayerChosen,
        ev.MountainFilled,
        ev.RoundBegan,
    ]
    rerolled = dict(events[1].rolls)
    assert set(rerolled) == {T[1], TOOL[0], TOOL[1]}  # T0 was cached
    assert after.faces[T[0]] == "5"
    assert events[2] == ev.StartPlayerChosen(1)  # Brok has 3 < 5
    assert events[4] == ev.RoundBegan(2, 1)
    assert after.phase == EXCAVATION and after.to_act() == 1 and after.round == 2
    assert len(events[3].placements) == 20 and len(after.bag) == 10


def test_a_tie_for_lowest_total_is_broken_at_random_and_recorded():
    state = replenish_state(
        [(TOOL[0], "chest1"), (T[0], "5")],
        [(T[1], "1")],
        round_scores=(((4, 0, 0),), ((4, 0, 0),)),
        pending=(0,),
        bag=tuple(range(30, 60)),
    )
    events, _ = when(state, CacheDice(0, ()), ScriptedRng(indices=[1]))
    chosen = next(e for e in events if isinstance(e, ev.StartPlayerChosen))
    assert chosen == ev.StartPlayerChosen(1, (0, 1))


def test_players_without_chests_are_not_asked():
    state = make_state(
        phase=MAGIC,
        pending=(1,),
        troves={0: [(T[0], "1")], 1: [(M[0], "magic1"), (TOOL[0], "chest1"), (T[1], "2")]},
        bag=tuple(range(30, 60)),
    )
    events, after = when(state, EndMagicTurn(1))
    assert ev.DiceCached(0, ()) in events  # Ada had no chests: skipped
    assert after.phase == REPLENISH and after.to_act() == 1


def test_round_three_scoring_ends_the_game_with_the_highest_total():
    state = make_state(
        phase=MAGIC,
        pending=(1,),
        round=3,
        troves={0: [(T[0], "1"), (T[1], "2")], 1: [(M[0], "magic1"), (T[2], "1")]},
        round_scores=(((1, 0, 0), (1, 0, 0)), ((1, 0, 0), (1, 0, 0))),
    )
    events, after = when(state, EndMagicTurn(1))
    assert events[-2] == ev.RoundScored(3, ((3, 0, 0), (1, 0, 0)), None)
    assert events[-1] == ev.GameEnded((0,))
    assert after.phase == OVER and after.totals() == (5, 3) and after.to_act() is None


def tied_end_state():
    """Round 3's last magic turn, with totals that will tie at 4 each."""
    return make_state(
        phase=MAGIC,
        pending=(1,),
        round=3,
        troves={
            0: [(T[0], "1"), (M[1], "magic1")],
            1: [(M[0], "magic1"), (T[2], "1"), (G[0], "gem1")],
        },
        round_scores=(((3, 0, 0), (0, 0, 0)), ((1, 0, 0), (0, 0, 0))),
    )


def test_a_tie_after_round_three_starts_a_tie_break_for_the_tied():
    rolls = ["2", "1", "gem3", "magic2", "magic1"]  # both troves, in die order
    events, after = when(tied_end_state(), EndMagicTurn(1), ScriptedRng(rolls))
    kinds = [type(e) for e in events]
    assert kinds[:4] == [ev.MagicTurnEnded, ev.RoundScored, ev.TieBreakBegan, ev.TrovesRerolled]
    assert events[2] == ev.TieBreakBegan(1, (0, 1))
    assert {d for d, _ in events[3].rolls} == {T[0], M[1], M[0], T[2], G[0]}
    assert after.phase == MAGIC and after.tiebreak == 1 and after.spent == frozenset()


def test_the_tie_break_scores_only_the_tied_and_the_highest_extra_score_wins():
    rolls = ["2", "1", "gem3", "magic2", "magic1"]
    _, state = when(tied_end_state(), EndMagicTurn(1), ScriptedRng(rolls))
    while state.phase == MAGIC:
        events, state = when(state, EndMagicTurn(state.to_act()))
    scored = next(e for e in events if isinstance(e, ev.TieBreakScored))
    assert scored.seats == (0, 1) and scored.scores == ((0, 0, 0), (1, 6, 0))
    assert events[-1] == ev.GameEnded((1,)) and state.winners == (1,)
    assert state.totals() == (4, 4)  # the tie-break does not change the totals


def test_a_tie_break_that_ties_again_is_repeated():
    rolls = ["1", "1", "beer", "magic1", "magic1"] + ["3", "1", "gem1", "magic1", "magic1"]
    _, state = when(tied_end_state(), EndMagicTurn(1), ScriptedRng(rolls))
    for _ in range(2):
        events, state = when(state, EndMagicTurn(state.to_act()), ScriptedRng(rolls[5:]))
    assert ev.TieBreakBegan(2, (0, 1)) in events
    assert state.tiebreak == 2


def test_a_three_player_tie_break_leaves_the_untied_player_out_of_everything():
    """Given Ada and Brok tied after round 3 and Cira behind with the most gems, when the
    round is scored, then only Ada and Brok reroll, play magic and are compared for the
    doubling: Brok's 2 gems double although Cira shows 6; Cira's dice keep their faces."""
    state = make_state(
        players=3,
        phase=MAGIC,
        pending=(2,),
        round=3,
        troves={
            0: [(T[0], "1"), (G[0], "gem1")],
            1: [(T[1], "1"), (G[1], "gem1")],
            2: [(G[2], "gem3"), (G[3], "gem3"), (M[0], "magic1")],
        },
        round_scores=(((3, 0, 0), (0, 0, 0)), ((3, 0, 0), (0, 0, 0)), ((0, 0, -20), (0, 0, 0))),
    )
    rolls = ["1", "1", "gem1", "gem2"]  # the tied troves, in die order: T0 T1 G0 G1
    events, after = when(state, EndMagicTurn(2), ScriptedRng(rolls))
    assert events == (
        ev.MagicTurnEnded(2),
        ev.RoundScored(3, ((1, 1, 0), (1, 1, 0), (0, 12, 0)), 2),
        ev.TieBreakBegan(1, (0, 1)),
        ev.TrovesRerolled(((T[0], "1"), (T[1], "1"), (G[0], "gem1"), (G[1], "gem2"))),
        ev.MagicPhaseBegan((0, 1)),  # Cira's unspent magic die is not asked for
        ev.MagicTurnEnded(0),
        ev.MagicTurnEnded(1),
        ev.TieBreakScored(1, (0, 1), ((1, 1, 0), (1, 4, 0)), 1),
        ev.GameEnded((1,)),
    )
    assert after.winners == (1,) and after.totals() == (5, 5, -8)
    assert (after.faces[G[2]], after.faces[G[3]], after.faces[M[0]]) == ("gem3", "gem3", "magic1")
