"""The legal-command generator against the rules: nothing legal missing, nothing illegal offered.

At states met in seeded games, every command the generator lists is accepted by
``resolve``, and every command ``resolve`` accepts from a wide set of candidates
(each die taken, each beer to each seat, spends and caches naming every small set
of dice, near misses included) is listed, up to the order its dice are named in:
``spend 52 on 3 17`` and ``spend 52 on 17 3`` are one move, listed once.
"""

from __future__ import annotations

from itertools import combinations, islice, permutations

import pytest

from core.bots import RandomBot, bot_rng
from core.commands import (
    CacheDice,
    ChooseHero,
    EndMagicTurn,
    EndSolo,
    Refill,
    ShareBeer,
    SpendMagic,
    TakeDie,
)
from core.dice import FACES, HERO_NAMES, KIND_OF
from core.errors import RuleError
from core.game import Game
from core.modes.multiplayer.cache import cache_capacity
from core.mountain import dice_on
from core.projections.state import EXCAVATION, MAGIC, REPLENISH, SETUP
from core.rng import DiceRng, derive_seed
from core.rules import resolve
from core.rules.legal import legal_commands

#: At most this many target sets per size and source: enough to reach past every
#: legal spend's size while keeping the test fast (the sets are spread over all).
PER_SIZE = 40


def spread(items, most: int = PER_SIZE) -> list:
    """At most ``most`` of ``items``, evenly spread (deterministic, no sampling)."""
    items = list(items)
    step = max(1, len(items) // most)
    return items[::step][:most]


def same_move(command):
    """A command with the order its dice are named in forgotten."""
    if isinstance(command, SpendMagic):
        return ("spend", command.seat, frozenset(command.targets), command.die, command.hero_face)
    if isinstance(command, CacheDice):
        return ("cache", command.seat, frozenset(command.dice))
    return command


def multiplayer_candidates(state):
    """Every take, beer and hero choice; spends and caches over small sets of trove dice."""
    seat = state.to_act()
    trove = state.troves[seat]
    near = sorted(set(dice_on(state.mountain)) | {d for t in state.troves for d in t})
    yield from (ChooseHero(seat, hero) for hero in HERO_NAMES)
    for die in near:
        yield TakeDie(seat, die)
        yield from (ShareBeer(seat, die, to) for to in range(state.players))
    yield EndMagicTurn(seat)
    sources = [(d, None) for d in trove] + [(None, i) for i in range(4)]
    sizes = 5 if state.phase == MAGIC else 2  # out of their phase a few suffice
    # the same target sets for every source: spread once (a big trove has thousands)
    target_sets = [t for size in range(sizes) for t in spread(combinations(trove, size))]
    for die, hero_face in sources:
        for targets in target_sets:
            yield SpendMagic(seat, targets, die=die, hero_face=hero_face)
    most = cache_capacity(state, seat) + 2 if state.phase == REPLENISH else 1
    for size in range(min(most, len(trove)) + 1):
        yield from (CacheDice(seat, dice) for dice in spread(combinations(trove, size)))


def solo_candidates(state):
    """Every take in every way, each spend over orders of mountain dice, refill, stop."""
    for die in dice_on(state.mountain):
        for as_face in (None, *sorted(set(FACES[KIND_OF[die]]) | {"1", "gem1"})):
            yield from (TakeDie(0, die, as_face, freeze) for freeze in (False, True))
    for die in state.troves[0]:
        for size in range(5):
            for targets in spread(islice(permutations(dice_on(state.mountain), size), 400)):
                yield SpendMagic(0, targets, die=die)
    yield Refill(0)
    yield EndSolo(0)


def accepted(state, command) -> bool:
    try:
        resolve(state, command, DiceRng(1, 1))
    except RuleError:
        return False
    return True


def sampled_states(mode: str, players: int, games: int, every: int):
    """Every ``every``-th state of seeded random games, and every state of the rarer kinds:
    hero choice, magic, replenish, the second pick after a beer."""
    bot = RandomBot()
    for i in range(games):
        names = ("Ada", "Brok", "Cira", "Dain")[:players]
        game = Game.new(names, derive_seed(29, i), mode=mode)
        step = 0
        while not game.state.is_over:
            state = game.state
            if step % every == 0 or state.phase in (SETUP, MAGIC, REPLENISH) or state.beer_shared:
                yield state
            rng = bot_rng(state, game.timeline.depth, game.to_act())
            game.issue(bot.choose(state, game.legal(), rng))
            step += 1


def check_agreement(state, candidates) -> None:
    legal = list(legal_commands(state))
    moves = [same_move(c) for c in legal]
    assert len(set(moves)) == len(moves), "a move is listed twice"
    for command in spread(legal, 300):  # magic lists run to thousands: a spread of them
        assert accepted(state, command), f"listed but refused: {command!r}"
    listed = set(moves)
    for command in candidates(state):
        if accepted(state, command):
            assert same_move(command) in listed, f"accepted but not listed: {command!r}"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_multiplayer_legal_commands_are_exactly_what_the_rules_accept(players):
    """Given states of seeded games, when every candidate is decided, then the accepted
    ones are exactly the listed ones, in every phase."""
    seen = set()
    for state in sampled_states("multi", players, games=1, every=9):
        check_agreement(state, multiplayer_candidates)
        seen.add("side picks" if state.beer_shared else state.phase)
    assert seen == {SETUP, EXCAVATION, "side picks", MAGIC, REPLENISH}


def test_solo_legal_commands_are_exactly_what_the_rules_accept():
    """As above for the solo game: every way to take, spend (in any recycle order) and refill."""
    seen = 0
    for state in sampled_states("solo", 1, games=12, every=1):
        check_agreement(state, solo_candidates)
        seen += 1
    assert seen > 12
