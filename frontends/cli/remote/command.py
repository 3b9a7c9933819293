"""``dice-miner join LINK`` and ``dice-miner watch URL``: a web table in the terminal.

``join`` takes the secret link of a person's seat (as the web gives it when the
game is made, ``http://HOST/games/ID#seat=N&token=...``) and plays that seat in
the full-screen game; ``watch`` follows a live game (``http://HOST/games/ID``)
read-only in the same view. The game stays the server's: leaving the screen
leaves the game going on, and the link brings the seat back.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from core import DiceMinerError, SeatRecord
from frontends.cli.remote.client import Client, ServerError
from frontends.cli.remote.link import Link, parse_link
from frontends.cli.remote.table import RemoteTable, Snapshot, open_game

if TYPE_CHECKING:  # imported when the screen opens, not at start-up
    from frontends.cli.remote.session import RemoteSession


class RemoteError(DiceMinerError):
    """A link, a server or a terminal that cannot make the game (one line, exit 2)."""


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``join`` and ``watch`` subcommands."""
    join = sub.add_parser(
        "join",
        help="play your seat of a web game in the terminal, from its secret link",
        description="Play a seat of a game served by 'dice-miner serve', in the terminal. "
        "LINK is the seat's secret link, as the web page gives it "
        "(http://HOST/games/ID#seat=N&token=...). Quitting leaves the game going on; "
        "the same link brings you back. L in the game leaves it for good (after a "
        "yes): a bot plays your seat on, and you watch.",
    )
    join.add_argument("link", metavar="LINK", help="the seat's secret link (quote it)")
    join.add_argument("--ascii", action="store_true", help="plain ASCII glyphs for the dice")
    join.set_defaults(run=run_join)
    watch = sub.add_parser(
        "watch",
        help="follow a live web game in the terminal, read-only",
        description="Follow a game served by 'dice-miner serve' as it is played, in the "
        "terminal. URL is the game's address (http://HOST/games/ID).",
    )
    watch.add_argument("url", metavar="URL", help="the game's address")
    watch.add_argument("--ascii", action="store_true", help="plain ASCII glyphs for the dice")
    watch.set_defaults(run=run_watch)


def run_join(args: argparse.Namespace) -> int:
    """Play the link's seat until the player quits."""
    return _run(parse_link(args.link, need_seat=True), args.ascii)


def run_watch(args: argparse.Namespace) -> int:
    """Follow the game until the watcher quits."""
    return _run(parse_link(args.url, need_seat=False), args.ascii)


def connect(link: Link) -> tuple[RemoteTable, Snapshot]:
    """The server's game folded here, with its seats; ``RemoteError`` saying why not."""
    client = Client(link)
    try:
        summary = client.summary()
        seats = tuple(
            SeatRecord(str(seat["name"]), seat.get("bot")) for seat in summary.get("seats", ())
        )
        if link.seat is not None and not (0 <= link.seat < len(seats)):
            raise RemoteError(f"the game {link.game_id} has no seat {link.seat}")
        if link.seat is not None and seats[link.seat].bot is not None:
            raise RemoteError(f"seat {link.seat} of the game {link.game_id} is a bot's")
        game, snapshot = open_game(client)
    except ServerError as failed:
        raise RemoteError(failed.sentence) from None
    return RemoteTable(client, game, seats, link.seat), snapshot


def _run(link: Link, ascii_flag: bool) -> int:
    from frontends.cli.remote.session import RemoteSession
    from frontends.cli.tui.app import PlayApp

    remote = connect(link)  # a link or a server that fails is said first, terminal or not
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise RemoteError("join and watch need a terminal")
    session = RemoteSession(*remote)
    who = "watching" if link.seat is None else f"playing seat {link.seat}"
    session.note(f"Connected to {link.server}: game {link.game_id}, {who}.")
    ascii_only = ascii_flag or "utf" not in (sys.stdout.encoding or "").lower()
    PlayApp(session, ascii_only=ascii_only).run()
    print(farewell(session, link))
    return 0


def farewell(session: RemoteSession, link: Link) -> str:
    """What is printed once the screen closes: the result, or that the game goes on."""
    state = session.game.state
    if state.is_over and state.winners:
        names = " and ".join(state.names[s] for s in state.winners)
        totals = ", ".join(f"{n} {t}" for n, t in zip(state.names, state.totals(), strict=True))
        won = "wins" if len(state.winners) == 1 else "share the win"
        return f"{names} {won} ({totals}).\nThe game: {link.page}"
    if state.is_over:
        return f"The game is over: {link.page}"
    if session.left:
        return f"You left the game; it goes on at {link.page}"
    if link.seat is None:
        return f"The game goes on at {link.page}"
    return (
        "The game goes on at the server; your seat waits for you (others may play on).\n"
        "Come back with the same secret link: ./play join '<your link>'"
    )


__all__ = ["RemoteError", "connect", "register"]
