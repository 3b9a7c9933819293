"""Bots choose legal commands, deterministically, from the same list a frontend sees."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.bots import BOTS, bot_rng, make_bot
from core.bots.evaluate import score_faces
from core.bots.greedy import GreedyBot
from core.bots.play import bot_command, play_game
from core.bots.random_bot import RandomBot
from core.bots.registry import parse_bots
from core.commands import CacheDice, SpendMagic, TakeDie
from core.dice import ALL_FACES
from core.game import Game
from core.modes.multiplayer.cache import is_legal_cache
from core.modes.multiplayer.scoring import gem_count, hazard_points, tunnel_points
from core.projections.state import EXCAVATION, MAGIC, REPLENISH
from core.rng import DiceRng, derive_seed
from core.rules import resolve
from core.rules.legal import LegalList, legal_commands, unrank_combination


def states_of_random_games(games: int, seed: int = 11):
    """Every state met while random bots play ``games`` games of 2 to 4 players."""
    bot = RandomBot()
    for i in range(games):
        game = Game.new(["A", "B", "C", "D"][: 2 + i % 3], derive_seed(seed, i))
        while not game.state.is_over:
            yield game.state
            game.issue(bot_command(game, bot))


def is_listed(state, command) -> bool:
    return any(c == command for c in legal_commands(state))


# -- the lazy legal list ---------------------------------------------------------------


def test_unrank_combination_follows_itertools_order():
    from itertools import combinations

    items = tuple("abcdefg")
    for k in range(len(items) + 1):
        expected = list(combinations(items, k))
        assert [unrank_combination(items, k, i) for i in range(len(expected))] == expected


def test_legal_list_is_the_legal_commands_in_order():
    """Length and every index agree with legal_commands, even for huge magic and cache lists."""
    seen = Counter()
    for state in states_of_random_games(12):
        lazy, full = LegalList(state), list(legal_commands(state))
        assert len(lazy) == len(full)
        step = max(1, len(full) // 200)  # every command of short lists, a sample of long ones
        assert [lazy[i] for i in range(0, len(full), step)] == full[::step]
        assert lazy[-1] == full[-1]
        seen[state.phase] += 1
        if len(full) > 1000:
            seen["huge"] += 1
    assert seen[MAGIC] and seen[REPLENISH] and seen[EXCAVATION] and seen["huge"]


def test_legal_list_indexing_like_a_sequence():
    state = next(s for s in states_of_random_games(3) if s.phase == MAGIC)
    lazy = LegalList(state)
    assert lazy[0:3] == list(legal_commands(state))[0:3]
    assert list(lazy) == list(legal_commands(state))
    with pytest.raises(IndexError):
        lazy[len(lazy)]
    with pytest.raises(IndexError):
        lazy[-len(lazy) - 1]


def test_cache_unranking_yields_only_legal_caches():
    for state in states_of_random_games(6):
        if state.phase != REPLENISH:
            continue
        lazy, seat = LegalList(state), state.to_act()
        for i in range(0, len(lazy), max(1, len(lazy) // 50)):
            assert is_legal_cache(state, seat, lazy[i].dice)


# -- every bot plays legally and deterministically -----------------------------------


@pytest.mark.parametrize("lineup", [("random", "greedy", "random"), ("greedy", "montecarlo")])
def test_bots_choose_only_legal_commands(lineup):
    """Over seeded games every choice is in the legal list and accepted by the rules."""
    bots = [make_bot(name) for name in lineup]
    checked = 0
    for i in range(4 if "montecarlo" in lineup else 10):
        game = Game.new([f"p{s}" for s in range(len(lineup))], derive_seed(5, i))
        while not game.state.is_over:
            state = game.state
            command = bot_command(game, bots[state.to_act()])
            assert is_listed(state, command), command
            resolve(state, command, DiceRng(0))  # the rules accept it
            game.issue(command)
            checked += 1
    assert checked > 200


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bot_choices_are_deterministic(name):
    """The same state and the same generator give the same choice."""
    bot = make_bot(name)
    for state in list(states_of_random_games(1, seed=3))[::7]:
        seat = state.to_act()
        first = bot.choose(state, LegalList(state), bot_rng(state, 5, seat))
        again = make_bot(name).choose(state, LegalList(state), bot_rng(state, 5, seat))
        assert first == again


def test_random_bot_is_uniform_over_the_legal_commands():
    state = next(s for s in states_of_random_games(2) if s.phase == EXCAVATION)
    legal = LegalList(state)
    picks = Counter(RandomBot().choose(state, legal, DiceRng(9, i)) for i in range(3000))
    assert set(picks) == set(legal)
    expected = 3000 / len(legal)
    assert all(abs(n - expected) < 0.35 * expected for n in picks.values())


def test_play_game_plays_to_the_end_and_checks_the_table():
    game = Game.new(["A", "B"], 8)
    with pytest.raises(ValueError, match="2 seats need 2 bots"):
        play_game(game, [RandomBot()])
    moves = []
    state = play_game(game, [RandomBot(), GreedyBot()], lambda g, c, e: moves.append(c))
    assert state.is_over and len(moves) == game.timeline.depth - 1
    with pytest.raises(ValueError, match="over"):
        bot_command(game, RandomBot())


def test_parse_bots_fills_the_table_and_names_errors():
    assert parse_bots("greedy,random", 4) == ["greedy", "random", "greedy", "random"]
    assert parse_bots("montecarlo", 2) == ["montecarlo", "montecarlo"]
    for text, message in [
        ("nope", "unknown bot"),
        ("greedy,,random", "names"),
        ("a,b,c", "3 bots"),
    ]:
        with pytest.raises(ValueError, match=message):
            parse_bots(text, 2)


# -- the greedy bot's valuation --------------------------------------------------------


@given(
    st.lists(st.sampled_from(sorted(ALL_FACES)), max_size=30),
    st.integers(min_value=0, max_value=12),
)
def test_bot_scoring_agrees_with_core_scoring(faces, rival):
    gems = gem_count(faces)
    treasure = 2 * gems if gems > rival else gems
    assert score_faces(faces, rival) == tunnel_points(faces) + treasure + hazard_points(faces)


def test_greedy_takes_the_die_that_scores_most():
    """In the excavation, greedy's take is never worse than any other take."""
    bot, compared = GreedyBot(), 0
    for state in states_of_random_games(3, seed=21):
        if state.phase != EXCAVATION or state.beer_shared:
            continue
        legal = LegalList(state)
        choice = bot.choose(state, legal, DiceRng(1))
        if not isinstance(choice, TakeDie):
            continue
        seat = state.to_act()
        after = {c.die: resolve(state, c, DiceRng(0))[1] for c in legal if isinstance(c, TakeDie)}
        score = {d: score_faces(s.trove_faces(seat), -1) for d, s in after.items()}
        gems_now = {d: gem_count(s.trove_faces(seat)) for d, s in after.items()}
        if all(g == 0 for g in gems_now.values()):  # no doubling to estimate: exact comparison
            assert score[choice.die] == max(score.values())
            compared += 1
    assert compared > 10


def test_greedy_spends_magic_on_dice_it_expects_to_improve_and_caches_within_chests():
    bot, spends, caches = GreedyBot(), 0, 0
    for state in states_of_random_games(8, seed=31):
        if state.phase not in (MAGIC, REPLENISH):
            continue
        choice = bot.choose(state, LegalList(state), DiceRng(2))
        assert is_listed(state, choice)
        if isinstance(choice, SpendMagic):
            spends += 1
        if isinstance(choice, CacheDice):
            caches += bool(choice.dice)
            assert is_legal_cache(state, state.to_act(), choice.dice)
    assert spends and caches
