"""A series of seeded games between bots: what ``simulate`` and the strength measurement run.

Game ``i`` of a series from seed ``S`` is played with seed ``derive_seed(S, i)``,
so any game of a series can be replayed alone. Games are played in memory and,
when asked, written out as a log file in one write at the end: the same bytes a
file log would hold (the store keeps the encoded batches), with no fsync, no
lock file and no wall-clock time, so the same arguments give byte-identical logs.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from attrs import frozen

from core.bots.play import play_game
from core.bots.registry import make_bot
from core.game import Game
from core.projections.state import GameState
from core.rng import derive_seed


@frozen
class GameResult:
    """How one game of a series went."""

    index: int
    seed: int
    bots: tuple[str, ...]  # the bot playing each seat
    totals: tuple[int, ...]  # each seat's final total
    winners: tuple[int, ...]  # more than one: a shared win
    events: int
    path: str | None  # the log written, if any


def player_names(bots: Sequence[str]) -> tuple[str, ...]:
    """The names the bots play under: ``greedy-1``, ``random-2`` ... (seat numbers from 1)."""
    return tuple(f"{bot}-{seat + 1}" for seat, bot in enumerate(bots))


def log_name(index: int, seed: int) -> str:
    """The file name of game ``index`` of a series."""
    return f"game-{index:04d}-{seed:016x}.dmlog"


def lineup(bots: Sequence[str], index: int, rotate: bool) -> tuple[str, ...]:
    """The bots by seat for game ``index``; ``rotate`` moves everyone one seat per game."""
    if not rotate:
        return tuple(bots)
    shift = index % len(bots)
    return tuple(bots[(seat - shift) % len(bots)] for seat in range(len(bots)))


def play_one(
    bots: Sequence[str], seed: int, index: int, *, out_dir: str | None = None, rotate: bool = False
) -> GameResult:
    """Play game ``index`` of the series from ``seed``; write its log into ``out_dir``."""
    seats = lineup(bots, index, rotate)
    game_seed = derive_seed(seed, index)
    mode = "solo" if len(seats) == 1 else "multi"
    game = Game.new(player_names(seats), game_seed, mode=mode)
    state = play_game(game, [make_bot(name) for name in seats])
    path = None
    if out_dir is not None:
        path = os.path.join(out_dir, log_name(index, game_seed))
        write_log(game, path)
    return GameResult(index, game_seed, seats, final_scores(state), state.winners, game.seq, path)


def final_scores(state: GameState) -> tuple[int, ...]:
    """Each seat's final score: the running totals, or the solo game's score."""
    if state.mode == "solo":
        from core.modes.solo.scoring import solo_score  # the solo game's own scoring

        return (solo_score(state).score,)
    return state.totals()


def play_series(
    bots: Sequence[str],
    seed: int,
    games: int,
    *,
    out_dir: str | None = None,
    rotate: bool = False,
    start: int = 0,
    jobs: int = 1,
    skip: Collection[int] = frozenset(),
) -> Iterator[GameResult]:
    """Games ``start`` .. ``start + games - 1`` of the series, one result at a time, in order.

    With ``jobs`` above 1 the games are played in that many processes; each game
    depends only on its seed, so the results and logs are the same either way.
    Indices in ``skip`` are not played (games already logged, read back instead).
    """
    indices = [index for index in range(start, start + games) if index not in skip]
    if jobs <= 1:
        for index in indices:
            yield play_one(bots, seed, index, out_dir=out_dir, rotate=rotate)
        return
    one = partial(_play_index, tuple(bots), seed, out_dir, rotate)
    with ProcessPoolExecutor(jobs) as pool:
        chunk = max(1, min(8, len(indices) // (4 * jobs)))
        yield from pool.map(one, indices, chunksize=chunk)


def _play_index(bots, seed, out_dir, rotate, index) -> GameResult:
    return play_one(bots, seed, index, out_dir=out_dir, rotate=rotate)


def logged_result(
    bots: Sequence[str], seed: int, index: int, path: str, *, rotate: bool = False
) -> GameResult:
    """Game ``index`` of the series read back from its log (``path``), not played again.

    The log must be that game's, whole and finished: its header names the game's
    seed and players, and the game is over. Anything else raises ``ValueError``
    (or the log's own ``DiceMinerError``) saying why.
    """
    seats = lineup(bots, index, rotate)
    game = Game.load(path)
    header, state = game.header, game.state
    game_seed = derive_seed(seed, index)
    if header.get("seed") != game_seed or header.get("players") != list(player_names(seats)):
        raise ValueError(f"not game {index} of this series (its seed or its players differ)")
    if not state.is_over:
        raise ValueError(f"game {index} stops before its end (event {game.seq})")
    return GameResult(index, game_seed, seats, final_scores(state), state.winners, game.seq, path)


def log_bytes(game: Game) -> bytes:
    """The log file of an in-memory game, byte for byte what ``Game.new(log=...)`` writes."""
    return game.export()


def write_log(game: Game, path: str) -> None:
    """Write an in-memory game's log to a new file (never over an existing one), unsynced."""
    with open(path, "xb") as f:
        f.write(log_bytes(game))


__all__ = [
    "GameResult",
    "final_scores",
    "lineup",
    "log_bytes",
    "log_name",
    "logged_result",
    "play_one",
    "play_series",
    "player_names",
    "write_log",
]
