"""Who sits at a table: each seat's name as logged, the bot playing it (None: a person),
and for a person the hash of the secret token that lets them move.

The log records only the players' names, so a bot's seat is named after its
kind, ``"Brok (greedy)"``: a game taken up from its log alone (the terminal's
``--resume``) knows which seats were bots. Tokens are made here, handed out
once, and kept only as their SHA-256 (``core.store.token_hash``).
"""

from __future__ import annotations

import hmac
import re
import secrets
from collections.abc import Collection, Mapping, Sequence

from core.errors import SetupError
from core.store import Seating, SeatRecord, token_hash

#: Longest player name accepted.
MAX_NAME = 24
#: Names given to bots left unnamed, by seat.
DWARVES = ("Ada", "Brok", "Cira", "Dain")
#: Names given to the terminal's bots, in seat order after the people.
BOT_NAMES = ("Brok", "Cira", "Dain", "Edda", "Frar", "Gunna", "Hild")

#: Any printable text (pages escape it): no control character, no line or paragraph break.
_PRINTABLE = re.compile(r"^[^\x00-\x1f\x7f-\x9f\u2028\u2029]+$")
_BOT_NAME = re.compile(r"^(?P<name>.+) \((?P<kind>[a-z][a-z0-9_-]*)\)$")


def new_token() -> str:
    """A fresh secret token for a person's seat (144 random bits, URL-safe)."""
    return secrets.token_urlsafe(18)


def bot_name(name: str, kind: str) -> str:
    """A bot's name as logged: ``"Brok (greedy)"``, so a resumed game knows it is a bot."""
    return name if name.endswith(f"({kind})") else f"{name} ({kind})"


def is_name(name: object) -> bool:
    """Printable text of 1 to ``MAX_NAME`` characters that UTF-8 can hold (no lone surrogate)."""
    if not isinstance(name, str) or not _PRINTABLE.match(name) or not name.strip():
        return False
    if len(name.strip()) > MAX_NAME:
        return False
    try:
        name.encode()
    except UnicodeEncodeError:  # "\ud800" from JSON: the log could not record it
        return False
    return True


def parse_seats(players: object, bots: Mapping[str, str]) -> list[tuple[str, str | None]]:
    """``[{"name", "bot"}]`` as a client asks for them: ``(name, bot kind or None)`` per seat.

    ``bots`` maps each name a client may give a bot (a kind, or a level such as
    ``"medium"``, as the web form and the terminal name them) to its kind.

    A bot left unnamed gets a dwarf's name no other seat is called, a person "Player N";
    every bot's name carries its kind. SetupError says what is wrong, with a code: a
    name with a line break or a control character (``bad_name``), a person's that would
    pass for a bot's (``name_like_bot``), two seats called alike (``name_taken``).
    """
    if not isinstance(players, list) or not 1 <= len(players) <= 4:
        raise SetupError("players must be a list of 1 to 4 seats")
    given = {
        called(entry["name"])
        for entry in players
        if isinstance(entry, dict) and isinstance(entry.get("name"), str)
    }
    free = [d for d in DWARVES if d.casefold() not in given]  # an unnamed bot's, by seat
    seats = []
    for n, entry in enumerate(players, start=1):
        if not isinstance(entry, dict):
            raise SetupError(f"seat {n} must be an object with a name and a bot (or null)")
        name, bot = entry.get("name"), entry.get("bot")
        if bot is not None and (not isinstance(bot, str) or bot not in bots):  # [] is unhashable
            kinds = ", ".join(sorted(bots))
            raise SetupError(f"seat {n}: unknown bot {bot!r}; choose from {kinds}")
        bot = bots[bot] if bot is not None else None
        if name is None or (isinstance(name, str) and not name.strip()):
            name = (DWARVES[n - 1] if DWARVES[n - 1] in free else free[0]) if bot else f"Player {n}"
            if bot:
                free.remove(name)
        if isinstance(name, str) and name.strip() and not _PRINTABLE.match(name):
            _bad_name(n)
        if not is_name(name):
            raise SetupError(f"seat {n}: a name is 1 to {MAX_NAME} printable characters")
        name = name.strip()
        seats.append((name if bot is None else bot_name(name, bot), bot))
    check_seats(seats)
    return seats


