"""Instructions per random 4-player game, counted by valgrind: a figure other jobs cannot move.

    python -m benchmarks.instructions [--games 20] [--rebuild] [--recording] [--web]

The timed figures of ``python -m benchmarks`` move by a third between runs on a
shared machine; an instruction count does not. This runs a worker (this module
with ``--worker N``: one warm-up game, then N seeded games of four ``random``
bots, logs written as ``simulate`` writes them) under ``valgrind
--tool=callgrind`` twice, with N games and with none, and prints the
difference per game, so start-up and imports cancel out. It takes about a
minute for 20 games, and needs valgrind (Debian's ``valgrind`` package).

``--rebuild`` also counts rebuilding a game from its log (``Game.load`` of each
log written: a worker that plays N games and loads their logs, minus one that
only plays them).

``--recording`` also counts the floor under a played game (``benchmarks.recording``:
the same games' commands, events, states, frames and log made and written, with
nothing decided): a worker that plays N games and records them, minus one that
only plays them. What is left of a played game above that floor is the deciding.

``--web`` counts the same kind of game played by the web server's live games
(four ``random`` bots at pace 0, created with ``POST /api/games`` through
Flask's test client, their logs and seats written to a data folder): what a
frontend adds around the engine, minus a worker that creates none.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from functools import partial

from benchmarks.recording import record, recorded_games
from core.bots.series import play_series
from core.game import Game

_COLLECTED = re.compile(r"Collected : (\d+)")


def play(games: int, out_dir: str) -> None:
    """The worker's work: a warm-up game in memory, then ``games`` games with their logs."""
    for _ in play_series(["random"] * 4, 77, 1):
        pass  # first calls build caches (converter hooks, generated code)
    for _ in play_series(["random"] * 4, 1, games, out_dir=out_dir):
        pass


def load(games: int, out_dir: str) -> None:
    """The rebuild worker: ``play``, then every log written read back into a game."""
    play(games, out_dir)
    for name in sorted(os.listdir(out_dir)):
        Game.load(os.path.join(out_dir, name))


def web(games: int, out_dir: str) -> None:
    """The web worker: a warm-up game, then ``games`` bot games run by the live games."""
    from frontends.web.app import create_app  # only this stage needs Flask

    app = create_app({"DATA_DIR": out_dir, "BOT_PACE": 0, "TESTING": True})
    client = app.test_client()
    bots = [{"bot": "random"}] * 4
    live_games = app.extensions["dice_miner"].games
    try:
        for seed in [77, *range(1, games + 1)]:
            answer = client.post("/api/games", json={"players": bots, "seed": seed, "pace": 0})
            if answer.status_code != 201:
                raise RuntimeError(f"POST /api/games answered {answer.status_code}: {answer.text}")
            _wait_for_the_end(live_games.get(answer.get_json()["id"]))
    finally:
        live_games.close()


def _wait_for_the_end(live) -> None:
    """Until the live game's bots have played it to its end."""
    with live.cond:
        if not live.cond.wait_for(lambda: live.state.is_over, timeout=600):
            raise RuntimeError(f"game {live.id} did not end")


def record_games(games: int, out_dir: str, *, write: bool) -> None:
    """The recording worker: ``games`` games played (as facts), then recorded if ``write``."""
    played = recorded_games(games)
    if write:
        for index, game in enumerate(played):
            record(game, os.path.join(out_dir, f"game-{index:04d}.dmlog"))


def collected(stderr: str) -> int:
    """The instruction count callgrind reports on its standard error."""
    found = _COLLECTED.search(stderr)
    if found is None:
        raise ValueError(f"callgrind reported no count: {stderr.strip()[-200:]!r}")
    return int(found.group(1))


def count(games: int, stage: str = "play") -> int:
    """Instructions of one worker run (``stage`` of ``games`` games), start-up included."""
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        sys.executable, "-m", "benchmarks.instructions", "--worker", str(games), "--stage", stage,
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return collected(done.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.instructions", description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="games to count (default 20)")
    parser.add_argument(
        "--rebuild", action="store_true", help="also count rebuilding each game from its log"
    )
    parser.add_argument(
        "--recording", action="store_true", help="also count the recording floor (as many games)"
    )
    parser.add_argument(
        "--web", action="store_true", help="also count the games played by the web's live games"
    )
    parser.add_argument("--worker", type=int, metavar="N", help=argparse.SUPPRESS)
    parser.add_argument("--stage", choices=STAGES, default="play", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker is not None:
        with tempfile.TemporaryDirectory(prefix="dm-instr-") as folder:
            STAGES[args.stage](args.worker, folder)
        return 0
    if args.games < 1:
        parser.error("--games must be at least 1")
    if shutil.which("valgrind") is None:
        print("benchmarks.instructions: valgrind is not installed", file=sys.stderr)
        return 2
    played = count(args.games)
    per_game = (played - count(0)) // args.games
    print(f"{per_game:,} instructions per random 4-player game ({args.games} games, logs written)")
    if args.rebuild:
        rebuild = (count(args.games, "load") - played) // args.games
        print(f"{rebuild:,} instructions to rebuild one of them from its log (Game.load)")
    if args.recording:
        floor = (count(args.games, "record") - count(args.games, "facts")) // args.games
        share = f"{floor / per_game:.0%}"
        print(f"{floor:,} of them recording the game's facts, nothing decided ({share})")
    if args.web:
        served = (count(args.games, "web") - count(0, "web")) // args.games
        ratio = f"{served / per_game:.2f} x a game"
        print(f"{served:,} instructions per game run by the web's live games ({ratio})")
    return 0


#: What a worker run does: play games, or make games' facts and record them (or not).
STAGES = {
    "play": play,
    "load": load,
    "record": partial(record_games, write=True),
    "facts": partial(record_games, write=False),
    "web": web,
}


if __name__ == "__main__":
    raise SystemExit(main())
