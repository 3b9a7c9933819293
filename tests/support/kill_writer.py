"""The writer the kill test murders: seeded bot games appended to log files.

Each commit is acknowledged only after ``Game.issue`` (or ``Game.new``) returned,
that is after its record was written and fsynced, with the line ``ack K SEQ``:
game K's events before seq SEQ are promised to be in ``DIR/game-K.dmlog``.

    python -m tests.support.kill_writer DIR --seed S [--first K] [--games N] [--short-writes]

plays games K, K+1, ... (seeds derived from S) and prints the acks to stdout.

    python -m tests.support.kill_writer --serve

is a fork server for the harness (``tests/support/soak_kill.py``): it imports the engine
once, then for each request line ``run DIR SEED FIRST GAMES SHORT ACKS AHEAD``
forks a writer whose acks go to the file ACKS and answers ``pid N``; ``wait N`` reaps that
writer and answers ``signal N`` or ``exit N`` (the harness itself sends the
SIGKILL). A fork from this warm interpreter costs a few milliseconds where a
fresh ``python`` costs about 180, so hundreds of kills fit in seconds; the
writer is still a separate process, killed for real.

``--short-writes`` makes every ``write()`` of the log go out one byte at a time,
as a kernel may return short writes (the writer's loop handles them), pausing
half a millisecond half way through each, as a slow device might. A small write
is otherwise all-or-nothing under SIGKILL, so this is how the kills land inside
a record and leave the torn tails that repair must handle.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import core.log.file as log_file
from core.bots import RandomBot, bot_rng
from core.game import Game
from core.rng import DiceRng, derive_seed

NAMES = ("Ada", "Brok", "Cira", "Dain")
#: The stream of the writer's own undo decisions, apart from the game's and the bots'.
_UNDO_STREAM = 1 << 61
#: About one command in this many is followed by an undo.
UNDO_ODDS = 20
#: Seconds a ``--short-writes`` writer pauses in the middle of each write.
SLOW_WRITE_PAUSE = 0.0005


def game_path(directory: str | os.PathLike, k: int) -> Path:
    """Where game ``k`` is logged."""
    return Path(directory) / f"game-{k}.dmlog"


def game_seed(seed: int, k: int) -> int:
    """The seed of game ``k`` of a writer started with ``seed``."""
    return derive_seed(seed, k)


def new_game(seed: int, k: int, log: str | os.PathLike | None, sync: bool = True) -> Game:
    """Game ``k``: 2, 3 or 4 players in turn."""
    return Game.new(NAMES[: 2 + k % 3], seed=game_seed(seed, k), log=log, sync=sync)


def play(
    game: Game, on_commit: Callable[[int], None] = lambda seq: None, undo_odds: int = UNDO_ODDS
) -> Game:
    """Random bots play to the end, undoing now and then; ``on_commit(seq)`` after each command.

    About one command in ``undo_odds`` is followed by an undo.

    Deterministic: the same game gives the same commands, so the expected log of
    a killed writer is this function run again in memory.
    """
    bot = RandomBot()
    while not game.state.is_over:
        seat = game.to_act()
        rng = bot_rng(game.state, game.timeline.depth, seat)
        game.issue(bot.choose(game.state, game.legal(), rng))
        on_commit(game.seq)
        if (
            game.timeline.can_undo()
            and DiceRng(game.state.seed, _UNDO_STREAM | game.seq).below(undo_odds) == 0
        ):
            game.undo(seat)
            on_commit(game.seq)
    return game


def short_writes(fd: int, data: bytes) -> None:
    """``_write_all`` on a slow device whose every ``write()`` is short: one byte at a
    time, with a pause half way, so that a kill often lands inside a record."""
    view = memoryview(data)
    half = len(view) // 2
    while view:
        view = view[os.write(fd, view[:1]) :]
        if len(view) == half:
            time.sleep(SLOW_WRITE_PAUSE)


def write_games(
    directory: str,
    seed: int,
    first: int,
    games: int,
    ack: Callable[[str], None],
    ahead: int = 0,
) -> None:
    """Play games ``first`` .. ``first + games - 1`` into ``directory``, acking each commit.

    ``ahead`` > 0 makes a lying writer that acknowledges events it has not yet
    written, so a test can show the harness catches one.
    """
    for k in range(first, first + games):
        with new_game(seed, k, game_path(directory, k)) as game:
            ack(f"ack {k} {game.seq + ahead}\n")
            play(game, lambda seq, k=k: ack(f"ack {k} {seq + ahead}\n"))


def _child(
    directory: str, seed: int, first: int, games: int, short: bool, acks: str, ahead: int
) -> None:
    """The forked writer: never returns (``os._exit``), whatever happens."""
    code = 1
    try:
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1):
            os.dup2(devnull, fd)  # keep off the server's protocol pipes
        if short:
            log_file._write_all = short_writes
        fd = os.open(acks, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        write_games(directory, seed, first, games, lambda line: os.write(fd, line.encode()), ahead)
        code = 0
    except BaseException as exc:  # reported on stderr; the harness sees the exit code
        print(f"kill_writer: {exc!r}", file=sys.stderr, flush=True)
    finally:
        os._exit(code)


def serve() -> int:
    """The fork server's loop (see the module docstring)."""
    # Warm up as a long-running writer would be (the converter's generated code, the
    # rules' caches), so a forked writer reaches its first log's creation at once and
    # early kills land inside it.
    play(new_game(0, 0, None, sync=False))
    for line in sys.stdin:
        words = line.split()
        if words[:1] == ["run"]:
            directory, seed, first, games, short, acks, ahead = words[1:]
            pid = os.fork()
            if pid == 0:
                _child(directory, int(seed), int(first), int(games), short == "1", acks, int(ahead))
            print(f"pid {pid}", flush=True)
        elif words[:1] == ["wait"]:
            _, status = os.waitpid(int(words[1]), 0)
            if os.WIFSIGNALED(status):
                print(f"signal {os.WTERMSIG(status)}", flush=True)
            else:
                print(f"exit {os.waitstatus_to_exitcode(status)}", flush=True)
        else:
            print(f"error unknown request {line.strip()!r}", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Append seeded bot games to logs, acking.")
    parser.add_argument("directory", nargs="?", help="where the game-K.dmlog files go")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--first", type=int, default=0, help="the first game's number")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--short-writes", action="store_true")
    parser.add_argument("--ack-ahead", type=int, default=0, help="lie: ack N events early")
    parser.add_argument("--serve", action="store_true", help="run as the harness's fork server")
    args = parser.parse_args(argv)
    if args.serve:
        return serve()
    if args.directory is None:
        parser.error("DIR is required unless --serve")
    if args.short_writes:
        log_file._write_all = short_writes

    def ack(line: str) -> None:
        sys.stdout.write(line)
        sys.stdout.flush()

    write_games(args.directory, args.seed, args.first, args.games, ack, args.ack_ahead)
    return 0


if __name__ == "__main__":
    sys.exit(main())
