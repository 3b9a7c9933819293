"""Kill trials: SIGKILL a writer at random moments, then prove nothing acknowledged was lost.

Each trial forks a writer (``tests/support/kill_writer.py``) that appends seeded bot games
to fresh log files, acknowledging each command only after its fsync, kills it
with SIGKILL at a moment drawn from ``DiceRng`` (after so many of its acks, plus
a pause), and then checks every log it left behind:

* a torn final record is repaired with ``repair_log``, which must keep exactly
  the removed bytes in its side file;
* what remains is byte for byte a prefix of the log the same seed writes when
  nobody is killed (so nothing is garbled, reordered or duplicated), ending on
  a record boundary;
* ``Game.open`` takes the dead writer's lock and replays it, and every
  acknowledged event is there, with the same batches as the undisturbed game.

Some trials also try to open the log being written before the kill: the open
must be refused with ``LogLocked`` naming the writer's pid (one writer at a time).

The default test runs 200 trials (``tests/store/test_log_kill.py``); for a longer soak::

    .venv/bin/python -m tests.support.soak_kill --trials 2000
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import attrs

from core.errors import LogLocked, TornRecord
from core.events.codec import Batch
from core.game import Game
from core.log import read_log, repair_log
from core.rng import DiceRng
from tests.support.kill_writer import game_path, new_game, play

REPO = Path(__file__).resolve().parents[2]
#: Games each writer may play before it stops by itself (a kill usually comes first).
GAMES_PER_WRITER = 4
#: Writers start at one of this many games, each computed once for the comparison.
FIRST_GAMES = 8
#: The kill comes after the writer acknowledged a random number of commands, up
#: to ``max_acks`` (a game has 70 to 140), plus a random pause of up to
#: ``MAX_PAUSE`` seconds, so it can fall anywhere inside a command: deciding,
#: writing, syncing or acknowledging. Counting acks rather than time keeps the
#: moments spread over the game however busy the machine is.
MAX_PAUSE = 0.003
#: One trial in this many is killed before any ack, while the writer creates its log.
EARLY_KILL_EVERY = 5
#: Seconds a writer may take to reach its ack count before the trial gives up waiting.
ACK_TIMEOUT = 20.0
#: Every how many trials the writer's log is opened before the kill, to check the lock.
LOCK_CHECK_EVERY = 4
#: Seconds to wait for the fork server's answer before declaring it stuck.
ANSWER_TIMEOUT = 30.0
#: The generator stream of trial N's choices is ``_TRIAL_STREAM | N``.
_TRIAL_STREAM = 0xD1CE << 32


@attrs.define
class Figures:
    """What a run of kill trials did and found."""

    trials: int = 0
    killed: int = 0  # the writer was still running when SIGKILL came
    finished: int = 0  # it had finished its games first
    logs: int = 0  # log files checked
    repaired: int = 0  # logs that ended in a torn record, repaired
    torn_bytes: int = 0
    acked_events: int = 0  # events acknowledged to the writer's caller, all found
    unacked_events: int = 0  # events durable on disk whose ack the kill prevented
    header_only: int = 0  # logs holding no batch: never, as a log is created with its first
    interrupted_creates: int = 0  # no log, but a ``.new`` left by a kill during create
    lock_checks: int = 0
    lock_refusals: int = 0  # the open was refused naming the writer's pid
    seconds: float = 0.0

    def add(self, other: Figures) -> None:
        """Add another lane's counts to these."""
        for field in attrs.fields(Figures):
            if field.name != "seconds":
                setattr(self, field.name, getattr(self, field.name) + getattr(other, field.name))

    def summary(self) -> str:
        """The figures in a few lines, as docs/performance.md quotes them."""
        return (
            f"{self.trials} kill trials in {self.seconds:.1f} s: {self.killed} writers killed "
            f"mid-run, {self.finished} finished first\n"
            f"{self.logs} logs checked: {self.repaired} ended in a torn record and were "
            f"repaired ({self.torn_bytes} bytes kept in side files), {self.header_only} "
            f"held only a header, {self.interrupted_creates} creations interrupted (no log)\n"
            f"{self.acked_events} acknowledged events, every one present; "
            f"{self.unacked_events} more were durable though their ack was cut off\n"
            f"{self.lock_checks} opens while the writer lived: {self.lock_refusals} refused "
            f"naming its pid, the rest after it had closed that log"
        )


