"""Shared Hypothesis strategies: seeds, names, events, and states reached by random play."""

from __future__ import annotations

from hypothesis import strategies as st

from core.bots import RandomBot, bot_rng
from core.bots.play import bot_command
from core.commands import EndSolo, TakeDie
from core.dice import ALL_FACES, DIE_COUNT, FACES, HERO_NAMES, KIND_OF
from core.game import Game
from core.modes.multiplayer import events as ev
from core.mountain import SLOTS
from core.projections.state import MAGIC, REPLENISH

seeds = st.integers(min_value=0, max_value=2**64 - 1)
player_counts = st.integers(min_value=2, max_value=4)
dice = st.integers(min_value=0, max_value=DIE_COUNT - 1)
faces = st.sampled_from(sorted(ALL_FACES))
seats = st.integers(min_value=0, max_value=3)
rows = st.integers(min_value=0, max_value=4)
names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=12)
#: A die and a face it has (a roll); a free slot ``(row, col)`` of the mountain.
rolls = dice.flatmap(lambda d: st.tuples(st.just(d), st.sampled_from(FACES[KIND_OF[d]])))
slots = st.sampled_from(SLOTS)
hero_faces = st.lists(faces, min_size=1, max_size=3).map(tuple)
score_triples = st.tuples(*[st.integers(min_value=-50, max_value=100)] * 3)

#: One strategy per multiplayer event class, for round-trip properties.
EVENTS = {
    ev.GameStarted: st.builds(
        ev.GameStarted,
        game_id=st.text(max_size=16),
        seed=seeds,
        mode=st.sampled_from(["multi", "solo"]),
        players=st.lists(names, min_size=1, max_size=4).map(tuple),
        dice_set=st.just("standard-d1"),
        rules=st.just("2026.11"),
    ),
    ev.FirstPlayerRolled: st.builds(
        ev.FirstPlayerRolled,
        st.lists(st.tuples(seats, st.sampled_from(FACES["tunnel"])), max_size=4).map(tuple),
    ),
    ev.FirstPlayerChosen: st.builds(
        ev.FirstPlayerChosen, seats, st.lists(seats, max_size=4).map(tuple)
    ),
    ev.HeroChosen: st.builds(ev.HeroChosen, seats, st.sampled_from(HERO_NAMES), hero_faces),
    ev.HeroesDealt: st.builds(
        ev.HeroesDealt,
        st.lists(st.sampled_from(HERO_NAMES), max_size=4).map(tuple),
        st.lists(hero_faces, max_size=4).map(tuple),
    ),
    ev.MountainFilled: st.builds(
        ev.MountainFilled,
        st.lists(
            st.tuples(rolls, slots).map(lambda p: (*p[0][:1], *p[1], p[0][1])), max_size=20
        ).map(tuple),
    ),
    ev.RoundBegan: st.builds(ev.RoundBegan, st.integers(1, 3), seats),
    ev.DieTaken: st.builds(
        lambda seat, roll, slot, slides: ev.DieTaken(seat, *roll, *slot, slides),
        seats,
        rolls,
        slots,
        st.lists(st.tuples(dice, slots).map(lambda s: (s[0], *s[1])), max_size=4).map(tuple),
    ),
    ev.BeerShared: st.builds(lambda a, r, b: ev.BeerShared(a, r[0], b, r[1]), seats, rolls, seats),
    ev.MagicPhaseBegan: st.builds(ev.MagicPhaseBegan, st.lists(seats, max_size=4).map(tuple)),
    ev.MagicSpent: st.builds(
        ev.MagicSpent,
        seats,
        st.none() | dice,
        st.none() | st.integers(0, 2),
        st.lists(rolls, max_size=3).map(tuple),
    ),
    ev.MagicTurnEnded: st.builds(ev.MagicTurnEnded, seats),
    ev.RoundScored: st.builds(
        ev.RoundScored,
        st.integers(1, 3),
        st.lists(score_triples, min_size=2, max_size=4).map(tuple),
        st.none() | seats,
    ),
    ev.ReplenishBegan: st.builds(ev.ReplenishBegan, st.lists(seats, max_size=4).map(tuple)),
    ev.DiceCached: st.builds(ev.DiceCached, seats, st.lists(dice, max_size=6).map(tuple)),
    ev.TrovesRerolled: st.builds(ev.TrovesRerolled, st.lists(rolls, max_size=30).map(tuple)),
    ev.StartPlayerChosen: st.builds(
        ev.StartPlayerChosen, seats, st.lists(seats, max_size=4).map(tuple)
    ),
    ev.TieBreakBegan: st.builds(
        ev.TieBreakBegan, st.integers(1, 9), st.lists(seats, max_size=4).map(tuple)
    ),
    ev.TieBreakScored: st.builds(
        ev.TieBreakScored,
        st.integers(1, 9),
        st.lists(seats, max_size=4).map(tuple),
        st.lists(score_triples, max_size=4).map(tuple),
        st.none() | seats,
    ),
    ev.GameEnded: st.builds(ev.GameEnded, st.lists(seats, min_size=1, max_size=4).map(tuple)),
    ev.CommandUndone: st.builds(ev.CommandUndone, st.integers(0, 10**6)),
}


#: The players' names of a game drawn by ``reachable_states``.
NAMES = ("Ada", "Brok", "Cira", "Dain")


#: Kinds of state ``reachable_states`` may play on to, rarer ones included.
STOPS = {
    "any": lambda state: True,
    "magic": lambda state: state.phase == MAGIC,
    "replenish": lambda state: state.phase == REPLENISH,
    "second pick": lambda state: state.beer_shared,
}


@st.composite
def reachable_states(draw, modes=("multi", "solo")):
    """A state that play can reach: a multiplayer (2-4 players) or solo game, seeded,
    played by random bots for a drawn number of moves, then on to the first state of a
    drawn kind (any; multiplayer: also the magic phase, the replenish, a second pick
    after a beer), or to the game's end. A solo game takes a die whenever it can and
    stops only when nothing else is left, so that it goes deep."""
    mode = draw(st.sampled_from(modes))
    players = 1 if mode == "solo" else draw(player_counts)
    wanted = STOPS[draw(st.sampled_from(list(STOPS) if mode == "multi" else ["any"]))]
    game = Game.new(NAMES[:players], draw(seeds), mode=mode)
    bot = RandomBot()
    moves = draw(st.integers(min_value=0, max_value=160 if mode == "multi" else 50))
    while not game.state.is_over and (moves > 0 or not wanted(game.state)):
        if mode == "solo":  # dig on: a take while there is one, a stop only when nothing else
            legal = game.legal()
            useful = [c for c in legal if isinstance(c, TakeDie)]
            useful = useful or [c for c in legal if not isinstance(c, EndSolo)] or legal
            game.issue(bot.choose(game.state, useful, bot_rng(game.state, game.timeline.depth, 0)))
        else:
            game.issue(bot_command(game, bot))
        moves -= 1
    return game.state
