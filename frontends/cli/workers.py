"""Serving on gunicorn: the Flask app in worker processes, the production server.

``dice-miner serve`` always runs gunicorn (Werkzeug's development server only with
``--debug``). Over the file store it runs one worker: a folder of logs is written
by one process. With ``--store postgresql://... --workers N`` it runs N workers,
every one with its own lobby over the shared store: any worker answers any request
for any game, a move made through one reaches the spectators of all (the store
announces every append), and the bots' turns are played by whichever worker claims
them first. Several such servers, on several machines, may share one database. A
worker that dies loses nothing: every move was in the store before it was answered,
and the arbiter starts another in its place. A worker is gevent's
(``frontends.cli.gworker``): a connection is a greenlet, so thousands of spectators
cost no thread each.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import tempfile
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from gunicorn.app.base import BaseApplication

from frontends.cli.gworker import IO_TIMEOUT, StreamsWorker

#: Connections one worker holds open at once (each a greenlet: an event stream costs a
#: few KB); beyond it the worker stops accepting until one closes.
CONNECTIONS = 4000
#: The access log's lines: gunicorn's "combined" format and the time taken, in ms.
ACCESS_LOG_FORMAT = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(M)sms'
#: Where prometheus-client's multiprocess mode keeps each worker's values.
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


class WorkersApp(BaseApplication):
    """gunicorn running ``create_app(config)`` in each worker, listening on ``sock``.

    ``access_log`` is a file, ``"-"`` for stderr, or None for none; ``announce`` is
    called in each worker with its new app (the file store's server says what it took
    up there, since only the worker opens the store)."""

    def __init__(
        self,
        config: Mapping[str, Any],
        sock: socket.socket,
        workers: int,
        connections: int = CONNECTIONS,
        *,
        access_log: str | None = "-",
        announce: Callable[[Any], None] | None = None,
    ) -> None:
        self.config = dict(config)
        self.sock = sock
        self.announce = announce
        self.served: Any = None  # this worker's app, once made
        self.options = {
            "bind": [f"fd://{sock.fileno()}"],
            "workers": workers,
            "worker_class": "frontends.cli.gworker.StreamsWorker",
            "worker_connections": connections,
            "graceful_timeout": 5,
            "timeout": 60,  # a worker silent this long is killed and replaced
            "keepalive": 5,
            "accesslog": access_log,
            "access_log_format": ACCESS_LOG_FORMAT,
            "errorlog": "-",
            "loglevel": "warning",
            "preload_app": False,  # each worker makes its own app: its own pool and threads
            "proc_name": "dice-miner",
            "worker_exit": self._worker_exit,
            "child_exit": _forget_worker,
        }
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        from frontends.web.app import create_app

        self.served = create_app(self.config)
        if self.announce is not None:
            self.announce(self.served)
        return self.served

    def _worker_exit(self, _arbiter, _worker) -> None:
        """A worker stopping closes its live games (their logs' writers, the store's pool)."""
        if self.served is not None:
            self.served.extensions["dice_miner"].games.close()


def _forget_worker(_arbiter, worker) -> None:
    """A worker gone: its live gauges (streams open, tables held) leave the server's sums."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


@contextlib.contextmanager
def metrics_folder() -> Iterator[str]:
    """A folder of this server's own for the workers' metrics (prometheus-client's
    multiprocess mode), named in ``PROMETHEUS_MULTIPROC_DIR`` for the workers, removed
    when the server stops: a new server never adds up an old one's counts."""
    folder = tempfile.mkdtemp(prefix="dice-miner-metrics-")
    before = os.environ.get(MULTIPROC_ENV)
    os.environ[MULTIPROC_ENV] = folder
    try:
        yield folder
    finally:
        if before is None:
            os.environ.pop(MULTIPROC_ENV, None)
        else:
            os.environ[MULTIPROC_ENV] = before
        shutil.rmtree(folder, ignore_errors=True)


def serve_workers(
    config: Mapping[str, Any],
    sock: socket.socket,
    workers: int,
    connections: int = CONNECTIONS,
    *,
    access_log: str | None = "-",
    announce: Callable[[Any], None] | None = None,
    client_timeout: float = IO_TIMEOUT,
) -> None:
    """Run the workers until the server is stopped (Ctrl-C or SIGTERM)."""
    import frontends.web.app  # noqa: F401  # imported once here, not again in each worker

    StreamsWorker.io_timeout = client_timeout  # the workers are forked from here

    os.set_inheritable(sock.fileno(), True)
    arbiter = os.getpid()
    with metrics_folder():
        try:
            app = WorkersApp(
                config, sock, workers, connections, access_log=access_log, announce=announce
            )
            app.run()
        except SystemExit as exc:
            if os.getpid() != arbiter:  # a worker ending: never run the command line's own code
                os._exit(exc.code if isinstance(exc.code, int) else 1)
            if exc.code not in (None, 0):
                raise


__all__ = ["ACCESS_LOG_FORMAT", "CONNECTIONS", "WorkersApp", "metrics_folder", "serve_workers"]
