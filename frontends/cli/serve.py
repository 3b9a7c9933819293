"""``dice-miner serve``: the web frontend (replay viewer, browser play, live spectating).

It runs on gunicorn (``frontends.cli.workers``), a production server: by default
one worker, its live games in the file store under ``--data``, nothing else needed.
With ``--store postgresql://...`` the live games are kept in PostgreSQL, and
``--workers N`` runs N workers over it; several servers may share one database.
``--debug`` runs Werkzeug's development server instead (one process, its debugger
off, reloading nothing): for working on the code, never for players. It listens on
127.0.0.1 unless ``--host`` says otherwise (``--host 0.0.0.0`` lets other machines in).
"""

from __future__ import annotations

import argparse
import socket
from functools import partial
from pathlib import Path

from frontends.cli.args import CliError, seconds

#: The longest pause between bot moves a live game accepts (``core.host.Lobby.create``):
#: a longer default would have every new game refused.
MAX_BOT_PACE = 10.0
#: Connections the kernel queues for the workers to accept.
BACKLOG = 2048


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``serve`` subcommand."""
    from frontends.web.app import DEFAULT_REPLAYS, default_data_dir

    p = sub.add_parser(
        "serve",
        help="serve the web frontend: replays, play in the browser, live games",
        description="Start the web frontend and print its address. Replays are listed "
        "from --replays; live games are logged under --data.",
    )
    p.add_argument(
        "--replays",
        type=Path,
        metavar="DIR",
        help=f"the folder of game logs the viewer lists (default: {DEFAULT_REPLAYS})",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument(
        "--port", type=_port, default=5000, help="port to listen on (default 5000; 0 picks one)"
    )
    p.add_argument(
        "--data",
        type=Path,
        metavar="DIR",
        help=f"where live games are logged (default: {default_data_dir()})",
    )
    p.add_argument(
        "--bot-pace",
        type=partial(seconds, most=MAX_BOT_PACE),
        default=0.6,
        metavar="SECONDS",
        help=f"pause between two bot moves in a live game, 0 to {MAX_BOT_PACE:g} (default 0.6)",
    )
    p.add_argument(
        "--store",
        metavar="URL",
        help="where live games are kept: postgresql://... (shared by several workers and "
        "servers), or a folder (default: the file store in --data)",
    )
    p.add_argument(
        "--workers",
        type=_workers,
        default=1,
        metavar="N",
        help="worker processes (gunicorn) answering requests; more than 1 needs a "
        "postgresql:// --store (default 1)",
    )
    p.add_argument(
        "--connections",
        type=_connections,
        default=4000,
        metavar="N",
        help="connections each worker holds open at once (event streams among them; each "
        "costs a few KB, no thread) (default 4000)",
    )
    p.add_argument(
        "--idle-close",
        type=partial(seconds, most=30 * 24 * 3600.0),
        metavar="SECONDS",
        help="close a game no person moved in for this long (default 7200; 0: never)",
    )
    p.add_argument(
        "--quiet-seat",
        type=partial(seconds, most=30 * 24 * 3600.0),
        metavar="SECONDS",
        help="let a bot play for a person the game waited on this long, while others play "
        "on (default 600; 0: never)",
    )
    p.add_argument(
        "--no-analyses",
        action="store_true",
        help="run no game analysis here: over PostgreSQL, `dice-miner worker` runs the ones "
        "this server queues",
    )
    p.add_argument(
        "--max-games",
        type=_max_games,
        metavar="N",
        help="games in play at once: this server's on the file store (default 32), the whole "
        "site's over PostgreSQL, whichever server takes them (default 5000)",
    )
    p.add_argument(
        "--games-per-client",
        type=_workers,
        metavar="N",
        help="unfinished games one client address may hold (default 4)",
    )
    p.add_argument(
        "--client-timeout",
        type=_client_timeout,
        default=20.0,
        metavar="SECONDS",
        help="drop a connection that sends or takes nothing for this long in the middle of "
        "a request or an answer (a request's head must arrive within 5 s) (default 20)",
    )
    p.add_argument(
        "--proxies",
        type=_proxies,
        default=0,
        metavar="N",
        help="reverse proxies in front of the server (nginx: 1), whose X-Forwarded-For and "
        "X-Forwarded-Proto headers are believed, so each client counts as itself "
        "(default 0: none, the headers are ignored)",
    )
    p.add_argument(
        "--access-log",
        default="-",
        metavar="FILE",
        help="where gunicorn logs each request: a file, - for stderr, off for nowhere (default -)",
    )
    p.add_argument(
        "--debug",
        action="store_true",
        help="Werkzeug's development server instead of gunicorn: for working on the code",
    )
    p.set_defaults(run=run)


def _workers(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 1 <= value <= 512:
        raise argparse.ArgumentTypeError(f"1 to 512, not {value}")
    return value


def _proxies(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 0 <= value <= 8:
        raise argparse.ArgumentTypeError(f"0 to 8 proxies, not {value}")
    return value


def _max_games(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 1 <= value <= 1_000_000:
        raise argparse.ArgumentTypeError(f"1 to 1000000, not {value}")
    return value


def _client_timeout(text: str) -> float:
    value = seconds(text, most=3600.0)
    if value < 0.1:  # 0 would make every socket non-blocking, not patient
        raise argparse.ArgumentTypeError(f"0.1 to 3600 seconds, not {text!r}")
    return value


def _connections(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 10 <= value <= 100_000:
        raise argparse.ArgumentTypeError(f"10 to 100000, not {value}")
    return value


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {value}")
    return value


def app_config(args: argparse.Namespace) -> dict:
    """The app's configuration for the options (bad ones are one line, exit 2)."""
    from frontends.web.app import DEFAULT_REPLAYS

    if args.replays is None:
        args.replays = DEFAULT_REPLAYS  # listed as empty if it is missing
    elif not args.replays.is_dir():
        raise CliError(f"{args.replays}: not a folder of replays")
    config: dict = {"REPLAYS_DIR": args.replays, "BOT_PACE": args.bot_pace}
    if args.data is not None:
        _data_folder(args.data)
        config["DATA_DIR"] = args.data
    for option, key in (("idle_close", "IDLE_CLOSE_SECONDS"), ("quiet_seat", "QUIET_SEAT_SECONDS")):
        value = getattr(args, option, None)
        if value is not None:
            config[key] = value or None  # 0: never
    if getattr(args, "proxies", 0):
        config["PROXIES"] = args.proxies
    if getattr(args, "games_per_client", None) is not None:
        config["GAMES_PER_CLIENT"] = args.games_per_client
    if getattr(args, "max_games", None) is not None:
        config["MAX_GAMES"] = args.max_games
    if getattr(args, "no_analyses", False):
        config["ANALYSE_HERE"] = False
    store = getattr(args, "store", None)
    shared = store is not None and store.startswith(("postgresql:", "postgres:"))
    if getattr(args, "workers", 1) > 1 and not shared:
        raise CliError(
            "several --workers need a store they can share: --store postgresql://... "
            "(the file store is written by one process)"
        )
    if shared:
        config["STORE_URL"] = store
    elif store is not None:
        folder = Path(store.removeprefix("file:"))
        _data_folder(folder)
        config["DATA_DIR"] = folder
    return config