class ExpectedLogs:
    """The logs the writer produces when nobody kills it, computed once per game."""

    def __init__(self, seed: int, scratch: Path, games: int) -> None:
        self.seed = seed
        self._logs: dict[int, tuple[bytes, list[Batch]]] = {}
        for k in range(games):
            path = game_path(scratch, k)
            with new_game(seed, k, path, sync=False) as game:
                play(game)
                self._logs[k] = (path.read_bytes(), game.batches())

    def get(self, k: int) -> tuple[bytes, list[Batch]]:
        """Game ``k``'s complete log bytes and its batches."""
        return self._logs[k]


class ForkServer:
    """The ``kill_writer --serve`` process, spoken to one line at a time."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.support.kill_writer", "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=REPO,
            env=env,
            text=True,
        )

    def ask(self, request: str) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(request + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        if not answer:
            raise RuntimeError(f"fork server died (exit {self.proc.wait(ANSWER_TIMEOUT)})")
        return answer.strip()

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(ANSWER_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()


def read_acks(path: Path) -> dict[int, int]:
    """The highest acknowledged seq per game, from complete ``ack K SEQ`` lines."""
    acked: dict[int, int] = {}
    if path.exists():
        for line in path.read_text().splitlines(keepends=True):
            if line.endswith("\n"):
                _, k, seq = line.split()
                acked[int(k)] = max(acked.get(int(k), 0), int(seq))
    return acked


def check_lock(directory: Path, pid: int, figures: Figures) -> None:
    """Open the newest log while its writer may still hold it: refused, naming the writer."""
    logs = sorted(directory.glob("game-*.dmlog"), key=lambda p: int(p.stem.split("-")[1]))
    if not logs:
        return
    figures.lock_checks += 1
    try:
        with Game.open(logs[-1]) as game:  # the writer had closed it already: nothing to hold,
            # and it closes a log only once its game is over; an unfinished one was let in
            assert game.state.is_over, f"{logs[-1]}: opened while its writer was playing it"
    except LogLocked as refused:
        assert f"pid={pid} " in str(refused), f"lock error does not name pid {pid}: {refused}"
        figures.lock_refusals += 1


def check_log(path: Path, k: int, acked: int, expected: ExpectedLogs, figures: Figures) -> None:
    """One killed writer's log: repaired if torn, a prefix of the real thing, every ack in it."""
    data = path.read_bytes()
    full, batches = expected.get(k)
    try:
        read_log(path)
    except TornRecord as torn:
        result = repair_log(path)
        kept = path.read_bytes()
        assert result.side_file is not None, f"{path}: torn but nothing removed"
        assert kept + Path(result.side_file).read_bytes() == data, f"{path}: repair lost bytes"
        assert result.removed_bytes == len(data) - torn.offset
        figures.repaired += 1
        figures.torn_bytes += result.removed_bytes
        data = kept
    assert full.startswith(data), f"{path}: not a prefix of the undisturbed game's log"
    with Game.open(path) as game:  # takes the lock the dead writer held
        assert game.seq >= acked, f"{path}: acknowledged seq {acked} lost (log ends at {game.seq})"
        got = game.batches()
        assert got == batches[: len(got)], f"{path}: batches differ from the undisturbed game"
        figures.acked_events += acked
        figures.unacked_events += game.seq - acked
        figures.header_only += not got


def wait_for_acks(path: Path, count: int) -> None:
    """Return once the ack file holds ``count`` lines (or after ``ACK_TIMEOUT``)."""
    deadline = time.monotonic() + ACK_TIMEOUT
    while time.monotonic() < deadline:
        with contextlib.suppress(FileNotFoundError):
            if path.read_bytes().count(b"\n") >= count:
                return
        time.sleep(0.0005)


