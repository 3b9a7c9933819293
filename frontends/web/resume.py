"""Taking the data folder's games up again when the server starts, so no game is lost to a restart.

Every ``web-<id>.dmlog`` with its seats file (``seatfile``) is read. An
unfinished game is reopened for play (``Game.open``, which takes the writer's
lock): the same links work again and its bots carry on. A finished game is
loaded for watching only (its page and its events, as before the restart).
The oldest unfinished games come first when there are more than the
registry's limit allows; finished ones fill what room is left, newest first.

A game that cannot be taken up (a damaged log, one another process is
writing, a seats file missing or malformed, no room) is left exactly as it is
on disk and reported in one line naming the file and the reason; the others
are resumed all the same.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from attrs import define, field

from core.errors import DiceMinerError, LogLocked, TornRecord
from core.game import Game
from frontends.web.games import GameRegistry, LiveGame
from frontends.web.seatfile import (
    LOG_NAME,
    SEATS_SUFFIX,
    Seats,
    SeatsFileError,
    check_against,
    read_seats,
    seats_path,
)


@define
class ResumeReport:
    """What a start made of the data folder: the ids taken up, and a line for each file left."""

    resumed: list[str] = field(factory=list)  # unfinished games, open for play again
    finished: list[str] = field(factory=list)  # finished games, listed for watching
    skipped: list[str] = field(factory=list)  # one line each: the file and the reason

    def summary(self) -> str:
        """One line for the server's start-up message."""
        return (
            f"{len(self.resumed)} unfinished game(s) resumed, {len(self.finished)} finished "
            f"listed, {len(self.skipped)} skipped (named on stderr)"
        )


@define
class _Found:
    """A game of the data folder that was read: its log, seats and age (the seats file's mtime)."""

    log: Path
    seats: Seats
    age: tuple[int, str]
    game: Game  # read into memory, no lock held


def resume_games(registry: GameRegistry, say: Callable[[str], None] | None = None) -> ResumeReport:
    """Take up the games logged in the registry's data folder; ``say`` gets each skipped line."""
    report = ResumeReport()

    def skip(path: Path, reason: str) -> None:
        line = f"{path}: not resumed: {reason}"
        report.skipped.append(line)
        if say is not None:
            say(line)

    found = _read_folder(registry.data_dir, skip)
    unfinished = sorted((f for f in found if not f.game.state.is_over), key=lambda f: f.age)
    finished = sorted((f for f in found if f.game.state.is_over), key=lambda f: f.age)
    room = registry.limit - len(registry.all())
    taken: list[tuple[_Found, LiveGame]] = []
    for item in unfinished:
        if room <= 0:
            skip(item.log, f"the server's limit of {registry.limit} games is reached")
            continue
        live = _reopen(registry, item, skip)
        if live is not None:
            taken.append((item, live))
            report.resumed.append(live.id)
            room -= 1
    shown = finished[::-1][: max(room, 0)]  # the newest finished games, as many as fit
    left = len(finished) - len(shown)
    if left:
        skip(
            registry.data_dir,
            f"{left} finished game(s) not listed (the limit of "
            f"{registry.limit} games is reached); their logs stay there",
        )
    for item in shown:
        live = LiveGame(item.seats.game_id, item.game, item.seats.seats, 0.0, playable=False)
        taken.append((item, live))
        report.finished.append(live.id)
    for _, live in sorted(taken, key=lambda pair: pair[0].age):  # the oldest first, as created
        registry.adopt(live)
    return report


def _read_folder(folder: Path, skip: Callable[[Path, str], None]) -> list[_Found]:
    """Every game of the folder with a good log and good seats; the others are skipped."""
    try:
        names = sorted(os.listdir(folder))
    except FileNotFoundError:
        return []
    except OSError as exc:
        skip(folder, f"cannot list the folder ({exc.strerror or exc})")
        return []
    found = []
    logs = {name for name in names if LOG_NAME.match(name)}
    for name in names:
        if name.endswith(SEATS_SUFFIX) and f"{name.removesuffix(SEATS_SUFFIX)}.dmlog" not in logs:
            skip(folder / name, "there is no game log next to it")
    for name in sorted(logs):
        item = _read_one(folder / name, LOG_NAME.match(name).group(1), skip)
        if item is not None:
            found.append(item)
    return found


def _read_one(log: Path, game_id: str, skip: Callable[[Path, str], None]) -> _Found | None:
    """One game read into memory (no lock taken), or None after saying why not."""
    seats_file = seats_path(log)
    try:
        seats = read_seats(seats_file, game_id)
        age = (seats_file.stat().st_mtime_ns, log.name)
    except FileNotFoundError:
        skip(log, f"its seats file {seats_file.name} is missing")
        return None
    except OSError as exc:
        skip(log, f"its seats file {seats_file.name} cannot be read ({exc.strerror or exc})")
        return None
    except SeatsFileError as exc:
        skip(log, f"its seats file {seats_file.name} is malformed: {exc}")
        return None
    try:
        game = Game.load(log)
        header_id = game.header.get("game_id")
        if header_id != game_id:
            skip(log, f"the log is of game {header_id!r}, not {game_id!r}")
            return None
        check_against(seats, game.state.mode, game.state.names)
    except SeatsFileError as exc:
        skip(log, f"its seats file {seats_file.name} is malformed: {exc}")
        return None
    except (DiceMinerError, OSError, ValueError) as exc:
        skip(log, _reason(exc, log))
        return None
    except Exception as exc:  # one bad file must not stop the server starting
        skip(log, f"cannot be read ({type(exc).__name__}: {exc})")
        return None
    return _Found(log, seats, age, game)


def _reopen(
    registry: GameRegistry, item: _Found, skip: Callable[[Path, str], None]
) -> LiveGame | None:
    """An unfinished game opened for play (the writer's lock taken), or None after saying why."""
    try:
        game = Game.open(item.log)
    except (DiceMinerError, OSError, ValueError) as exc:
        skip(item.log, _reason(exc, item.log))
        return None
    if game.state.is_over or game.seq != item.game.seq:  # written to since it was read
        game.close()
        skip(item.log, "the log changed while the server was starting")
        return None
    seats = item.seats
    pace = registry.pace if seats.pace is None else seats.pace
    try:
        return LiveGame(seats.game_id, game, seats.seats, pace)
    except Exception as exc:  # one bad game must not stop the server starting
        game.close()
        skip(item.log, f"cannot be taken up ({type(exc).__name__}: {exc})")
        return None


def _reason(exc: BaseException, log: Path) -> str:
    """The error's message without the log's path in front (the line names it already)."""
    text = str(exc) or type(exc).__name__
    for prefix in (f"{log}: ", f"{log} "):
        if text.startswith(prefix):
            text = text[len(prefix) :]
    if isinstance(exc, LogLocked):
        text = f"the log {text}"
    elif isinstance(exc, TornRecord):
        text += f"; `dice-miner log repair {log}` drops the torn record"
    return text


__all__ = ["ResumeReport", "resume_games"]
