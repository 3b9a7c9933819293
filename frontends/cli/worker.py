"""``dice-miner worker``: the work a PostgreSQL site hands out, without serving any page.

A site whose web servers share one database may add workers that answer no
request: each claims bot turns (``core.host.shared.JobBotRunner``), takes its
turns at the site's idle sweep, and runs the game analyses the web has queued
(``core.store.pganalyses``), so CPU-heavy analyses never slow the web workers
(start those with ``serve --no-analyses``). It runs until Ctrl-C or SIGTERM;
killed, it loses nothing: its claims run out and another worker takes them.
"""

from __future__ import annotations

import argparse
import signal
import threading
from functools import partial

from frontends.cli.args import CliError, positive_int, seconds


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``worker`` subcommand."""
    p = sub.add_parser(
        "worker",
        help="claim a PostgreSQL site's bot turns, idle sweeps and analyses (no web pages)",
        description="Claim the bot turns, the idle sweep's turns and the queued game analyses "
        "of the games in a PostgreSQL database, beside the web servers sharing it.",
    )
    p.add_argument("--store", metavar="URL", required=True, help="postgresql://... (the site's)")
    p.add_argument(
        "--bot-pace",
        type=partial(seconds, most=10.0),
        default=0.6,
        metavar="SECONDS",
        help="pause between two bot moves where a game names none (default 0.6)",
    )
    p.add_argument(
        "--idle-close",
        type=partial(seconds, most=30 * 24 * 3600.0),
        default=7200.0,
        metavar="SECONDS",
        help="close a game no person moved in for this long (default 7200; 0: never)",
    )
    p.add_argument(
        "--quiet-seat",
        type=partial(seconds, most=30 * 24 * 3600.0),
        default=600.0,
        metavar="SECONDS",
        help="let a bot play for a person waited on this long (default 600; 0: never)",
    )
    p.add_argument(
        "--samples",
        type=positive_int,
        metavar="N",
        help="sampled futures per position in the analyses (default: the analysis's)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace, stop: threading.Event | None = None) -> int:
    """Work until stopped (Ctrl-C, SIGTERM, or ``stop`` set)."""
    from core import Lobby, PostgresStore
    from frontends.web.analysis import Analyses

    if not args.store.startswith(("postgresql:", "postgres:")):
        raise CliError("a worker shares the work of a PostgreSQL site: --store postgresql://...")
    store = PostgresStore(args.store, patient=True)  # a database away: it waits for it
    stop = stop or threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    lobby = Lobby(
        store,
        pace=args.bot_pace,
        idle_close=args.idle_close or None,
        quiet_seat=args.quiet_seat or None,
    )
    analyses = Analyses(args.samples, queue=getattr(store, "analyses", None))
    print(
        f"Dice Miner worker on {store.url}: bot turns, idle sweeps and analyses; Ctrl-C to stop.",
        flush=True,
    )
    try:
        stop.wait()
    finally:
        analyses.close()
        lobby.close()
        store.close()
    print("Stopped.", flush=True)
    return 0


__all__ = ["register", "run"]
