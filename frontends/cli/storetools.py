"""``dice-miner store``: list a store's games, export one as a ``.dmlog``, import ``.dmlog`` files.

A store is named by ``--store URL``: a folder (or ``file:DIR``) of logs, or a
PostgreSQL database (``postgresql://user@host/dbname``). Moving a game is
lossless both ways: ``export`` writes the file the file store would hold, byte
for byte; ``import`` keeps each batch's bytes as the file has them.

Exit codes: 0 done; 1 ``import`` skipped a game whose id the store already
holds; 2 a bad argument, a store that cannot be reached, a game not found, or a
file that cannot be read or does not verify (``import`` goes on with the others).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import os
from pathlib import Path

from core import DiceMinerError, GameExists, NewGame, import_log, provenance, rerun
from frontends.cli.args import EXIT_DIFFERENT, EXIT_OK, EXIT_USAGE, CliError, event_count, read_log
from frontends.cli.launcher import command
from frontends.cli.logtools import header_differences
from frontends.cli.stored import add_store_option, export_game, open_named_store

STORE_URL = "URL: a folder (or file:DIR) of logs, or postgresql://user@host/dbname"


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``store`` subcommand group."""
    p = sub.add_parser(
        "store",
        help="list, export or import the games of a store (a folder or a database)",
        description="Move games between stores and files. --store "
        + STORE_URL
        + ". Exit codes: 0 done; 1 import skipped a game already stored; 2 a bad argument, "
        "an unreachable store, or a file that cannot be read or verified.",
    )
    group = p.add_subparsers(dest="store_command", metavar="ACTION", required=True)

    listing = group.add_parser(
        "list",
        help="the games a store holds",
        description="One line per stored game, the oldest first: its id, events, last "
        "change (UTC), mode and players.",
    )
    add_store_option(listing, required=True)
    listing.set_defaults(run=run_list)

    export = group.add_parser(
        "export",
        help="write a stored game as a .dmlog file",
        description="Write game GAME_ID of the store as FILE, byte for byte the log the file "
        "store would hold. An existing FILE is never overwritten.",
    )
    add_store_option(export, required=True)
    export.add_argument("game_id", metavar="GAME_ID")
    export.add_argument("file", metavar="FILE")
    export.set_defaults(run=run_export)

    imports = group.add_parser(
        "import",
        help="load .dmlog files (or folders of them) into a store",
        description="Verify each FILE (checksums, then a re-run of its game from the seed, as "
        "'dice-miner log verify' does) and store its game under its header's id, each batch "
        "as the file has it. A folder stands for its .dmlog files. A game whose id the store "
        "already holds is named and skipped (exit 1); a file that does not verify is named "
        "and not imported (exit 2).",
    )
    add_store_option(imports, required=True)
    imports.add_argument("files", metavar="FILE", nargs="+")
    imports.set_defaults(run=run_import)


# -- list ----------------------------------------------------------------------------


def run_list(args: argparse.Namespace) -> int:
    """Print the catalogue."""
    store = open_named_store(args.store)
    with contextlib.closing(store):
        entries = store.games()
    if not entries:
        print(f"{store.url} holds no games")
        return EXIT_OK
    width = max(len("GAME"), *(len(e.game_id) for e in entries))
    print(f"{'GAME':{width}}  {'EVENTS':>6}  {'UPDATED (UTC)':19}  {'MODE':5}  PLAYERS")
    for entry in entries:
        when = datetime.datetime.fromtimestamp(entry.updated, datetime.UTC)
        players = ", ".join(map(str, entry.header.get("players", [])))
        mode = str(entry.header.get("mode", ""))
        print(
            f"{entry.game_id:{width}}  {entry.events:>6}  {when:%Y-%m-%d %H:%M:%S}  "
            f"{mode:5}  {players}"
        )
    return EXIT_OK


# -- export --------------------------------------------------------------------------


def run_export(args: argparse.Namespace) -> int:
    """Write one stored game as a new file."""
    if os.path.lexists(args.file):
        raise CliError(f"{args.file}: already exists; not overwritten")
    store = open_named_store(args.store)
    with contextlib.closing(store):
        data = export_game(store, args.game_id)
        where = store.url
    write_new_file(args.file, data)
    _scan, batches = read_log(args.file)  # read back as any reader of the file will
    print(
        f"{args.file}: game {args.game_id} of {where}: {len(batches)} records, "
        f"{event_count(batches)} events, {len(data)} bytes"
    )
    return EXIT_OK


def write_new_file(path: str, data: bytes) -> None:
    """Write ``data`` to a file that must not exist yet, durably; nothing is left on failure."""
    try:
        file = open(path, "xb")  # noqa: SIM115  (removed below if writing fails)
    except FileExistsError:
        raise CliError(f"{path}: already exists; not overwritten") from None
    try:
        with file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise


# -- import --------------------------------------------------------------------------


def run_import(args: argparse.Namespace) -> int:
    """Verify and store each file's game; report each file in a line."""
    paths = log_files(args.files)
    store = open_named_store(args.store)
    skipped = failed = 0
    with contextlib.closing(store):
        for path in paths:
            try:
                scan, batches = verified_log(path)
            except DiceMinerError as exc:
                print(f"{path}: not imported: {exc}")
                failed += 1
                continue
            game_id = scan.header.get("game_id")
            try:
                import_log(store, scan, batches).close()
            except GameExists:
                same = export_game(store, str(game_id)) == Path(path).read_bytes()
                kept = "this same log" if same else "a different log"
                print(f"{path}: skipped: {store.url} already holds game {game_id} ({kept})")
                skipped += 1
                continue
            except ValueError as exc:  # an id no store can keep
                print(f"{path}: not imported: {exc}")
                failed += 1
                continue
            print(
                f"{path}: imported as game {game_id} ({len(batches)} records, "
                f"{event_count(batches)} events)"
            )
    if failed:
        return EXIT_USAGE
    return EXIT_DIFFERENT if skipped else EXIT_OK


def log_files(names: list[str]) -> list[str]:
    """The files named, a folder standing for its ``.dmlog`` files (sorted by name)."""
    found = []
    for name in names:
        if os.path.isdir(name):
            inside = sorted(p for p in os.listdir(name) if p.endswith(".dmlog"))
            if not inside:
                raise CliError(f"{name}: a folder with no .dmlog files")
            found += [os.path.join(name, p) for p in inside]
        else:
            found.append(name)
    return found


def verified_log(path: str):
    """A log that ``dice-miner log verify`` passes: its scan and batches, else a CliError."""
    scan, batches = read_log(path)
    start = batches[0].command
    if not isinstance(start, NewGame):
        raise CliError("it does not begin a game")
    # a game whose secret seed is not revealed yet cannot be re-run: its checksums must do
    found = None if provenance(batches).kind == "secret" else rerun(batches)
    if found is not None:
        raise CliError(
            f"it differs from a re-run of its game at event {found.seq} (record "
            f"{found.record}); '{command('log', 'verify', path)}' shows where"
        )
    if header_differences(scan.header, start):
        raise CliError(
            f"its header does not match its game; '{command('log', 'verify', path)}' says how"
        )
    return scan, batches
