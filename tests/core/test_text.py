"""Events in words: what a player reads in the terminal, the web's event list and ``log show``."""

from __future__ import annotations

from core.modes.multiplayer import events as ev
from core.read.text import describe
from core.words import die_words, slot_words
from tests.support.builders import dice_of, make_state

T = dice_of("tunnel")
TREASURE = dice_of("treasure")
M = dice_of("magic")


def test_a_die_is_named_with_its_face_and_a_beer_with_its_kind():
    assert die_words(T[0], "3") == f"die {T[0]} (tunnel 3)"
    assert die_words(TREASURE[0], "gem2") == f"die {TREASURE[0]} (2 gems)"
    assert die_words(T[1], "beer") == f"die {T[1]} (tunnel die, beer)"
    assert die_words(TREASURE[1], None) == f"die {TREASURE[1]} (treasure die, in the bag)"
    assert slot_words(2, 1) == "row 2, col 1"


def test_a_magic_spend_says_what_each_rerolled_die_showed_and_shows_now():
    """Not "spent die 52: 25 -> 2", which reads like the number 25 became 2."""
    state = make_state(
        troves={0: [(M[0], "magic2"), (T[0], "5"), (TREASURE[0], "beer")]},
        heroes=("Surveyor", "Engineer"),
    )
    spent = ev.MagicSpent(0, M[0], None, ((T[0], "2"), (TREASURE[0], "gem1")))
    assert describe(state, spent) == (
        f"Ada spent die {M[0]} (2 magic) to reroll die {T[0]} (tunnel 5 -> tunnel 2) "
        f"and die {TREASURE[0]} (treasure die, beer -> 1 gem)"
    )
    hero = ev.MagicSpent(0, None, 1, ((T[0], "4"),))  # the Surveyor's second face: 1 magic
    assert describe(state, hero) == (
        f"Ada spent hero face h1 (1 magic) to reroll die {T[0]} (tunnel 5 -> tunnel 4)"
    )
    nothing = ev.MagicSpent(0, M[0], None, ())
    assert describe(state, nothing) == f"Ada spent die {M[0]} (2 magic) with nothing to reroll"


def test_a_shared_beer_says_the_number_it_rolled_is_a_tunnel():
    state = make_state(troves={0: [(T[0], "beer")]})
    shared = ev.BeerShared(0, T[0], 1, "3")
    assert describe(state, shared) == (
        f"Ada shared a beer with Brok: die {T[0]} rolled tunnel 3; Ada takes two dice"
    )
