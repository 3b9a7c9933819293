"""Game analyses for the replay viewer: run in the background on demand, kept, never waited on.

``dice-miner analyse`` weighs every decision of a game (``core.analysis``); a
4-player game takes about 12 s of one core, so a request never runs it: the
first asks for it (``start``), the analysis runs in worker processes (the
server's own threads keep answering), and the page asks how far it has got
(``status``) until it is done. An analysis is kept as the CLI keeps it, beside
a log of the replays folder (``game.dmlog.analysis-v2-<key>.json``, so one
made by ``dice-miner analyse`` is read here and the other way round); an
uploaded log's, or a finished live game's, is kept in memory (a few of them).

For the page, each move the document names (the one played, the best, every
candidate: ``command`` as typed) also comes as the command the board draws
(``move``: ``core.events.codec.command_to_dict``), so the browser never parses
a command.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Any

from flask import current_app

from core.analysis import Options
from core.analysis import cache as kept_beside
from core.analysis.history import history
from core.analysis.judge import Task, judge
from core.analysis.report import report, tasks
from core.analysis.verdict import Judgement
from core.commands import parse_command
from core.errors import CommandSyntaxError
from core.events.codec import command_to_dict
from frontends.web.replays import Replay

#: Analyses of uploads and live games kept in memory (those of the replays folder are on disk).
KEPT = 16
#: Where an app keeps its analyses (``app.extensions``).
EXTENSION = "dice_miner_analyses"
_making = threading.Lock()


def analyses() -> Analyses:
    """The current app's analyses, made on first use from its configuration:
    ``ANALYSIS_SAMPLES`` (futures per decision; None: the CLI's default) and
    ``ANALYSIS_WORKERS`` (processes for one analysis; 1 by default)."""
    extensions = current_app.extensions
    found = extensions.get(EXTENSION)
    if found is None:
        config = current_app.config
        with _making:
            found = extensions.get(EXTENSION)
            if found is None:
                found = Analyses(config.get("ANALYSIS_SAMPLES"), config.get("ANALYSIS_WORKERS", 1))
                extensions[EXTENSION] = found
    return found


def _judge(options: Options, task: Task) -> Judgement:
    return judge(task, options)


class Job:
    """One analysis: running (``done`` of ``total`` positions weighed), done, or failed."""

    def __init__(self, total: int = 0) -> None:
        self.state = "running"
        self.done = 0
        self.total = total
        self.document: dict[str, Any] | None = None
        self.error: str | None = None

    def status(self) -> dict[str, Any]:
        """What the page is told: the state, the progress, and the analysis once done."""
        answer: dict[str, Any] = {"state": self.state, "done": self.done, "total": self.total}
        if self.error is not None:
            answer["error"] = self.error
        if self.document is not None:
            answer["analysis"] = self.document
        return answer


class Analyses:
    """The server's analyses: one running at a time (the others wait their turn), each in
    ``workers`` processes, each kept once done."""

    def __init__(self, samples: int | None = None, workers: int = 1) -> None:
        self.samples = samples
        self.workers = max(1, workers)
        self._jobs: OrderedDict[str, Job] = OrderedDict()  # by the log's SHA-256
        self._lock = threading.Lock()
        self._turn = threading.Lock()  # held by the analysis running

    def _options(self, replay: Replay) -> Options:
        return Options.for_mode(replay.final.mode, self.samples)

    def _path(self, replay: Replay, sha: str) -> str | None:
        """Where the analysis is kept beside the log (None: in memory only)."""
        if replay.path is None:
            return None
        return kept_beside.cache_path(str(replay.path), sha, self._options(replay))

    def status(self, replay: Replay) -> dict[str, Any]:
        """How the replay's analysis stands: ``none`` (not asked for), ``running``, ``done``
        (with ``analysis``) or ``failed`` (with ``error``)."""
        sha = replay.sha256
        with self._lock:
            job = self._jobs.get(sha)
            if job is not None:
                self._jobs.move_to_end(sha)
                return job.status()
        path = self._path(replay, sha)
        document = kept_beside.load(path, sha, self._options(replay)) if path else None
        if document is None:
            return {"state": "none", "done": 0, "total": 0}
        job = self._keep(sha, Job())
        job.document, job.state = for_the_page(document), "done"
        return job.status()

    def start(self, replay: Replay) -> dict[str, Any]:
        """Ask for the replay's analysis: started in the background unless it is running
        or done (or kept beside the log); its status at once."""
        found = self.status(replay)
        if found["state"] in ("running", "done"):
            return found
        job = self._keep(replay.sha256, Job())
        thread = threading.Thread(
            target=self._run, args=(replay, job), name=f"analysis {replay.name}", daemon=True
        )
        thread.start()
        return job.status()

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
                sha, options = replay.sha256, self._options(replay)
                hist = history(replay.batches)
                todo = tasks(hist)
                job.total = len(todo)
                judgements = self._judge_all(todo, options, job.__setattr__)
                document = report(hist, replay.batches, judgements, options, sha)
                path = self._path(replay, sha)
                if path is not None:
                    with contextlib.suppress(OSError):  # a folder it may not write: in memory
                        kept_beside.store(path, document)
                job.document = for_the_page(document)
                job.state = "done"
        except Exception as exc:  # a worker that died, a log that cannot be weighed
            job.error = f"the analysis failed: {exc}"
            job.state = "failed"

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


__all__ = ["Analyses", "Job", "analyses", "for_the_page"]
