"""``dice-miner serve``: the web frontend (replay viewer, browser play, live spectating).

Runs the Flask app on Werkzeug's threaded server, which is meant for one
machine or a trusted network: by default it listens on 127.0.0.1 only. Pass
``--host 0.0.0.0`` to let other machines in (each player's secret link then
works from their own browser).
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


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``serve`` subcommand."""
    from frontends.web.app import DEFAULT_REPLAYS

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
        help="where live games are logged (default: ~/.local/share/dice-miner/web)",
    )
    p.add_argument(
        "--bot-pace",
        type=partial(seconds, most=MAX_BOT_PACE),
        default=0.6,
        metavar="SECONDS",
        help=f"pause between two bot moves in a live game, 0 to {MAX_BOT_PACE:g} (default 0.6)",
    )
    p.set_defaults(run=run)


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {value}")
    return value


def make_server(args: argparse.Namespace):
    """The app and its threaded server for the options (the port is bound here)."""
    from werkzeug.serving import make_server as werkzeug_server

    from frontends.web.app import DEFAULT_REPLAYS, create_app

    if args.replays is None:
        args.replays = DEFAULT_REPLAYS  # listed as empty if it is missing
    elif not args.replays.is_dir():
        raise CliError(f"{args.replays}: not a folder of replays")
    config = {"REPLAYS_DIR": args.replays, "BOT_PACE": args.bot_pace}
    if args.data is not None:
        _data_folder(args.data)
        config["DATA_DIR"] = args.data
    try:  # bound here, so a busy port is one line of ours, not Werkzeug's exit
        family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
        sock = socket.create_server((args.host, args.port), family=family, backlog=128)
    except OSError as exc:
        raise CliError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    with sock:
        app = create_app(config)
        port = sock.getsockname()[1]
        server = werkzeug_server(args.host, port, app, threaded=True, fd=sock.fileno())
    return app, server


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
    """Serve until interrupted; live games' logs stay in the data folder."""
    app, server = make_server(args)
    print(f"Dice Miner is served at {address(args.host, server.port)}", flush=True)
    print(f"Replays from {args.replays}; press Ctrl-C to stop.", flush=True)
    shared = app.extensions["dice_miner"]
    print(f"Live games in {shared.store.url}: {shared.resumed.summary()}.", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("Stopped.")
    finally:
        server.server_close()
        app.extensions["dice_miner"].games.close()
    return 0
