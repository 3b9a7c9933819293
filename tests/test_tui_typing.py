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
