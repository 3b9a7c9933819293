"""The choices read model against the rules: all it offers is legal, all that is legal is offered.

At states that play reaches (Hypothesis, 2-4 players and solo), every option's
command is accepted by ``decide``, a spend built from the dice it says may be
picked and a cache within its room are accepted too, and every legal command
is found among the options (a spend or a cache among its parts). Rule D6's
forced picks are checked by example and over the same states.
"""

from __future__ import annotations

from itertools import islice

import pytest
from hypothesis import HealthCheck, event, given, settings

from core.bots import RandomBot
from core.bots.play import bot_command
from core.commands import (
    CacheDice,
    ChooseHero,
    Command,
    EndMagicTurn,
    EndSolo,
    Refill,
    ShareBeer,
    SpendMagic,
    TakeDie,
)
from core.errors import RuleError
from core.game import Game
from core.modes.multiplayer import events as ev
from core.projections.state import MAGIC, REPLENISH, GameState
from core.read.choices import Choices, Option, choices
from core.rng import DiceRng
from core.rules import decide
from core.rules.legal import legal_commands
from tests.support.builders import dice_of, make_state, row0, solo_state
from tests.support.strategies import NAMES, reachable_states

KINDS = (ChooseHero, TakeDie, ShareBeer, SpendMagic, EndMagicTurn, CacheDice, Refill, EndSolo)
#: Legal commands decided per state (magic and cache lists run to thousands): a spread.
DECIDED = 120

M = dice_of("magic")
T = dice_of("tunnel")
H = dice_of("hazard")
G = dice_of("treasure")


def accepted(state: GameState, command: Command) -> bool:
    try:
        decide(state, command, DiceRng(1, 1))
    except RuleError:
        return False
    return True


def whole_options(model: Choices) -> list[Option]:
    """Every option the model offers as a complete command."""
    found = [h.option for h in model.heroes]
    found += [o for t in model.takes for o in t.options]
    found += list(model.beers)
    found += [s.forced for s in model.spends if s.forced is not None]
    found += [o for o in (model.end, model.refill, model.stop) if o is not None]
    return found


def among(model: Choices, command: Command) -> bool:
    """True if ``command`` is one of the model's options, or built from a spend's or a
    cache's parts as a frontend builds it."""
    if isinstance(command, SpendMagic):
        spend = model.spend(die=command.die, hero_face=command.hero_face)
        if spend is None or len(command.targets) != spend.needed:
            return False
        if not set(command.targets) <= set(spend.pickable(())):
            return False
        if spend.forced is not None and spend.forced.command != command:
            return False
        return spend.orders is None or command.targets in spend.orders
    if isinstance(command, CacheDice):
        cache = model.cache
        return (
            cache is not None
            and set(command.dice) <= set(cache.dice)
            and len(command.dice) <= cache.room(command.dice)
            and cache.command(command.dice) == command
        )
    return command in [o.command for o in whole_options(model)]


def spread(items: list, most: int) -> list:
    step = max(1, len(items) // most)
    return items[::step][:most]


def check_against_the_rules(state: GameState) -> None:
    seat = state.to_act()
    model = choices(state, seat)
    for other in range(state.players):
        if other != seat:
            assert not choices(state, other).turn, other
    if seat is None:
        assert not model.turn and not whole_options(model)
        return
    assert model.turn and model.seat == seat and model.phase == state.phase

    for option in whole_options(model):
        assert accepted(state, option.command), f"offered but refused: {option}"
        assert option.text == option.command.text() and option.label
    for spend in model.spends:
        assert (spend.forced is not None) == (spend.needed == len(spend.eligible))  # rule D6
        picks = spend.orders[0] if spend.orders else spend.pickable(())[: spend.needed]
        assert accepted(state, spend.command(picks)), spend
        if spend.orders:  # a recycle picked in any order goes out in one the engine takes
            assert accepted(state, spend.command(tuple(reversed(spend.orders[-1]))))
    if model.cache is not None:
        cache = model.cache
        assert cache.room() == cache.capacity and cache.dice == tuple(sorted(cache.dice))
        assert accepted(state, cache.command(()))
        too_many = cache.dice[: cache.room(cache.dice[: cache.capacity + 1]) + 1]
        if len(too_many) > cache.room(too_many):
            assert not accepted(state, cache.command(too_many))

    legal = list(islice(legal_commands(state), 50_000))
    for command in legal:
        assert among(model, command), f"legal but not offered: {command!r}"
    for command in spread(legal, DECIDED):
        assert accepted(state, command)
    assert {k for k in KINDS if model.offers(k)} == {type(c) for c in legal}
    assert list(islice(model.commands(), 200)) == legal[:200]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reachable_states())
