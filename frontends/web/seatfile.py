"""A live game's seats on disk (``web-<id>.seats.json`` next to its log), so it outlives the server.

The log records only what the game needs to replay (names, seed, moves); who
plays each seat and the secret token of each person's link are the server's
business, and logs are shared and replayed, so they stay out of it. They are
kept here instead: a small JSON file, readable by its owner only (mode 0600),
written once when the game starts and atomically (a temporary file in the same
folder, fsynced, renamed, the folder fsynced), before any link is handed out.
A crash leaves either the whole file or none.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from attrs import frozen

from core.bots import BOTS

#: The version of the seats file this server writes and reads.
SEATS_FORMAT = 1
#: The file a game's seats are kept in, next to its log ``web-<id>.dmlog``.
LOG_NAME = re.compile(r"^web-([0-9a-f]{12})\.dmlog$")
SEATS_SUFFIX = ".seats.json"
#: A seats file is a few hundred bytes; anything much larger is not one.
MAX_SEATS_BYTES = 64 * 1024
#: The shortest token a person's link may carry (``secrets.token_urlsafe(18)`` gives 24).
MIN_TOKEN = 16
_TOKEN = re.compile(r"^[A-Za-z0-9_-]+$")  # what secrets.token_urlsafe gives
_MODES = ("multi", "solo")


class SeatsFileError(ValueError):
    """A seats file that cannot be read back as one this server wrote."""


@frozen
class SeatInfo:
    """One seat: the name the log records, the bot kind playing it (None: a person), its token."""

    name: str
    bot: str | None
    token: str | None

    def public(self, seat: int) -> dict[str, Any]:
        """What anyone may know about the seat (never its token)."""
        return {"seat": seat, "name": self.name, "bot": self.bot}


@frozen
class Seats:
    """What a seats file holds: the game's id, mode, bot pace (None: the server's) and seats."""

    game_id: str
    mode: str
    pace: float | None
    seats: tuple[SeatInfo, ...]

    def to_json(self) -> dict[str, Any]:
        """The file's content."""
        return {
            "format": SEATS_FORMAT,
            "game": self.game_id,
            "mode": self.mode,
            "pace": self.pace,
            "seats": [{"name": s.name, "bot": s.bot, "token": s.token} for s in self.seats],
        }


def log_path(data_dir: Path, game_id: str) -> Path:
    """The log of game ``game_id`` in the data folder."""
    return data_dir / f"web-{game_id}.dmlog"


def seats_path(log: Path) -> Path:
    """The seats file of the game logged in ``log``."""
    return log.with_name(log.name.removesuffix(".dmlog") + SEATS_SUFFIX)


def write_seats(path: Path, seats: Seats) -> None:
    """Write ``seats`` to ``path`` atomically and durably, readable by the owner only.

    The temporary file is created with mode 0600 (and set so whatever the
    umask), so the tokens are never readable by others, not even for a moment.
    """
    data = json.dumps(seats.to_json(), indent=1).encode("ascii") + b"\n"
    temp = path.with_name(f".{path.name}.new")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(temp, flags, 0o600)
    try:
        try:
            os.fchmod(fd, 0o600)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.rename(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def read_seats(path: Path, game_id: str) -> Seats:
    """The seats kept in ``path`` for game ``game_id``; SeatsFileError saying what is wrong.

    OSError (a missing or unreadable file) passes through for the caller to name.
    """
    with open(path, "rb") as file:
        data = file.read(MAX_SEATS_BYTES + 1)
    if len(data) > MAX_SEATS_BYTES:
        raise SeatsFileError(f"it is larger than {MAX_SEATS_BYTES} bytes")
    try:
        body = json.loads(data)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise SeatsFileError(f"it is not valid JSON ({exc})") from None
    if not isinstance(body, dict):
        raise SeatsFileError("it is not a JSON object")
    if body.get("format") != SEATS_FORMAT:
        raise SeatsFileError(f"its format is {body.get('format')!r}, not {SEATS_FORMAT}")
    if body.get("game") != game_id:
        raise SeatsFileError(f"it is for game {body.get('game')!r}, not {game_id!r}")
    mode, pace = body.get("mode"), body.get("pace")
    if mode not in _MODES:
        raise SeatsFileError(f"its mode is {mode!r}, not one of {', '.join(_MODES)}")
    if pace is not None and (
        not isinstance(pace, int | float) or isinstance(pace, bool) or not 0 <= pace <= 10
    ):
        raise SeatsFileError(f"its pace is {pace!r}, not a number of seconds from 0 to 10")
    entries = body.get("seats")
    if not isinstance(entries, list) or not 1 <= len(entries) <= 4:
        raise SeatsFileError("its seats are not a list of 1 to 4 seats")
    seats = tuple(_seat(n, entry) for n, entry in enumerate(entries))
    return Seats(game_id, mode, None if pace is None else float(pace), seats)


def _seat(n: int, entry: object) -> SeatInfo:
    if not isinstance(entry, dict):
        raise SeatsFileError(f"seat {n} is not an object")
    name, bot, token = entry.get("name"), entry.get("bot"), entry.get("token")
    if not isinstance(name, str) or not name:
        raise SeatsFileError(f"seat {n} has no name")
    if bot is not None and (not isinstance(bot, str) or bot not in BOTS):
        raise SeatsFileError(f"seat {n}'s bot {bot!r} is not a bot this server knows")
    if bot is None and (
        not isinstance(token, str) or len(token) < MIN_TOKEN or not _TOKEN.match(token)
    ):
        raise SeatsFileError(f"seat {n} is a person's but has no valid token")
    if bot is not None and token is not None:
        raise SeatsFileError(f"seat {n} is a bot's but has a token")
    return SeatInfo(name, bot, token)


def check_against(seats: Seats, mode: str, names: Sequence[str]) -> None:
    """SeatsFileError unless the seats are those of the logged game (its mode and players)."""
    if seats.mode != mode:
        raise SeatsFileError(f"its mode is {seats.mode!r} but the log's game is {mode!r}")
    kept = [s.name for s in seats.seats]
    if kept != list(names):
        raise SeatsFileError(f"its seats {kept!r} are not the log's players {list(names)!r}")


__all__ = [
    "LOG_NAME",
    "SEATS_FORMAT",
    "SEATS_SUFFIX",
    "SeatInfo",
    "Seats",
    "SeatsFileError",
    "check_against",
    "log_path",
    "read_seats",
    "seats_path",
    "write_seats",
]
