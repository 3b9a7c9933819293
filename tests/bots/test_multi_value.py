"""The Monte Carlo bot's valuation agrees with the real scoring where it claims to."""

from hypothesis import given
from hypothesis import strategies as st

from core.bots import make_bot
from core.bots.evaluate import tally
from core.bots.montecarlo import MonteCarloBot
from core.bots.multi_value import Future, later_rounds, reroll_beers, round_scores, standing
from core.bots.play import bot_command
from core.commands import CacheDice, EndMagicTurn, SpendMagic
from core.dice import ALL_FACES
from core.game import Game
from core.modes.multiplayer.cache import is_legal_cache
from core.modes.multiplayer.scoring import score_round
from core.projections.state import EXCAVATION, MAGIC, REPLENISH
from core.rng import DiceRng, derive_seed
from core.rules.legal import LegalList, legal_commands

troves = st.lists(st.lists(st.sampled_from(sorted(ALL_FACES)), max_size=20), min_size=2, max_size=4)


@given(troves)
def test_round_scores_agree_with_core_scoring(faces):
    """Without the magic bonus, the tallies score a round exactly as the rules do."""
    expected = [b.total for b in score_round(faces)]
    assert round_scores([tally(f, 0.0) for f in faces]) == expected


def greedy_states(games: int, seed: int = 41):
    """Every state met while greedy bots play ``games`` games of 2 to 4 players."""
    bot = make_bot("greedy")
    for i in range(games):
        game = Game.new(["A", "B", "C", "D"][: 2 + i % 3], derive_seed(seed, i))
        while not game.state.is_over:
            yield game.state
            game.issue(bot_command(game, bot))


def test_futures_deal_out_the_whole_bag_once():
    state = next(s for s in greedy_states(1) if s.phase == EXCAVATION)
    future = Future(state, DiceRng(3), later_rounds(state))
    assert later_rounds(state) == 2 and len(future.rounds) == 2
    dealt = [d for shares in future.rounds[-1][2] for d in shares]
    assert sorted(dealt) == sorted(state.bag)


def test_standing_counts_the_last_round_exactly():
    """Round 3: no round is left to sample, so the value is the exact final lead the rules
    would give with these gains (faces as shown), plus the bonus if it wins."""
    checked = 0
    for state in greedy_states(4):
        if state.phase != EXCAVATION or state.round != 3:
            continue
        seat, n = state.to_act(), state.players
        gains = {s: [] for s in range(n)}
        rest = [d for d in state.mountain if d is not None]
        for i, d in enumerate(rest):  # any split of the mountain: the scores must follow
            gains[(seat + i) % n].append(d)
        faces = [
            [state.faces[d] for d in (*state.troves[s], *gains[s])] + list(state.hero_faces(s))
            for s in range(n)
        ]
        final = [t + b.total for t, b in zip(state.totals(), score_round(faces), strict=True)]
        lead = final[seat] - max(f for s, f in enumerate(final) if s != seat)
        win = 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
        futures = [Future(state, DiceRng(i), 0) for i in range(2)]
        value = standing(state, seat, futures, gains, magic_weight=0.0, win_weight=7.0)
        assert value == lead + 7.0 * win
        checked += 1
    assert checked > 5


def test_montecarlo_magic_and_cache_choices_are_legal():
    bot, spends, caches = MonteCarloBot(samples=4), 0, 0
    for state in greedy_states(5, seed=43):
        if state.phase not in (MAGIC, REPLENISH):
            continue
        choice = bot.choose(state, LegalList(state), DiceRng(5))
        assert any(c == choice for c in legal_commands(state)), choice
        spends += isinstance(choice, SpendMagic)
        assert isinstance(choice, (SpendMagic, EndMagicTurn, CacheDice))
        if isinstance(choice, CacheDice):
            caches += bool(choice.dice)
            assert is_legal_cache(state, state.to_act(), choice.dice)
    assert spends and caches


def test_magic_rerolls_beer_faces_one_die_a_symbol_never_a_hazard():
    # dice 0 (tunnel), 36 (hazard), 27 (treasure), 52 (magic, showing 2 symbols), 1 (tunnel)
    held = ["beer", "beer", "beer", "magic2", "beer"]
    ids = [0, 36, 27, 52, 1]
    reroll_beers(held, ids, (), lambda i, d: f"new{d}")
    assert held == ["new0", "beer", "new27", "magic2", "beer"]  # 2 symbols: 2 dice, not the hazard
    hero = ["magic1"]  # a hero's magic face counts too
    held = ["beer", "1"]
    reroll_beers(held, [2, 3], hero, lambda i, d: "5")
    assert held == ["5", "1"]
    held = ["beer"]
    reroll_beers(held, [2], (), lambda i, d: "5")  # no magic: nothing rerolled
    assert held == ["beer"]