def test_the_choices_are_exactly_the_legal_commands(state):
    """Given a state play reaches, the options are accepted and every legal command is offered."""
    event(f"{state.mode} {state.phase}")  # where the states fall: --hypothesis-show-statistics
    check_against_the_rules(state)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reachable_states(modes=("solo",)))
def test_the_solo_choices_are_exactly_the_legal_commands(state):
    """As above, solo games only: wild beers, freezing, recycle orders, refills."""
    event("over" if state.is_over else f"{len(state.troves[0])} dice in the trove")
    check_against_the_rules(state)


def test_seeded_games_meet_every_kind_of_choice_and_agree_with_the_rules_throughout():
    """Whole seeded games, every state checked, meet each kind of option the property
    checks (so it is not vacuous): a forced spend and a take with options among them."""
    seen: set[str] = set()
    for mode, names, seeds in (("multi", NAMES[:3], (9,)), ("solo", NAMES[:1], (26, 0, 1))):
        for seed in seeds:
            game = Game.new(names, seed, mode=mode)
            while not game.state.is_over:
                check_against_the_rules(game.state)
                model = choices(game.state, game.to_act())
                seen |= {k.__name__ for k in KINDS if model.offers(k)}
                if any(s.forced for s in model.spends):
                    seen.add(f"forced {mode}")
                if any(len(t.options) > 1 for t in model.takes):
                    seen.add("take options")
                game.issue(bot_command(game, RandomBot()))
    assert seen == {k.__name__ for k in KINDS} | {"forced multi", "forced solo", "take options"}


# -- rule D6: a spend with nothing to choose ---------------------------------------------


def magic_state(trove, heroes=None):
    """Ada to act in the magic phase (Brok after her) with this trove."""
    return make_state(
        phase=MAGIC, troves={0: trove, 1: [(M[7], "magic1")]}, heroes=heroes, pending=(0, 1)
    )


def test_d6_fewer_eligible_dice_than_symbols_forces_all_of_them():
    """Given a 3-magic die and one die it may reroll (a hazard never), the spend is forced."""
    state = magic_state([(M[0], "magic3"), (T[0], "3"), (H[0], "dragon4")])
    (spend,) = choices(state, 0).spends
    assert (spend.needed, spend.eligible) == (1, (T[0],))
    assert spend.forced == Option(
        SpendMagic(0, (T[0],), die=M[0]),
        f"spend die {M[0]} (3 magic): reroll die {T[0]} (tunnel 3)",
    )
    assert spend.forced.text == f"spend {M[0]} on {T[0]}"


def test_d6_as_many_eligible_dice_as_symbols_forces_them_all():
    state = magic_state([(M[0], "magic2"), (T[0], "3"), (G[0], "gem2")])
    (spend,) = choices(state, 0).spends
    assert spend.forced is not None and spend.forced.command.targets == (T[0], G[0])


def test_d6_more_eligible_dice_than_symbols_leaves_the_choice():
    state = magic_state([(M[0], "magic2"), (T[0], "3"), (T[1], "4"), (G[0], "gem2")])
    (spend,) = choices(state, 0).spends
    assert spend.forced is None and spend.needed == 2 and len(spend.eligible) == 3


def test_d6_nothing_to_reroll_is_a_forced_spend_of_no_dice():
    state = magic_state([(M[0], "magic1"), (H[0], "cavein1")])
    (spend,) = choices(state, 0).spends
    assert spend.forced is not None and spend.forced.command == SpendMagic(0, (), die=M[0])
    assert spend.forced.label == f"spend die {M[0]} (1 magic): nothing to reroll"
    assert spend.forced.text == f"spend {M[0]}"


