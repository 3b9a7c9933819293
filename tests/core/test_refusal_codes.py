"""Every refusal code the rules can raise is exercised by a test that names it."""

import re
from pathlib import Path

import pytest

from core.commands import EndMagicTurn, TakeDie, Undo
from core.errors import RuleError
from core.game import Game
from tests.support.games import play

ROOT = Path(__file__).resolve().parents[2]


def codes_raised() -> set[str]:
    text = "\n".join(p.read_text() for p in (ROOT / "core").rglob("*.py"))
    return set(re.findall(r'RuleError\(\s*"([a-z_]+)"', text))


def codes_tested() -> set[str]:
    text = "\n".join(p.read_text() for p in (ROOT / "tests").rglob("test_*.py"))
    return set(re.findall(r'"([a-z_]+)"', text))


def test_every_rule_error_code_is_tested():
    missing = codes_raised() - codes_tested()
    assert not missing, f"refusal codes without a test: {sorted(missing)}"


def test_codes_are_stable_identifiers():
    assert all(re.fullmatch(r"[a-z]+(_[a-z]+)*", code) for code in codes_raised())


def test_any_command_after_the_end_is_refused():
    game = play(Game.new(["Ada", "Brok"], seed=12))
    with pytest.raises(RuleError) as refused:
        game.issue(TakeDie(0, 0))
    assert refused.value.code == "game_over"
    for text in ("take 3", "end"):  # typed: no one is to act, so the command names no seat
        with pytest.raises(RuleError) as refused:
            game.issue_text(text)
        assert refused.value.code == "game_over", text  # not "there is no player None"


def test_a_command_of_the_other_mode_is_refused():
    game = Game.new(["Solo"], seed=1, mode="solo")
    with pytest.raises(RuleError) as refused:
        game.issue(EndMagicTurn(0))
    assert refused.value.code == "unknown_command"


def test_undo_at_the_start_is_refused():
    game = Game.new(["Ada", "Brok"], seed=12)
    with pytest.raises(RuleError) as refused:
        game.issue(Undo(0))
    assert refused.value.code == "nothing_to_undo"


@pytest.mark.parametrize(
    ("mode", "command", "words"),
    [
        ("multi", "stop", "'stop' is only for the solo game"),
        ("multi", "refill", "'refill' is only for the solo game"),
        ("solo", "end", "'end' is only for a game of 2 to 4 players"),
        ("solo", "hero Engineer", "'hero' is only for a game of 2 to 4 players"),
    ],
)
def test_a_command_of_the_other_game_is_refused_in_the_words_it_was_typed(mode, command, words):
    """Never a class name ("EndSolo is not a command of a multi game")."""
    from core.commands import parse_command

    game = Game.new(["Ada", "Brok"] if mode == "multi" else ["Ada"], seed=1, mode=mode)
    with pytest.raises(RuleError) as refused:
        game.issue(parse_command(command, game.to_act()))
    assert refused.value.code == "unknown_command"
    assert refused.value.message == words


@pytest.mark.parametrize(
    ("mode", "verbs"),
    [
        ("multi", ("beer", "cache", "end", "hero", "spend", "take", "undo")),
        ("solo", ("refill", "spend", "stop", "take", "undo")),
    ],
)
def test_a_word_that_is_no_command_is_answered_with_this_games_verbs_alone(mode, verbs):
    from core.commands import parse_command
    from core.errors import CommandSyntaxError

    game = Game.new(["Ada", "Brok"] if mode == "multi" else ["Ada"], seed=1, mode=mode)
    assert game.verbs == verbs
    with pytest.raises(CommandSyntaxError) as refused:
        parse_command("dig 3", game.to_act(), verbs=game.verbs)
    assert str(refused.value) == f"unknown command 'dig'; try one of: {', '.join(verbs)}"
    other = "stop" if mode == "multi" else "end"  # the other game's verb still parses,
    parse_command(other, game.to_act(), verbs=game.verbs)  # for the rules to say where
