"""The Flask application factory: configuration, the replay library, live games, blueprints.

``create_app({...})`` builds an independent app (tests make one per test);
``dice-miner serve`` makes one from its options. Every script, style and icon
the pages use is served from ``static/``: no build step, no CDN, no web font,
and the Content-Security-Policy says so to the browser.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, request
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.middleware.proxy_fix import ProxyFix

from core import FileStore, Lobby, Store, open_store
from frontends.web.errors import register_error_handlers
from frontends.web.games import LiveGames
from frontends.web.replays import ReplayLibrary
from frontends.web.rulesdoc import DEFAULT_RULES_FILE
from frontends.web.services import Services, services

#: The repository's golden replays: the viewer's default library.
DEFAULT_REPLAYS = Path(__file__).resolve().parents[2] / "replays"

#: What a page may load: only this server (scripts, styles, the SSE stream, API calls).
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'"
)


def default_data_dir() -> Path:
    """Where the server logs its live games: XDG_DATA_HOME (or ~/.local/share)/dice-miner/web."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / "dice-miner" / "web"


DEFAULTS: dict[str, Any] = {
    "REPLAYS_DIR": DEFAULT_REPLAYS,
    "DATA_DIR": None,  # default_data_dir() when left unset
    "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,  # uploads: a whole game's log is a few tens of KB
    "BOT_PACE": 0.6,  # seconds between two bot moves in a live game
    "MAX_GAMES": None,  # games in play at once: the server's (file store: 32), the site's (5000)
    "GAMES_PER_CLIENT": 4,  # unfinished games one client address may hold at once
    "IDLE_CLOSE_SECONDS": 2 * 3600.0,  # a game no person moved in for this long is closed
    "QUIET_SEAT_SECONDS": 600.0,  # a person waited on this long is played by a bot
    "SWEEP_SECONDS": None,  # how often idle games and quiet seats are looked for (None: derived)
    "RESUME_GAMES": True,  # take up the store's games on start (core.host.Lobby.take_up)
    "STORE": None,  # a core.store Store for the live games; None: STORE_URL, else DATA_DIR
    "STORE_URL": None,  # a store URL (postgresql://..., file:/folder): each worker opens its own
    "SSE_HEARTBEAT": 15.0,  # seconds between keep-alive comments on an idle stream
    "SSE_MAX_SECONDS": 600.0,  # a stream ends after this; the browser reconnects and resumes
    "JSON_SORT_KEYS": False,
    "RULES_FILE": DEFAULT_RULES_FILE,  # docs/RULES.md, served at /rules
    "PROXIES": 0,  # reverse proxies in front whose X-Forwarded-For and -Proto are believed
    "ANALYSES_PER_CLIENT": 2,  # analyses one client may have waiting or running (429 beyond)
    "ANALYSES_QUEUED": 8,  # analyses waiting or running in all: the site's over PostgreSQL
    "ANALYSE_HERE": True,  # run analyses in this server (off: a `dice-miner worker` runs them)
}


def _open_patiently(url: str) -> Store:
    """The store a URL names; a database away at the start is no error (the worker answers
    503 until it is back, rather than fail to start and take its server down with it)."""
    if url.startswith(("postgresql:", "postgres:")):
        from core import PostgresStore

        return PostgresStore(url, patient=True)
    return open_store(url)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """A new Dice Miner web app; ``config`` overrides ``DEFAULTS``."""
    app = Flask(__name__)
    app.config.from_mapping(DEFAULTS)
    if config:
        app.config.update(config)
    app.json.sort_keys = False  # type: ignore[attr-defined]  # Flask's DefaultJSONProvider has it
    app.url_map.merge_slashes = False  # "/api/games//state" is a JSON 404, not an HTML redirect
    store = app.config["STORE"]
    if store is None and app.config["STORE_URL"]:
        store = _open_patiently(app.config["STORE_URL"])
    if store is None:  # the embedded default: a folder of log files, web-<id>.dmlog
        store = FileStore(app.config["DATA_DIR"] or default_data_dir(), prefix="web-")
    config = app.config
    lobby = Lobby(
        store,
        pace=config["BOT_PACE"],
        limit=config["MAX_GAMES"],
        per_client=config["GAMES_PER_CLIENT"],
        idle_close=config["IDLE_CLOSE_SECONDS"],
        quiet_seat=config["QUIET_SEAT_SECONDS"],
        sweep_every=config["SWEEP_SECONDS"],
    )
    shared = Services(ReplayLibrary(app.config["REPLAYS_DIR"]), LiveGames(lobby), store)
    app.extensions["dice_miner"] = shared
    if getattr(store, "analyses", None) is not None:  # a shared queue: claim from it now
        from frontends.web.analysis import EXTENSION, for_app

        app.extensions[EXTENSION] = for_app(app)
    if app.config["RESUME_GAMES"]:  # a game that cannot be taken up is one line on stderr
        shared.resumed = lobby.take_up(lambda line: print(line, file=sys.stderr))

    from frontends.web import api, branch_api, health, live, metrics, pages, table_api

    app.register_blueprint(pages.bp)
    app.register_blueprint(health.bp)
    metrics.install(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(branch_api.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(table_api.bp)
    register_error_handlers(app)
    if config["PROXIES"]:  # the client's address (its games' limit) as the proxies saw it
        hops = config["PROXIES"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]

    @app.before_request
    def _whole_body():
        # A chunked body has no Content-Length, and Werkzeug cuts it at the limit
        # without a word: a 3 MB upload would be read as its first 2 MB and refused as
        # damaged (or as bad JSON). Read it here and answer 413 if anything is left.
        limit = request.max_content_length
        if limit is None or request.content_length is not None:
            return
        if not request.environ.get("wsgi.input_terminated"):
            return  # no length and no chunking: Werkzeug reads no body at all
        data = request.get_data(cache=True)
        if len(data) >= limit and request.environ["wsgi.input"].read(1):
            raise RequestEntityTooLarge()

    @app.after_request
    def _headers(response):
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response

    return app


__all__ = ["DEFAULTS", "DEFAULT_REPLAYS", "Services", "create_app", "default_data_dir", "services"]