def test_d6_a_hero_face_with_one_die_to_reroll_is_forced():
    state = magic_state([(T[0], "2"), (H[0], "cavein1")], heroes=("Surveyor", "Engineer"))
    (spend,) = choices(state, 0).spends
    assert (spend.die, spend.hero_face, spend.label) == (None, 1, "hero face h1 (1 magic)")
    assert spend.forced is not None
    assert spend.forced.command == SpendMagic(0, (T[0],), hero_face=1)


def test_d6_solo_as_many_top_dice_as_symbols_are_recycled_in_an_order_the_engine_takes():
    """Given one die on top of another and a 2-magic die, both go, the top one first."""
    state = solo_state(
        {(0, 0): (T[0], "1"), (0, 1): (T[1], "2"), (1, 0): (G[0], "gem1")},
        trove=[(M[0], "magic3")],
    )
    (spend,) = choices(state, 0).spends
    assert spend.needed == 3 and spend.forced is not None
    assert spend.forced.command.targets[0] == G[0]  # the die on top leaves first
    assert accepted(state, spend.forced.command)
    assert spend.forced.label.startswith(f"spend die {M[0]} (3 magic): recycle die {G[0]}")


def test_d6_solo_a_choice_of_top_dice_is_not_forced():
    state = solo_state(row0((T[0], "1"), (T[1], "2")), trove=[(M[0], "magic1")])
    (spend,) = choices(state, 0).spends
    assert spend.forced is None and spend.orders == ((T[0],), (T[1],))
    assert spend.pickable([T[1]]) == (T[1],)  # a recycle of one die: the other no longer fits


# -- the model's own answers -----------------------------------------------------------


def test_a_seat_not_to_act_has_no_choices():
    state = magic_state([(M[0], "magic1"), (T[0], "1")])
    assert choices(state, 1) == Choices(1, MAGIC, False, state)
    assert not choices(state, None).turn


@pytest.mark.parametrize(
    ("trove", "picked", "room"),
    [
        ([(T[0], "1"), (dice_of("tool")[0], "chest2")], (), 2),
        ([(T[0], "1"), (dice_of("tool")[0], "chest2")], (T[0],), 2),
        ([(T[0], "1"), (dice_of("tool")[0], "chest2")], (dice_of("tool")[0],), 0),  # rule D7
    ],
)
def test_the_cache_room_counts_only_the_chests_not_cached(trove, picked, room):
    state = make_state(phase=REPLENISH, troves={0: trove, 1: []}, pending=(0, 1))
    cache = choices(state, 0).cache
    assert cache is not None and cache.room(picked) == room


def test_the_solo_take_options_say_what_each_does():
    """A wild tunnel beer: one option per face it may become, worded by the engine's event."""
    state = solo_state(row0((T[2], "beer")), trove=[(T[0], "1")], sequences=((T[0],),))
    (take,) = choices(state, 0).takes
    assert [o.label for o in take.options] == [
        f"take die {T[2]} as 1, opening sequence 2",
        f"take die {T[2]} as 2, extending sequence 1 to 1-2",
    ]
    assert [o.text for o in take.options] == [f"take {T[2]} as 1", f"take {T[2]} as 2"]


def test_a_gem_that_may_be_frozen_is_offered_both_ways():
    tool = dice_of("tool")[0]
    state = solo_state(row0((G[0], "gem2")), trove=[(tool, "chest1")])
    (take,) = choices(state, 0).takes
    assert [o.label for o in take.options] == [
        f"take die {G[0]}, not frozen",
        f"take die {G[0]}, frozen on the chest of die {tool} (2 points a gem)",
    ]


def test_an_event_of_a_forced_spend_rerolls_every_eligible_die():
    state = magic_state([(M[0], "magic3"), (T[0], "3"), (T[1], "4"), (H[0], "dragon4")])
    (spend,) = choices(state, 0).spends
    assert spend.forced is not None
    (event, *_) = decide(state, spend.forced.command, DiceRng(1, 1))
    assert isinstance(event, ev.MagicSpent) and {d for d, _ in event.rolls} == {T[0], T[1]}
