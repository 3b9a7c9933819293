"""Games in a store, for the command line: ``--store URL GAME_ID`` where a log file would go.

``dice-miner log show`` and ``log verify`` take ``--store URL``: their LOG is then
a game's id in that store (a folder, ``file:DIR``, or ``postgresql://...``), and
they read the game as the ``.dmlog`` file the store exports for it, byte for byte
what the file store would hold, so every tool works on it as on a file.
"""

from __future__ import annotations

import argparse
import contextlib

from core import Batch, LogScan, Store, check_game_id, load_batches_bytes, open_store, replay_scan
from frontends.cli.args import CliError, read_log

STORE_HELP = (
    "read LOG as the id of a game in the store at URL (a folder, file:DIR, or "
    "postgresql://user@host/dbname) instead of a file"
)


def add_store_option(parser: argparse.ArgumentParser, *, required: bool = False) -> None:
    """Add ``--store URL`` to a subcommand: optional (LOG is then a game id), or required."""
    parser.add_argument(
        "--store",
        metavar="URL",
        required=required,
        help="the store: a folder (or file:DIR) of logs, or postgresql://user@host/dbname"
        if required
        else STORE_HELP,
    )


def open_named_store(url: str) -> Store:
    """The store ``url`` names; an unknown kind of URL is a one-line CliError."""
    try:
        return open_store(url)
    except ValueError as exc:
        raise CliError(str(exc)) from None


def export_game(store: Store, game_id: str) -> bytes:
    """A stored game as the ``.dmlog`` file's bytes (``GameNotFound``, damage: the store's)."""
    try:
        check_game_id(game_id)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    stream = store.read(game_id)
    try:
        return stream.export()
    finally:
        stream.close()


def read_stored(url: str, game_id: str) -> tuple[LogScan, list[Batch]]:
    """A stored game, checked and decoded as ``read_log`` reads a file."""
    store = open_named_store(url)
    with contextlib.closing(store):
        data = export_game(store, game_id)
        name = f"{store.url} game {game_id}"
    scan, batches = load_batches_bytes(data, name=name)
    replay_scan(scan, batches)
    return scan, batches


def read_game(args: argparse.Namespace) -> tuple[LogScan, list[Batch]]:
    """``args.log`` as a file, or (with ``--store URL``) as a game of that store."""
    if getattr(args, "store", None):
        return read_stored(args.store, args.log)
    return read_log(args.log)


__all__ = ["add_store_option", "export_game", "open_named_store", "read_game", "read_stored"]