def check_seats(seats: Sequence[tuple[str, str | None]]) -> None:
    """SetupError unless every seat's name (``(name as logged, bot kind or None)``) can be
    told apart at a table: one line of printable text (``bad_name``: a line break breaks
    the boards), a person's never passing for a bot (``name_like_bot``: a log's reader
    takes "Zed (greedy)" for one), no two seats called alike (``name_taken``)."""
    for n, (name, bot) in enumerate(seats, start=1):
        if not _PRINTABLE.match(name):
            _bad_name(n)
        if bot is None and _BOT_NAME.match(name.strip()):
            raise SetupError(
                f"seat {n}: {name!r} would pass for a bot (a bot's name ends with its kind in "
                "brackets): choose a name without one",
                "name_like_bot",
            )
    check_names([name for name, _ in seats])


def _bad_name(n: int) -> None:
    raise SetupError(
        f"seat {n}: a name is one line of printable text, with no line break or other "
        "control character",
        "bad_name",
    )


def called(name: str) -> str:
    """What a seat is called at the table: its name without a bot's kind, in any case."""
    match = _BOT_NAME.match(name.strip())
    return (match["name"] if match else name.strip()).casefold()


def check_names(names: Sequence[str]) -> None:
    """SetupError (``name_taken``) if two seats would be called alike: "Brok" beside the
    bot "Brok (greedy)", or "ann" beside "Ann"."""
    seen: dict[str, int] = {}
    for n, name in enumerate(names, start=1):
        first = seen.setdefault(called(name), n)
        if first != n:
            raise SetupError(
                f"seat {n}: {name!r} would be taken for seat {first} ({names[first - 1]!r}): "
                "each seat needs a name of its own",
                "name_taken",
            )


def seating_for(seats: Sequence[tuple[str, str | None]], pace: float | None = None):
    """A new table's seating and each person's token (by seat), made once, here."""
    tokens: dict[int, str] = {}
    records = []
    for seat, (name, bot) in enumerate(seats):
        if bot is None:
            tokens[seat] = new_token()
            records.append(SeatRecord(name, None, token_hash(tokens[seat])))
        else:
            records.append(SeatRecord(name, bot, None))
    return Seating(tuple(records), pace), tokens


def seat_for_token(seating: Seating, token: str | None) -> int | None:
    """The person's seat whose token this is, or None (every seat compared, in constant time)."""
    if not token:
        return None
    given = token_hash(token).encode()
    found = None
    for seat, record in enumerate(seating.seats):
        if record.token_hash is not None and hmac.compare_digest(given, record.token_hash.encode()):
            found = seat
    return found


def seating_from_names(
    names: Sequence[str], bots: Collection[str], default: str
) -> tuple[Seating, list[str]]:
    """The seats of a game known only by its log's names, and notes on bot kinds replaced.

    A name ``"X (kind)"`` is a bot of that kind (``default`` if this build has no
    such kind); any other name is a person. With nobody else at the table, the
    first seat is a person's.
    """
    records, notes = [], []
    for name in names:
        match = _BOT_NAME.match(name)
        if match is None:
            records.append(SeatRecord(name))
            continue
        kind = match["kind"]
        if kind not in bots:
            notes.append(f"{name} plays as a {default} bot ({kind!r} is not available)")
            kind = default
        records.append(SeatRecord(name, kind))
    if records and all(r.bot is not None for r in records):
        records[0] = SeatRecord(records[0].name)
    return Seating(tuple(records)), notes


def short_name(record: SeatRecord) -> str:
    """The name without the bot's kind, for tight columns."""
    match = _BOT_NAME.match(record.name)
    return match["name"] if match and record.bot else record.name


__all__ = [
    "BOT_NAMES",
    "DWARVES",
    "MAX_NAME",
    "bot_name",
    "called",
    "check_names",
    "check_seats",
    "is_name",
    "new_token",
    "parse_seats",
    "seat_for_token",
    "seating_for",
    "seating_from_names",
    "short_name",
]
