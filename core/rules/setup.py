"""Setting up a game: the NewGame command's options checked, in every mode, and the rules'
version it is played under. Each mode's first events are its own (``start_multiplayer``
in ``core.modes.multiplayer.setup``, ``start_solo`` in ``core.modes.solo.rules``), and so
are the options only a mode reads: the table's are checked by the check it hands
``OPTION_CHECKS`` when the modes are installed (``core.modes.install``)."""

from __future__ import annotations

from collections.abc import Callable

from core.commands import GAME_MODES, NewGame
from core.errors import RuleError

RULES_VERSION = "2026.11"
MAX_NAME = 40

#: The modes' own checks of a NewGame's options, run after the common ones.
OPTION_CHECKS: list[Callable[[NewGame], None]] = []


def check_new_game(cmd: NewGame) -> None:
    """Refuse options that cannot make a game."""
    if cmd.mode not in GAME_MODES:
        raise RuleError("bad_option", f"mode must be 'multi' or 'solo', not {cmd.mode!r}")
    low, high = (2, 4) if cmd.mode == "multi" else (1, 1)
    if not low <= len(cmd.players) <= high:
        want = "2 to 4 players" if cmd.mode == "multi" else "exactly 1 player"
        raise RuleError("bad_option", f"a {cmd.mode} game needs {want}, not {len(cmd.players)}")
    for name in cmd.players:
        if not _is_text(name) or not name.strip() or len(name) > MAX_NAME:
            raise RuleError("bad_option", f"player names are 1 to {MAX_NAME} characters")
    if len(set(cmd.players)) != len(cmd.players):
        raise RuleError("bad_option", "each player needs a different name")
    if type(cmd.seed) is not int or not 0 <= cmd.seed < 1 << 64:
        raise RuleError("bad_option", "the seed is a whole number from 0 to 2**64 - 1")
    if cmd.hero_deal not in ("choose", "random"):
        raise RuleError("bad_option", "heroes are either 'choose' or 'random'")
    # The command is logged as given, so only values the log can hold and read back:
    if not _is_text(cmd.game_id):
        raise RuleError("bad_option", f"the game id is text, not {cmd.game_id!r}")
    if type(cmd.starting_magic) is not int or not 0 <= cmd.starting_magic <= 3:
        raise RuleError("bad_option", f"starting magic is 0 to 3, not {cmd.starting_magic!r}")
    for check in OPTION_CHECKS:
        check(cmd)


def _is_text(value: object) -> bool:
    """A string that can be written as UTF-8 (JSON may carry lone surrogates, which cannot)."""
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
