"""Which facts show dice: each event says so itself (``Event.shows_dice``), and the undo
policy trusts it, so a fact that rolled and did not say so would let a player take back
a move after seeing its dice. Checked against what the fold does: every event that gives
a die a face it did not show before says it shows dice, unless the player chose the face
(a solo beer taken as a wild die, rule D9)."""

from __future__ import annotations

import pytest

from core.events import EVENT_TYPES
from core.events.chance import shows_dice
from core.game import Game
from core.modes.multiplayer import events as ev
from core.modes.solo.events import SoloDieTaken
from core.projections.apply import apply
from core.projections.state import PREGAME
from tests.support.games import play


def games() -> list[Game]:
    out = [play(Game.new(["Ada"], seed=seed, mode="solo")) for seed in range(6)]
    for seed in range(6):
        names = ["Ada", "Brok", "Cira", "Dorn"][: 2 + seed % 3]
        out.append(play(Game.new(names, seed, hero_deal="random" if seed % 2 else "choose")))
    return out


@pytest.fixture(scope="module")
def played() -> list[Game]:
    return games()


def test_every_event_that_shows_a_face_says_it_shows_dice(played):
    seen = set()
    for game in played:
        state = PREGAME
        for _, event in game.events():
            after = apply(state, event)
            before = state.faces if state is not PREGAME else (None,) * len(after.faces)
            shown = [d for d, face in enumerate(after.faces) if face and face != before[d]]
            chosen = isinstance(event, SoloDieTaken) and event.wild
            if shown and not chosen:
                assert event.shows_dice(), f"{type(event).__name__} showed dice {shown}"
                seen.add(type(event).__name__)
            state = after
    # the games walked through every kind of roll the fold can show
    assert {"MountainFilled", "TrovesRerolled", "StartingTroveRolled", "MountainRefilled"} <= seen


def test_the_facts_that_always_roll_are_marked_where_they_are_defined():
    rolls = {tag for tag, cls in EVENT_TYPES.items() if cls.ROLLS}
    assert rolls == {
        "FirstPlayerRolled",
        "HeroesDealt",
        "MountainFilled",
        "BeerShared",
        "TrovesRerolled",
        "StartingTroveRolled",
        "MountainRefilled",
    }


def test_facts_that_roll_only_sometimes_say_when():
    assert shows_dice([ev.MagicSpent(0, 3, None, ((5, "gem1"),))])
    assert not shows_dice([ev.MagicSpent(0, 3, None, ())])
    assert shows_dice([ev.StartPlayerChosen(1, tied=(0, 1))])
    assert not shows_dice([ev.StartPlayerChosen(1)])
    assert not shows_dice([ev.RoundBegan(1, 0), ev.DieTaken(0, 5, 0, 0, ())])
