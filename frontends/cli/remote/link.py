"""What a seat's secret link or a game's address names: the server, the game, the seat.

The web gives each person's seat a link ``/games/ID#seat=N&token=SECRET`` (the
token only in the fragment, which a browser never sends to the server) and the
game's watch address ``/games/ID``; the terminal takes either, whole.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

from attrs import frozen

from core import DiceMinerError

#: A game id as the server makes them (and as a path segment may carry it).
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


class BadLink(DiceMinerError, ValueError):
    """A link or address that names no game of a server."""


@frozen
class Link:
    """A game on a server, and the seat the link is for (None: to watch)."""

    server: str  # scheme://host[:port][/prefix], no trailing slash
    game_id: str
    seat: int | None = None
    token: str | None = None

    @property
    def api(self) -> str:
        """The game's address in the JSON API."""
        return f"{self.server}/api/games/{self.game_id}"

    @property
    def page(self) -> str:
        """The game's page in a browser (without the secret)."""
        return f"{self.server}/games/{self.game_id}"


def parse_link(text: str, *, need_seat: bool) -> Link:
    """The game (and seat) a link names; ``BadLink`` saying what is wrong otherwise."""
    text = text.strip()
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise BadLink(f"{text!r} is not a game's web address (http://HOST/games/ID...)")
    path = parts.path.rstrip("/")
    prefix, found, game_id = path.rpartition("/games/")
    if not found or not _GAME_ID.fullmatch(game_id):
        raise BadLink(f"{text!r} names no game: its path should end in /games/ID")
    server = f"{parts.scheme}://{parts.netloc}{prefix}"
    fragment = parse_qs(parts.fragment)
    seat_text, token = fragment.get("seat", [None])[0], fragment.get("token", [None])[0]
    if not need_seat:
        return Link(server, game_id)
    if token is None or seat_text is None or not seat_text.isdigit():
        raise BadLink(
            "that link holds no seat: a seat's secret link ends in #seat=N&token=..., "
            "as the web gives it when the game is made (to follow a game, use watch)"
        )
    return Link(server, game_id, int(seat_text), token)


__all__ = ["BadLink", "Link", "parse_link"]
