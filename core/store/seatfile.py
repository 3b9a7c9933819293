"""A game's seating in the file store: ``<prefix><id>.seats.json`` beside its log.

The log records only what the game needs to replay (names, seed, moves); who
plays each seat and the hash of each person's token are the table's business,
and logs are shared and replayed, so they stay out of it. The file is small
JSON, readable by its owner only (mode 0600), written atomically (a temporary
file in the same folder, fsynced, renamed, the folder fsynced): a crash leaves
the old file or the new one, never half of one.

Format 2 keeps each person's token as its SHA-256 (``token_hash``) and the
secret seed a live game's dice come from (``secret``, hex), which its log only
commits to until the game ends; format 1, written by earlier servers, kept the
token itself, and is read by hashing it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

from core.store.base import Seating, SeatRecord

#: The version of the seats file written (1 is still read).
SEATS_FORMAT = 2
#: A seats file is a few hundred bytes; anything much larger is not one.
MAX_SEATS_BYTES = 64 * 1024
#: The shortest token a format 1 file may carry (``secrets.token_urlsafe(18)`` gives 24).
MIN_TOKEN = 16
_TOKEN = re.compile(r"^[A-Za-z0-9_-]+$")
_HASH = re.compile(r"^[0-9a-f]{64}$")
_BOT = re.compile(r"^[a-z][a-z0-9_]{0,31}$")


class SeatsFileError(ValueError):
    """A seats file that cannot be read back as one this program wrote."""


def token_hash(token: str) -> str:
    """The SHA-256 of a seat's secret token, as stores keep it (hex)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def seating_json(game_id: str, seating: Seating) -> dict[str, Any]:
    """The file's content."""
    return {
        "format": SEATS_FORMAT,
        "game": game_id,
        "pace": seating.pace,
        "secret": seating.secret,
        "seats": [
            {"name": s.name, "bot": s.bot, "token_hash": s.token_hash} for s in seating.seats
        ],
    }


def write_seating(path: Path, game_id: str, seating: Seating, *, new: bool = False) -> None:
    """Write ``seating`` to ``path`` atomically and durably, readable by the owner only;
    with ``new``, FileExistsError if a file is there (a new game's seats never replace any)."""
    data = json.dumps(seating_json(game_id, seating), indent=1).encode("ascii") + b"\n"
    temp = path.with_name(f".{path.name}.new")
    with contextlib.suppress(FileNotFoundError):
        os.unlink(temp)  # a crash's leftover: never followed, never reused
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
        if new:
            os.link(temp, path)  # fails if the name is taken, unlike rename
            os.unlink(temp)
        else:
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


def read_seating(path: Path, game_id: str) -> Seating:
    """The seating kept in ``path`` for game ``game_id``; SeatsFileError saying what is wrong.

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
    version = body.get("format")
    if version not in (1, SEATS_FORMAT):
        raise SeatsFileError(f"its format is {version!r}, not 1 or {SEATS_FORMAT}")
    if body.get("game") != game_id:
        raise SeatsFileError(f"it is for game {body.get('game')!r}, not {game_id!r}")
    pace = body.get("pace")
    if pace is not None and (
        not isinstance(pace, int | float) or isinstance(pace, bool) or not 0 <= pace <= 10
    ):
        raise SeatsFileError(f"its pace is {pace!r}, not a number of seconds from 0 to 10")
    entries = body.get("seats")
    if not isinstance(entries, list) or not 1 <= len(entries) <= 4:
        raise SeatsFileError("its seats are not a list of 1 to 4 seats")
    seats = tuple(_seat(n, entry, version) for n, entry in enumerate(entries))
    secret = body.get("secret")
    if secret is not None and (not isinstance(secret, str) or not _HASH.match(secret)):
        raise SeatsFileError("its secret seed is not 64 hex digits")
    return Seating(seats, None if pace is None else float(pace), secret)


def _seat(n: int, entry: object, version: int) -> SeatRecord:
    if not isinstance(entry, dict):
        raise SeatsFileError(f"seat {n} is not an object")
    name, bot = entry.get("name"), entry.get("bot")
    if not isinstance(name, str) or not name:
        raise SeatsFileError(f"seat {n} has no name")
    if bot is not None and (not isinstance(bot, str) or not _BOT.match(bot)):
        raise SeatsFileError(f"seat {n}'s bot {bot!r} is not a bot's name")
    if version == 1:  # the token itself: keep only its hash from now on
        token = entry.get("token")
        if bot is None and (
            not isinstance(token, str) or len(token) < MIN_TOKEN or not _TOKEN.match(token)
        ):
            raise SeatsFileError(f"seat {n} is a person's but has no valid token")
        digest = None if token is None else token_hash(token)
    else:
        digest = entry.get("token_hash")
        if bot is None and (not isinstance(digest, str) or not _HASH.match(digest)):
            raise SeatsFileError(f"seat {n} is a person's but has no valid token hash")
    if bot is not None and digest is not None:
        raise SeatsFileError(f"seat {n} is a bot's but has a token")
    return SeatRecord(name, bot, digest)


__all__ = [
    "SEATS_FORMAT",
    "SeatsFileError",
    "read_seating",
    "seating_json",
    "token_hash",
    "write_seating",
]