def run_trial(
    server: ForkServer,
    expected: ExpectedLogs,
    directory: Path,
    number: int,
    max_acks: int,
    figures: Figures,
    ahead: int = 0,
) -> None:
    """One trial: fork a writer, kill it at a random moment, check what it left."""
    directory.mkdir()
    acks = directory / "acks"
    rng = DiceRng(expected.seed, _TRIAL_STREAM | number)  # the same moments on every run
    first = rng.below(FIRST_GAMES - GAMES_PER_WRITER + 1)
    short = rng.below(2)  # half the writers write a byte at a time (see kill_writer)
    early = rng.below(EARLY_KILL_EVERY) == 0
    count = 0 if early else 1 + rng.below(max_acks)
    pause = MAX_PAUSE * rng.below(1001) / 1000
    answer = server.ask(
        f"run {directory} {expected.seed} {first} {GAMES_PER_WRITER} {short} {acks} {ahead}"
    )
    pid = int(answer.removeprefix("pid "))
    wait_for_acks(acks, count)
    time.sleep(pause)
    if number % LOCK_CHECK_EVERY == 0:
        check_lock(directory, pid, figures)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    status = server.ask(f"wait {pid}")
    if status == f"signal {signal.SIGKILL}":
        figures.killed += 1
    elif status == "exit 0":
        figures.finished += 1
    else:
        raise AssertionError(f"trial {number}: writer ended with {status}")
    acked = read_acks(acks)
    for k in range(first, first + GAMES_PER_WRITER):
        path = game_path(directory, k)
        temp = Path(f"{path}.new")
        if temp.exists() and path.exists():  # killed between naming the log and unnaming this
            assert os.path.samefile(temp, path), f"{temp}: left beside its log, not its name"
        figures.interrupted_creates += temp.exists() and not path.exists()
        if not path.exists():
            assert k not in acked, f"{path}: missing, but seq {acked[k]} was acknowledged"
            continue
        figures.logs += 1
        check_log(path, k, acked.get(k, 0), expected, figures)
    figures.trials += 1


def run_lane(
    expected: ExpectedLogs,
    base: Path,
    numbers: range,
    max_acks: int,
    ahead: int,
    stop: threading.Event,
) -> Figures:
    """Trials ``numbers`` one after the other, with a fork server of their own."""
    figures = Figures()
    server = ForkServer()
    try:
        for number in numbers:
            if stop.is_set():  # another lane found a broken promise
                break
            directory = base / f"trial-{number}"
            run_trial(server, expected, directory, number, max_acks, figures, ahead)
            shutil.rmtree(directory)  # a failing trial's files stay for inspection
    except BaseException:
        stop.set()
        raise
    finally:
        server.close()
    return figures


def run_trials(
    trials: int,
    *,
    seed: int = 2019,
    max_acks: int = 180,
    lanes: int = 2,
    ahead: int = 0,
    base: Path | None = None,
) -> Figures:
    """Run ``trials`` kill trials in ``lanes`` parallel lanes, under ``base`` (or a temp dir).

    Raises AssertionError at the first broken promise, leaving that trial's files
    in place. While one lane's writer runs towards its kill, another lane checks
    the logs its writer left. ``ahead``: see ``kill_writer.write_games``.
    """
    start = time.perf_counter()
    base = Path(tempfile.mkdtemp(prefix="dm-kill-", dir=base))
    (base / "expected").mkdir()
    expected = ExpectedLogs(seed, base / "expected", FIRST_GAMES)
    stop = threading.Event()
    with ThreadPoolExecutor(lanes) as pool:
        futures = [
            pool.submit(run_lane, expected, base, range(lane, trials, lanes), max_acks, ahead, stop)
            for lane in range(lanes)
        ]
        figures = Figures()
        for future in futures:
            figures.add(future.result())
    shutil.rmtree(base)
    figures.seconds = time.perf_counter() - start
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="SIGKILL log writers and check their logs.")
    parser.add_argument("--trials", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2019)
    parser.add_argument(
        "--max-acks", type=int, default=180, help="kill after at most this many commands"
    )
    parser.add_argument("--lanes", type=int, default=2, help="trials run side by side")
    args = parser.parse_args(argv)
    figures = run_trials(args.trials, seed=args.seed, max_acks=args.max_acks, lanes=args.lanes)
    print(figures.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
