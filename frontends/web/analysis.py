"""Game analyses for the replay viewer: run in the background on demand, kept, never waited on.

``dice-miner analyse`` weighs every decision of a game (``core.analysis``); a
4-player game takes about 12 s of one core, so a request never runs it: the
first asks for it (``start``), the analysis runs in worker processes (the
server's own threads keep answering), and the page asks how far it has got
(``status``) until it is done. An analysis is kept as the CLI keeps it, beside
a log of the replays folder (``game.dmlog.analysis-v2-<key>.json``, so one
made by ``dice-miner analyse`` is read here and the other way round); an
uploaded log's, or a finished live game's, is kept in memory (a few of them).

Analyses are bounded: one client may have ``ANALYSES_PER_CLIENT`` waiting or
running (429 beyond), and ``ANALYSES_QUEUED`` may wait or run in all (503
beyond). Over a shared store (PostgreSQL) those limits are the site's and the
analyses themselves are the database's (``core.store.pganalyses``): asked for
through any server, claimed and run once by one worker that runs analyses (a web
worker unless ``ANALYSE_HERE`` is off, or a ``dice-miner worker`` process), and
read by every server once done.

For the page, each move the document names (the one played, the best, every
candidate: ``command`` as typed) also comes as the command the board draws
(``move``: ``core.events.codec.command_to_dict``), so the browser never parses
a command.
"""

from __future__ import annotations

import contextlib
import json
import logging
import multiprocessing
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Any

from flask import current_app

from core import (
    CommandSyntaxError,
    Judgement,
    Options,
    StoreError,
    Task,
    command_to_dict,
    history,
    judge,
    load_batches_bytes,
    parse_command,
    report,
    tasks,
    worker_name,
)
from core import analysis_cache as kept_beside
from frontends.web.errors import ApiError
from frontends.web.replays import Replay

log = logging.getLogger(__name__)

#: Analyses of uploads and live games kept in memory (those of the replays folder are on disk).
KEPT = 16
#: Where an app keeps its analyses (``app.extensions``).
EXTENSION = "dice_miner_analyses"
#: Analyses one client may have waiting or running, and all clients together.
PER_CLIENT = 2
QUEUED = 8
#: Seconds a worker holds a claimed analysis without a word before another may take it.
LEASE = 15.0
#: How often an idle worker asks the database for an analysis to run (seconds).
POLL = 1.0
_making = threading.Lock()


def analyses() -> Analyses:
    """The current app's analyses, made on first use from its configuration:
    ``ANALYSIS_SAMPLES`` (futures per decision; None: the CLI's default) and
    ``ANALYSIS_WORKERS`` (processes for one analysis; 1 by default)."""
    extensions = current_app.extensions
    found = extensions.get(EXTENSION)
    if found is None:
        with _making:
            found = extensions.get(EXTENSION)
            if found is None:
                found = extensions[EXTENSION] = for_app(current_app)
    return found


def for_app(app: Any) -> Analyses:
    """The analyses of an app: its configuration's limits, over its store's queue if the
    store keeps one (PostgreSQL), running them here unless ``ANALYSE_HERE`` is off."""
    config = app.config
    store = app.extensions["dice_miner"].store
    return Analyses(
        config.get("ANALYSIS_SAMPLES"),
        config.get("ANALYSIS_WORKERS", 1),
        queue=getattr(store, "analyses", None),
        run_here=config.get("ANALYSE_HERE", True),
        per_client=config.get("ANALYSES_PER_CLIENT", PER_CLIENT),
        limit=config.get("ANALYSES_QUEUED", QUEUED),
    )


def _judge(options: Options, task: Task) -> Judgement:
    return judge(task, options)


#: Seconds one position takes to weigh until this server has timed an analysis of its own
#: (then its own last rate, by mode): a 4-player game of 104 positions took 25 s where
#: the page said 12 (0.24 s a position; 0.98 on a 2-core machine with a load of 11).
SECONDS_PER_POSITION = 0.25
#: How many games' position counts are kept for the estimates.
COUNTED = 64


class Job:
    """One analysis: running (``done`` of ``total`` positions weighed), done, or failed."""

    def __init__(self, total: int = 0, client: str | None = None, rate: float = 0.0) -> None:
        self.client = client
        self.state = "running"
        self.done = 0
        self.total = total
        self.document: dict[str, Any] | None = None
        self.error: str | None = None
        #: Seconds a position is expected to take, and when weighing began (its turn came).
        self.rate = rate
        self.started: float | None = None

    def status(self) -> dict[str, Any]:
        """What the page is told: the state, the progress, and the analysis once done;
        while running, the seconds left (from its own pace once a position is weighed)."""
        answer: dict[str, Any] = {"state": self.state, "done": self.done, "total": self.total}
        if self.state == "running" and self.total:
            left = self.total - self.done
            if self.started is not None and self.done:
                pace = (time.monotonic() - self.started) / self.done
            else:
                pace = self.rate
            answer["seconds_left"] = round(pace * left)
        if self.error is not None:
            answer["error"] = self.error
        if self.document is not None:
            answer["analysis"] = self.document
        return answer


