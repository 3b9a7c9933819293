"""Setting up a game: the NewGame command's events.

Multiplayer: each player rolls a tunnel die, highest starts (beer beats 5), and
only the players tied for highest roll again (rule D4). Heroes are then chosen
from the first player's right going counter-clockwise, so the first player
chooses last; or dealt at random. The mountain is filled once every hero is set.
"""

from __future__ import annotations

from core.commands import GAME_MODES, NewGame
from core.dice import DICE_SET, FACES, HERO_NAMES, HEROES
from core.errors import RuleError
from core.events import game as ev
from core.modes.multiplayer.flow import advance
from core.modes.table.rules import check_table_options, emit_table_facts
from core.rules.emitter import Emitter

RULES_VERSION = "2026.11"
MAX_NAME = 40

#: The order of tunnel faces in the first-player roll: beer beats 5.
_ROLL_RANK = {face: rank for rank, face in enumerate(FACES["tunnel"])}


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
    check_table_options(cmd)


def _is_text(value: object) -> bool:
    """A string that can be written as UTF-8 (JSON may carry lone surrogates, which cannot)."""
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def start_multiplayer(out: Emitter, cmd: NewGame) -> None:
    """The roll-off for first player, the hero deal or choice, and the first filling."""
    out.emit(
        ev.GameStarted(
            cmd.game_id, cmd.seed, cmd.mode, cmd.players, DICE_SET, RULES_VERSION, cmd.hero_deal
        )
    )
    emit_table_facts(out, cmd)
    n = len(cmd.players)
    rolling = tuple(range(n))
    while True:  # rule D4: only the players tied for highest roll again
        rolls = tuple((seat, out.rng.roll(FACES["tunnel"])) for seat in rolling)
        out.emit(ev.FirstPlayerRolled(rolls))
        best = max(_ROLL_RANK[f] for _, f in rolls)
        rolling = tuple(seat for seat, f in rolls if _ROLL_RANK[f] == best)
        if len(rolling) == 1:
            break
    first = rolling[0]
    order = tuple((first - 1 - k) % n for k in range(n))  # counter-clockwise, first chooses last
    out.emit(ev.FirstPlayerChosen(first, order))
    if cmd.hero_deal == "random":
        pool = list(HERO_NAMES)
        dealt = tuple(pool.pop(out.rng.below(len(pool))) for _ in range(n))
        out.emit(ev.HeroesDealt(dealt, tuple(HEROES[hero] for hero in dealt)))
    advance(out)
