"""What a player types at the ``:`` line: die ids as ``#17``, seats by name, a wild beer's
face in words, and a bare number that is a face on the board refused as ambiguous."""

from __future__ import annotations

import pytest

from core.commands import CacheDice, ShareBeer, SpendMagic, TakeDie, parse_command
from core.errors import CommandSyntaxError

NAMES = ("You", "Brok", "Player 3")


@pytest.mark.parametrize(
    ("typed", "command"),
    [
        ("take #17", TakeDie(0, 17)),
        ("take 17", TakeDie(0, 17)),
        ("take #55 as 3 magic", TakeDie(0, 55, "magic3")),
        ("take 55 as magic3", TakeDie(0, 55, "magic3")),
        ("take #30 as 2 gems freeze", TakeDie(0, 30, "gem2", True)),
        ("take 40 as 1 cave-in", TakeDie(0, 40, "cavein1")),
        ("take 41 as 4 dragons", TakeDie(0, 41, "dragon4")),
        ("take 21 as tunnel 3", TakeDie(0, 21, "3")),
        ("take 21 as 3", TakeDie(0, 21, "3")),
        ("beer #12 to Brok", ShareBeer(0, 12, 1)),
        ("beer 12 to brok", ShareBeer(0, 12, 1)),
        ("beer 12 to Player 3", ShareBeer(0, 12, 2)),
        ("beer 12 to 2", ShareBeer(0, 12, 2)),
        ("spend #52 on #3 7", SpendMagic(0, (3, 7), die=52)),
        ("spend h0 on #3", SpendMagic(0, (3,), hero_face=0)),
        ("cache #3 4", CacheDice(0, (3, 4))),
    ],
)
def test_typed_commands_take_hash_ids_names_and_faces_in_words(typed, command):
    assert parse_command(typed, 0, NAMES) == command


def test_a_logged_command_text_still_reads_back_the_same():
    """The log's text forms (``take 55 as magic3``) are unchanged and still parse."""
    for command in (TakeDie(0, 55, "magic3", True), ShareBeer(0, 12, 1), CacheDice(0, (3,))):
        assert parse_command(command.text(), 0, NAMES) == command
        assert parse_command(command.text(), 0) == command


def test_a_seat_no_one_is_called_is_refused_naming_the_players():
    with pytest.raises(CommandSyntaxError, match="no player is called 'Zed'; name one of You"):
        parse_command("beer 12 to Zed", 0, NAMES)
    with pytest.raises(CommandSyntaxError, match=r"e\.g\. 'beer 12 to Brok'"):
        parse_command("beer 12 Brok", 0, NAMES)


# -- the session: what a typed line does ---------------------------------------------


def _taking(seed: int):
    from tests.support.tui import advance, session_for

    session = session_for(seed)
    assert advance(session, lambda s: s.chooser.mode() == "take")
    return session


def test_a_bare_number_that_is_both_an_id_and_a_face_on_the_mountain_is_refused():
    """Seed 51: die 1 (showing a 3) may be taken, and another die shows a 1. ``take 1`` took
    die 1 where the player meant the 1; now it asks which, and ``take #1`` takes die 1."""
    session = _taking(51)
    state = session.state
    legal = {c.die for c in session.legal() if isinstance(c, TakeDie)}
    assert 1 in legal and state.faces[1] == "3"
    ones = sorted(d for d in state.mountain if d is not None and state.faces[d] == "1")
    seq = session.game.seq
    session.run_line("take 1")
    assert session.game.seq == seq and session.status_kind == "error"
    assert session.status == (
        f"Which die? #1 shows a 3 and #{ones[0]} shows a 1: type #1 or #{ones[0]} (ids carry a #)."
    )
    session.run_line("take #1")
    assert session.game.seq > seq and session.state.troves[0] == (1,)


def test_a_bare_number_that_is_only_a_face_on_the_mountain_names_the_die_showing_it():
    session = _taking(51)
    state = session.state
    showing = {
        int(state.faces[d]): d
        for d in state.mountain
        if d is not None and state.faces[d] in "12345"
    }
    number, die = next((n, d) for n, d in sorted(showing.items()) if n not in state.mountain)
    session.run_line(f"take {number}")
    assert session.status == (
        f"{number} is the face of #{die} here, not a die's id: type #{die} "
        "(the #numbers under the dice are their ids)."
    )


def test_a_bare_id_no_face_can_be_confused_with_is_taken_as_before():
    session = _taking(51)
    die = next(c.die for c in session.legal() if isinstance(c, TakeDie) and c.die > 5)
    session.run_line(f"take {die}")
    assert session.state.troves[0] == (die,)


def test_the_command_line_offers_beers_by_name_and_takes_them_so():
    """``beer 12 to 2`` named a seat by its number; the completion names the player."""
    from frontends.cli.tui.commandline import candidates
    from tests.support.tui import find

    session = find(lambda s: s.chooser.can(ShareBeer))
    beers = [c for c in session.legal() if isinstance(c, ShareBeer)]
    texts = [text for text, _ in candidates(session)]
    for beer in beers:
        name = session.names[beer.to_seat]
        assert f"beer #{beer.die} to {name}" in texts
        assert name in ("Brok", "Cira")  # as the screen shows them, without "(random)"
    beer = beers[0]
    session.run_line(f"beer #{beer.die} to {session.names[beer.to_seat].lower()}")
    shared = [e for _, e in session.game.events() if type(e).__name__ == "BeerShared"]
    assert shared and shared[-1].to_seat == beer.to_seat


def test_solo_completions_say_a_wild_face_in_words_never_the_logs_names():
    """Tab offered "take 55 as magic3"; now "take #21 as 3", and every face in words."""
    import re

    from core.projections.state import SOLO
    from frontends.cli.tui.commandline import candidates
    from frontends.cli.tui.session import Session
    from frontends.cli.tui.table import Seat
    from tests.support.solo_lines import TO_THE_BEER, played

    session = Session(played(*TO_THE_BEER), (Seat("You"),))
    assert session.state.phase == SOLO
    offered = dict(candidates(session))
    assert offered["take #21 as 3"] == "take die 21 as 3, extending sequence 1 to 1-2-3"
    internal = re.compile(r"\b(gem|cavein|dragon|chest|magic)\d\b")
    assert not [text for text in offered if internal.search(text)]
    for text in offered:
        if text.startswith("take"):
            assert session.parse(text) in session.legal()
