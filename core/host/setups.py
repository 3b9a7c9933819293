"""What a client asks a new table to be, checked: its seats, mode, dice and bot pace.

A web request or a command line hands the lobby loose values (JSON, arguments);
these functions turn them into the few a table is made from, or raise
``SetupError`` with a sentence saying what is wrong, before anything is stored.
A new game's seats are named and given bots here (``core.host.seats``); a what-if
branch keeps the names its game logged and says only who plays each seat, and
which luck it is played with (``core.branch``).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from attrs import frozen

from core.bots import BOTS
from core.bots.registry import BY_NAME
from core.commands import GAME_MODES
from core.errors import SetupError
from core.host.seats import MAX_NAME, is_name, parse_seats

#: The seeds a player may choose: what the log's header and the generator take.
MAX_SEED = 1 << 64
#: Longest a pace may be, in seconds between two bot moves.
MAX_PACE = 10.0
#: The luck a what-if branch is played with (``core.branch``).
LUCKS = ("same", "fresh")


@frozen
class GameSetup:
    """A new game as asked: its seats, mode, dice and pace, every one checked."""

    seats: list[tuple[str, str | None]]  # (name, bot kind or None for a person), in order
    mode: str
    seed: int | None  # None: the dice come from a fresh secret the log commits to
    chosen_by: str  # who chose the seed, as the log names them ("" with no seed)
    pace: float | None  # seconds between bot moves; None: the server's pace


def parse_game_setup(
    players: object, *, seed: object, mode: object, pace: object, chosen_by: object
) -> GameSetup:
    """A new game's setup from a client's values, or SetupError saying what is wrong."""
    seats = parse_seats(players, BY_NAME)  # a level, as the form names it, or a kind
    if mode not in GAME_MODES:
        raise SetupError(f"mode must be one of {', '.join(GAME_MODES)}, not {mode!r}")
    if mode == "solo" and (len(seats) != 1 or seats[0][1] is not None):
        raise SetupError("the solo game has exactly one seat, played by a person")
    if mode == "multi" and not 2 <= len(seats) <= 4:
        raise SetupError("a game has 2 to 4 players")
    kept_seed = parse_seed(seed)
    if chosen_by is None:
        chosen_by = "the game's creator"
    if not is_name(chosen_by):
        raise SetupError(f"who chose the seed is 1 to {MAX_NAME} printable characters")
    return GameSetup(
        seats,
        str(mode),
        kept_seed,
        "" if kept_seed is None else str(chosen_by).strip(),
        parse_pace(pace),
    )


def parse_seed(seed: object) -> int | None:
    """A seed a player chose (None: the dice come from a fresh secret), or SetupError."""
    if seed is None:
        return None
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < MAX_SEED:
        raise SetupError("seed must be a whole number from 0 to 2**64 - 1")
    return seed


def practice_person(seats: list[tuple[str, str | None]], practice: object) -> str | None:
    """The one person a practice game is for (None: not practice), or SetupError: only a
    person alone against bots, or in the solo game, may undo what the dice have shown."""
    if practice is False or practice is None:
        return None
    if practice is not True:
        raise SetupError("practice is true or false")
    persons = [name for name, bot in seats if bot is None]
    if len(persons) != 1:
        raise SetupError(
            "a practice game is for one person against bots, or the solo game: between "
            "people, what the dice have shown is never taken back"
        )
    return persons[0]


def parse_pace(pace: object) -> float | None:
    """A table's bot pace as asked (None: the server's), or SetupError."""
    if pace is None:
        return None
    if not isinstance(pace, int | float) or isinstance(pace, bool) or not 0 <= pace <= MAX_PACE:
        raise SetupError(f"pace must be 0 to {MAX_PACE:g} seconds between bot moves")
    return float(pace)


def branch_seed(luck: object, seed: int | None) -> int | None:
    """The seed a branch's ``"fresh"`` luck rolls from (the one chosen, else a random one,
    recorded in its log and no secret); None for the ``"same"`` luck, which rolls the
    game's own dice. SetupError if the luck is neither or a seed comes with the same luck."""
    if luck not in LUCKS:
        raise SetupError(f"luck is {' or '.join(map(repr, LUCKS))}, not {luck!r}")
    if luck == "same" and seed is not None:
        raise SetupError("a seed goes with fresh luck: the same luck rolls the game's dice")
    if luck == "fresh" and seed is None:
        seed = secrets.randbits(64)
    return seed


def parse_branch_seats(
    players: object, names: Sequence[str], mode: str
) -> list[tuple[str, str | None]]:
    """Who plays each seat of a branch: ``(the logged name, bot kind or None)``; SetupError
    saying what is wrong."""
    if not isinstance(players, list) or len(players) != len(names):
        raise SetupError(
            f"players must be a list of {len(names)} seats, one for each of the game's "
            f"players ({', '.join(names)})"
        )
    seats: list[tuple[str, str | None]] = []
    for n, (entry, logged) in enumerate(zip(players, names, strict=True), start=1):
        if not isinstance(entry, dict):
            raise SetupError(f"seat {n} must be an object with a bot (or null for a person)")
        bot, given = entry.get("bot"), entry.get("name")
        if bot is not None and (not isinstance(bot, str) or bot not in BOTS):
            kinds = ", ".join(sorted(BOTS))
            raise SetupError(f"seat {n}: unknown bot {bot!r}; choose from {kinds}")
        if given not in (None, "", logged):
            raise SetupError(
                f"seat {n} is {logged!r} in this game: a branch keeps its players' names "
                "(its first events are the game's own)"
            )
        seats.append((logged, bot))
    if mode == "solo" and seats[0][1] is not None:
        raise SetupError("the solo game has exactly one seat, played by a person")
    return seats


__all__ = [
    "LUCKS",
    "MAX_PACE",
    "MAX_SEED",
    "GameSetup",
    "branch_seed",
    "parse_branch_seats",
    "parse_game_setup",
    "parse_pace",
    "parse_seed",
    "practice_person",
]
