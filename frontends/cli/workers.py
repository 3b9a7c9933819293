"""Serving with several worker processes: the Flask app under gunicorn.

``dice-miner serve --store postgresql://... --workers N`` runs N gunicorn
worker processes (threads in each, for the live games' event streams), every
one with its own lobby over the shared store: any worker answers any request
for any game, a move made through one reaches the spectators of all (the store
announces every append), and the bots' turns are played by whichever worker
claims them first. Several such servers, on several machines, may share one
database. A worker that dies loses nothing: every move was in the store before
it was answered, and the arbiter starts another in its place.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping
from typing import Any

from gunicorn.app.base import BaseApplication

#: Threads per worker: each live game's spectator holds one while its stream is open.
THREADS = 32


class WorkersApp(BaseApplication):
    """gunicorn running ``create_app(config)`` in each worker, listening on ``sock``."""

    def __init__(
        self, config: Mapping[str, Any], sock: socket.socket, workers: int, threads: int
    ) -> None:
        self.config = dict(config)
        self.sock = sock
        self.options = {
            "bind": [f"fd://{sock.fileno()}"],
            "workers": workers,
            "worker_class": "gthread",
            "threads": threads,
            "graceful_timeout": 5,
            "timeout": 60,  # a worker silent this long is killed and replaced
            "keepalive": 5,
            "accesslog": None,
            "errorlog": "-",
            "loglevel": "warning",
            "preload_app": False,  # each worker makes its own app: its own pool and threads
            "proc_name": "dice-miner",
        }
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        from frontends.web.app import create_app

        return create_app(self.config)


def serve_workers(
    config: Mapping[str, Any], sock: socket.socket, workers: int, threads: int = THREADS
) -> None:
    """Run the workers until the server is stopped (Ctrl-C or SIGTERM)."""
    os.set_inheritable(sock.fileno(), True)
    arbiter = os.getpid()
    try:
        WorkersApp(config, sock, workers, threads).run()
    except SystemExit as exc:
        if os.getpid() != arbiter:  # a worker ending: never run the command line's own code
            os._exit(exc.code if isinstance(exc.code, int) else 1)
        if exc.code not in (None, 0):
            raise


__all__ = ["THREADS", "WorkersApp", "serve_workers"]