class Analyses:
    """The server's analyses: one running at a time (the others wait their turn), each in
    ``workers`` processes, each kept once done."""

    def __init__(
        self,
        samples: int | None = None,
        workers: int = 1,
        *,
        queue: Any = None,
        run_here: bool = True,
        per_client: int = PER_CLIENT,
        limit: int = QUEUED,
    ) -> None:
        self.samples = samples
        self.workers = max(1, workers)
        self.per_client = per_client
        self.limit = limit
        #: The database's queue (``core.store.pganalyses.AnalysisQueue``), or None.
        self.queue = queue
        self.run_here = run_here
        self._jobs: OrderedDict[str, Job] = OrderedDict()  # by the log's SHA-256
        #: Seconds a position took in this server's last analysis of each mode (measured).
        self.rates: dict[str, float] = {}
        self._positions: OrderedDict[str, int] = OrderedDict()  # by the log's SHA-256
        self._lock = threading.Lock()
        self._turn = threading.Lock()  # held by the analysis running
        self._stop = threading.Event()
        self.me = worker_name()
        if queue is not None and run_here:
            threading.Thread(target=self._serve, name="analyses", daemon=True).start()

    def _options(self, replay: Replay) -> Options:
        return Options.for_mode(replay.final.mode, self.samples)

    def rate(self, mode: str) -> float:
        """Seconds a position of a ``mode`` game takes here: measured, once one was."""
        return self.rates.get(mode, SECONDS_PER_POSITION)

    def estimate(self, replay: Replay) -> int:
        """About how many seconds the replay's analysis takes here (its positions, counted
        once, at the rate measured here)."""
        sha = replay.sha256
        with self._lock:
            count = self._positions.get(sha)
        if count is None:
            count = len(tasks(history(replay.batches)))
            with self._lock:
                self._positions[sha] = count
                while len(self._positions) > COUNTED:
                    self._positions.popitem(last=False)
        return max(1, round(count * self.rate(replay.final.mode)))

    def _path(self, replay: Replay, sha: str) -> str | None:
        """Where the analysis is kept beside the log (None: in memory only)."""
        if replay.path is None:
            return None
        return kept_beside.cache_path(str(replay.path), sha, self._options(replay))

    def status(self, replay: Replay) -> dict[str, Any]:
        """How the replay's analysis stands: ``none`` (not asked for), ``queued``,
        ``running``, ``done`` (with ``analysis``) or ``failed`` (with ``error``)."""
        sha = replay.sha256
        with self._lock:
            job = self._jobs.get(sha)
            if job is not None and (self.queue is None or job.state == "done"):
                self._jobs.move_to_end(sha)
                return job.status()
        path = self._path(replay, sha)
        document = kept_beside.load(path, sha, self._options(replay)) if path else None
        if document is None and self.queue is not None:
            found = self._queued_status(sha)
            if found["state"] == "none":
                found["estimate_s"] = self.estimate(replay)
            return found
        if document is None:
            return {"state": "none", "done": 0, "total": 0, "estimate_s": self.estimate(replay)}
        job = self._keep(sha, Job())
        job.document, job.state = for_the_page(document), "done"
        return job.status()

    def _queued_status(self, sha: str) -> dict[str, Any]:
        """The status the database holds (a done document is kept here too)."""
        queued = self.queue.get(sha)
        if queued is None:
            return {"state": "none", "done": 0, "total": 0}
        answer: dict[str, Any] = {"state": queued.state, "done": queued.done}
        answer["total"] = queued.total
        if queued.error is not None:
            answer["error"] = queued.error
        if queued.state == "done" and queued.document is not None:
            job = self._keep(sha, Job(queued.total))
            job.document, job.state = for_the_page(json.loads(queued.document)), "done"
            job.done = queued.total
            return job.status()
        return answer

    def start(self, replay: Replay, client: str | None = None) -> dict[str, Any]:
        """Ask for the replay's analysis: started (or queued) in the background unless it
        is waiting, running or done (or kept beside the log); its status at once. A client
        with too many analyses waiting is refused (429), and so is anyone while too many
        wait in all (503)."""
        found = self.status(replay)
        if found["state"] in ("queued", "running", "done"):
            return found
        if self.queue is not None:
            added = self.queue.add(
                replay.sha256, replay.name, replay.data, client, self.per_client, self.limit
            )
            if isinstance(added, str):
                raise self._refusal(added)
            return self._queued_status(replay.sha256)
        if not self.run_here:
            raise ApiError(503, "analyses_off", "this server runs no game analyses")
        with self._lock:
            running = [j for j in self._jobs.values() if j.state == "running"]
            if client is not None and sum(j.client == client for j in running) >= self.per_client:
                raise self._refusal("client")
            if len(running) >= self.limit:
                raise self._refusal("full")
        job = self._keep(replay.sha256, Job(client=client, rate=self.rate(replay.final.mode)))
        thread = threading.Thread(
            target=self._run, args=(replay, job), name=f"analysis {replay.name}", daemon=True
        )
        thread.start()
        return job.status()

    def _refusal(self, why: str) -> ApiError:
        if why == "client":
            return ApiError(
                429,
                "too_many_analyses",
                f"you already have {self.per_client} analyses waiting or running; "
                "ask again when one is done",
                headers={"Retry-After": "30"},
            )
        return ApiError(
            503,
            "analyses_busy",
            f"{self.limit} analyses are waiting or running already; try again in a minute",
            headers={"Retry-After": "60"},
        )

    def _keep(self, sha: str, job: Job) -> Job:
        with self._lock:
            self._jobs[sha] = job
            self._jobs.move_to_end(sha)
            while len(self._jobs) > KEPT:
                oldest = next(iter(self._jobs))
                if self._jobs[oldest].state == "running":
                    break  # a running analysis is never forgotten
                self._jobs.popitem(last=False)
        return job

    def _run(self, replay: Replay, job: Job) -> None:
        """Weigh every position (in worker processes), make the document, keep it."""
        try:
            with self._turn:
                job.started = time.monotonic()
                job.document = for_the_page(self._weigh(replay, job.__setattr__))
                job.state = "done"
                if job.total:  # what a position took here: the next estimates' rate
                    self.rates[replay.final.mode] = (time.monotonic() - job.started) / job.total
        except Exception as exc:  # a worker that died, a log that cannot be weighed
            job.error = f"the analysis failed: {exc}"
            job.state = "failed"

    def _weigh(self, replay: Replay, note: Callable[[str, int], None]) -> dict[str, Any]:
        """The replay's analysis document (kept beside a log of the replays folder)."""
        sha, options = replay.sha256, self._options(replay)
        hist = history(replay.batches)
        todo = tasks(hist)
        note("total", len(todo))
        judgements = self._judge_all(todo, options, note)
        document = report(hist, replay.batches, judgements, options, sha)
        path = self._path(replay, sha)
        if path is not None:
            with contextlib.suppress(OSError):  # a folder it may not write: in memory
                kept_beside.store(path, document)
        return document

    # -- the database's queue (a shared store) -------------------------------------

    def _serve(self) -> None:
        """Claim and run the analyses the database holds, one at a time, until closed."""
        while not self._stop.is_set() and not self.queue.closed:
            try:
                claim = self.queue.claim(self.me, LEASE)
            except StoreError as exc:  # away a moment: look again a little later
                log.warning("analyses could not be claimed: %s", exc)
                self._stop.wait(POLL * 2)
                continue
            if claim is None:
                self._stop.wait(POLL)
                continue
            self._run_claimed(claim)

    def _run_claimed(self, claim: Any) -> None:
        progress = {"done": 0, "total": 0}
        said = [0.0]

        def note(name: str, value: int) -> None:
            progress[name] = value
            if time.monotonic() - said[0] >= 0.5:  # the page polls; the lease is held on
                said[0] = time.monotonic()
                with contextlib.suppress(StoreError):
                    self.queue.progress(
                        claim.sha, self.me, progress["done"], progress["total"], LEASE
                    )

        document, error = None, None
        try:
            with self._turn:
                scan, batches = load_batches_bytes(claim.log, name=claim.name)
                replay = Replay(claim.name, scan, batches, "upload", data=claim.log)
                if replay.sha256 != claim.sha:
                    raise ValueError("the queued log is not the one asked for")
                document = json.dumps(self._weigh(replay, note))
        except Exception as exc:  # a log that cannot be weighed: said, never retried
            error = f"the analysis failed: {exc}"
        try:
            self.queue.finish(claim.sha, self.me, document, error)
        except StoreError as exc:  # its lease runs out and another worker runs it again
            log.warning("analysis %s could not be kept: %s", claim.sha[:12], exc)

    def close(self) -> None:
        """Stop claiming analyses (one running is finished, or its lease runs out)."""
        self._stop.set()

    def _judge_all(
        self, todo: list[Task], options: Options, note: Callable[[str, int], None]
    ) -> list[Judgement]:
        """Each task's judgement, in order, weighed in worker processes (spawned: the server
        has threads, which a forked child would copy half-way)."""
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(self.workers, mp_context=context) as pool:
            futures = [pool.submit(partial(_judge, options), task) for task in todo]
            judged = []
            for future in futures:
                judged.append(future.result())
                note("done", len(judged))
        return judged


def for_the_page(document: dict[str, Any]) -> dict[str, Any]:
    """The analysis with each move also as the command the board draws (``move``)."""
    for decision in document.get("decisions", []):
        seat = decision["seat"]
        for move in (decision["played"], decision["best"], *decision["candidates"]):
            move["move"] = _move(move["command"], seat)
    for summary in document.get("summary", []):
        for biggest in summary.get("biggest", []):
            for move in (biggest["played"], biggest["best"]):
                move["move"] = _move(move["command"], summary["seat"])
    return document


def _move(text: str, seat: int) -> dict[str, Any] | None:
    try:
        return command_to_dict(parse_command(text, seat))
    except CommandSyntaxError:
        return None


__all__ = ["Analyses", "Job", "analyses", "for_app", "for_the_page"]