def listen(host: str, port: int) -> socket.socket:
    """The listening socket (bound here, so a busy port is one line of ours)."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        # thousands of spectators reconnect at once after a restart: a short queue of
        # connections not yet accepted would turn them away (the kernel caps it: somaxconn)
        return socket.create_server((host, port), family=family, backlog=BACKLOG)
    except OSError as exc:
        raise CliError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def make_server(args: argparse.Namespace):
    """The app and Werkzeug's threaded development server for the options (``--debug``;
    the port is bound here)."""
    from werkzeug.serving import make_server as werkzeug_server

    from frontends.web.app import create_app

    config = app_config(args)
    sock = listen(args.host, args.port)
    with sock:
        app = create_app(config)
        port = sock.getsockname()[1]
        server = werkzeug_server(args.host, port, app, threaded=True, fd=sock.fileno())
    return app, server


def _open_files(wanted: int) -> None:
    """Raise the soft limit on open files towards ``wanted`` (each connection is one), up
    to the hard limit the system allows: a default of 1,024 would cap the spectators."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted + 256 if hard == resource.RLIM_INFINITY else min(hard, wanted + 256)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def _data_folder(path: Path) -> None:
    """Make the live games' folder now, so a bad --data is one line here and not a
    failure of every game started later."""
    if path.exists() and not path.is_dir():
        raise CliError(f"{path}: --data must be a folder, and this is a file")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"{path}: cannot make the --data folder ({exc.strerror or exc})") from None


def address(host: str, port: int) -> str:
    """The URL a browser opens for ``host:port``."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; live games stay in their store."""
    if args.debug:
        return run_debug(args)
    return run_workers(args)


def run_debug(args: argparse.Namespace) -> int:
    """Serve on Werkzeug's development server (``--debug``) until interrupted."""
    app, server = make_server(args)
    print(f"Dice Miner is served at {address(args.host, server.port)}", flush=True)
    print(f"Replays from {args.replays}; press Ctrl-C to stop.", flush=True)
    print(f"Live games in {_taken_up(app)}.", flush=True)
    print("This is Werkzeug's development server (--debug): not for players.", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("Stopped.")
    finally:
        server.server_close()
        app.extensions["dice_miner"].games.close()
    return 0


def _taken_up(app) -> str:
    """Where the app's live games are and what it took up from there at its start."""
    shared = app.extensions["dice_miner"]
    return f"{shared.store.url}: {shared.resumed.summary()}"


def _say_taken_up(app) -> None:
    print(f"Live games in {_taken_up(app)}.", flush=True)


def run_workers(args: argparse.Namespace) -> int:
    """Serve with gunicorn's workers until stopped (one over the file store)."""
    from core import public_url  # never psycopg here: see frontends.cli.gworker
    from frontends.cli.workers import serve_workers

    config = app_config(args)
    _open_files(args.workers * args.connections)
    sock = listen(args.host, args.port)
    port = sock.getsockname()[1]
    print(f"Dice Miner is served at {address(args.host, port)}", flush=True)
    print(f"Replays from {args.replays}; press Ctrl-C to stop.", flush=True)
    announce = None
    if "STORE_URL" in config:
        print(
            f"Live games in {public_url(config['STORE_URL'])}, by {args.workers} worker(s); "
            "each takes up the store's unfinished games.",
            flush=True,
        )
    else:  # only the worker opens the file store: it says what it took up
        announce = _say_taken_up
    access_log = None if args.access_log == "off" else args.access_log
    serve_workers(
        config,
        sock,
        args.workers,
        args.connections,
        access_log=access_log,
        announce=announce,
        client_timeout=args.client_timeout,
    )  # the arbiter closes the socket
    print("Stopped.")
    return 0
