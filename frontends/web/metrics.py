"""``GET /metrics``: what an operator watches, in Prometheus's text format.

Counted where it happens: the commands taken (by HTTP status) and how long each
took, the event streams open, the store's failures answered; read when scraped:
the live tables this process holds (how many, about how much memory, how many it
loaded from the store) and, where the store keeps jobs (``job_counts()``), the bot
turns queued and claimed and the games in play in the whole database.

Under gunicorn several processes answer the same port, and a scrape reaches one of
them: ``frontends.cli.workers`` gives each server a folder in
``PROMETHEUS_MULTIPROC_DIR`` and prometheus-client's multiprocess mode adds up every
worker's values there. That mode is chosen when prometheus-client is first
imported, so this module imports it only when a worker makes its app, never at
import time (the command line imports the app's package before the folder is set).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Flask, Response, current_app, g, request

from core import StoreError

bp = Blueprint("metrics", __name__)

#: The endpoints that take a move: their answers are counted and timed as commands.
COMMAND_ENDPOINTS = frozenset({"api.game_command"})
#: The command latency histogram's buckets, in seconds (an append waits for a disk).
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    """This process's metrics (one set per process: multiprocess mode keys them by name)."""

    def __init__(self) -> None:
        from prometheus_client import Counter, Gauge, Histogram

        self.commands = Counter(
            "dice_miner_commands",
            "Commands posted to a live game, by the HTTP status of the answer",
            ["status"],
            registry=None,
        )
        self.command_seconds = Histogram(
            "dice_miner_command_seconds",
            "Time from a command's request to its answer",
            buckets=BUCKETS,
            registry=None,
        )
        self.streams = Gauge(
            "dice_miner_streams_open",
            "Event streams (spectators and players) open now",
            registry=None,
            multiprocess_mode="livesum",
        )
        self.tables = Gauge(
            "dice_miner_tables_live",
            "Live tables held in memory (each process's as of its last request or scrape)",
            registry=None,
            multiprocess_mode="livesum",
        )
        self.taken_up = Gauge(
            "dice_miner_tables_taken_up",
            "Games this process has loaded from the store since it started (asked for a "
            "game it did not hold; as of its last request or scrape)",
            registry=None,
            multiprocess_mode="livesum",
        )
        self.held_bytes = Gauge(
            "dice_miner_tables_held_bytes",
            "About what the live tables held in memory take (4.5 KB an event)",
            registry=None,
            multiprocess_mode="livesum",
        )
        self.store_errors = Counter(
            "dice_miner_store_errors",
            "Requests answered 503 because the store failed, by the error's code",
            ["code"],
            registry=None,
        )

    def collectors(self) -> list[Any]:
        return [
            self.commands,
            self.command_seconds,
            self.streams,
            self.tables,
            self.taken_up,
            self.held_bytes,
            self.store_errors,
        ]


_metrics: Metrics | None = None


def metrics() -> Metrics:
    """This process's metrics, made on first use (after any multiprocess folder is set)."""
    global _metrics
    if _metrics is None:
        _metrics = Metrics()
    return _metrics


def multiprocess_dir() -> str | None:
    """The folder the workers' values are shared in, if this is a multiprocess server."""
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


class JobsCollector:
    """The store's jobs (queued, claimed) read when scraped: the database's own count, the
    same from every worker. A store away leaves them out of the scrape, never fails it."""

    def __init__(self, store: Any) -> None:
        self.counts = getattr(store, "job_counts", None)

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import GaugeMetricFamily

        if self.counts is None:
            return
        try:
            counts = self.counts()
        except StoreError:
            return
        family = GaugeMetricFamily(
            "dice_miner_jobs", "Jobs in the database, by state", labels=["state"]
        )
        for state in ("queued", "claimed"):
            family.add_metric([state], counts.get(state, 0))
        yield family
        if "live" in counts:
            yield GaugeMetricFamily(
                "dice_miner_games_in_play",
                "Games in play in the whole database (the places the site's limit counts)",
                value=counts["live"],
            )


def install(app: Flask) -> None:
    """Count and time the app's commands and serve ``/metrics``."""
    metrics()
    app.register_blueprint(bp)

    @app.before_request
    def _started() -> None:
        if request.endpoint in COMMAND_ENDPOINTS:
            g.command_started = time.perf_counter()

    @app.after_request
    def _counted(response: Response) -> Response:
        started = g.pop("command_started", None)
        if started is not None:
            m = metrics()
            m.command_seconds.observe(time.perf_counter() - started)
            m.commands.labels(str(response.status_code)).inc()
        tables_held(app)
        return response


def tables_held(app: Flask) -> None:
    """Note how many live tables this process holds now, what they take, and how many games
    it has loaded from the store."""
    lobby = app.extensions["dice_miner"].games.lobby
    m = metrics()
    m.tables.set(len(lobby.tables()))
    m.taken_up.set(lobby.taken_up)
    m.held_bytes.set(lobby.held_bytes())


def store_failed(code: str) -> None:
    """Count a request answered 503 because the store failed."""
    metrics().store_errors.labels(code).inc()


def stream_opened() -> None:
    metrics().streams.inc()


def stream_closed() -> None:
    metrics().streams.dec()


@bp.get("/metrics")
def scrape():
    """Every metric of this server (all its workers), in Prometheus's text format."""
    from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
    from prometheus_client.multiprocess import MultiProcessCollector

    tables_held(current_app)
    registry = CollectorRegistry(auto_describe=False)
    folder = multiprocess_dir()
    if folder is not None:
        MultiProcessCollector(registry, path=folder)
    else:
        for collector in metrics().collectors():
            registry.register(collector)
    registry.register(JobsCollector(current_app.extensions["dice_miner"].store))
    return Response(generate_latest(registry), headers={"Content-Type": CONTENT_TYPE_LATEST})


__all__ = [
    "COMMAND_ENDPOINTS",
    "JobsCollector",
    "Metrics",
    "install",
    "metrics",
    "store_failed",
    "stream_closed",
    "stream_opened",
    "tables_held",
]
