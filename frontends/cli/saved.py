"""The terminal's games in the data folder: the last one left unfinished, and all of them.

``dice-miner play`` logs every game it starts to the per-user data folder (unless
``--log`` names another place), so that folder is the player's history: ``play``
offers to continue the newest unfinished game in it, ``play --resume last`` names
that game, and ``stats`` reads the record from the finished ones. A log's
modification time is when it was last played (every move is appended). A log
that cannot be read (torn, damaged, from a newer version) is left out, never fatal:
it is not the one the player asked about.
"""

from __future__ import annotations

import fcntl
import itertools
import os
import time
from collections.abc import Iterator
from pathlib import Path

from attrs import frozen

from core import DiceMinerError, Game, GameState
from frontends.cli.tui.table import seats_from_names, short_name

#: What ``--resume`` takes for "the newest unfinished game in the data folder".
LAST = "last"


def data_dir() -> Path:
    """The per-user folder for game logs (XDG_DATA_HOME, else ~/.local/share)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / "dice-miner"


@frozen
class SavedGame:
    """One logged game of the data folder, as its log now stands."""

    path: Path
    played: float  # when it was last played: the log's modification time
    state: GameState

    @property
    def persons(self) -> tuple[int, ...]:
        """The seats people played (the others are bots, named after their kind)."""
        seats, _ = seats_from_names(self.state.names)
        return tuple(n for n, seat in enumerate(seats) if seat.bot is None)

    @property
    def names(self) -> tuple[str, ...]:
        """The seats' names as the screen shows them: a bot's without its kind."""
        seats, _ = seats_from_names(self.state.names)
        return tuple(short_name(seat) for seat in seats)

    def opponents(self, seat: int) -> list[str]:
        """Everyone at the table but ``seat``, as the screen names them."""
        return [name for n, name in enumerate(self.names) if n != seat]

    def when(self) -> str:
        """When it was last played, in the player's local time: ``27 Nov 14:02``."""
        return time.strftime("%d %b %H:%M", time.localtime(self.played))

    def where(self) -> str:
        """How far the game got, in words: ``round 2 of 3``, ``solo``..."""
        state = self.state
        if state.mode == "solo":
            return "solo game"
        if state.tiebreak:
            return f"tie-break {state.tiebreak}"
        return f"round {max(state.round, 1)} of 3"

    def summary(self) -> str:
        """One line: how far it got, who plays it, when it was last played."""
        state = self.state
        persons = self.persons
        if state.mode == "solo":
            who = ""
        elif len(persons) == 1:
            others = self.opponents(persons[0])
            who = f", {self.names[persons[0]]} against {' and '.join(others)}"
        else:
            who = ", " + ", ".join(self.names)
        return f"{self.where()}{who}, last played {self.when()}"


def logs(folder: Path) -> list[Path]:
    """The game logs directly in ``folder`` (the terminal's; the web's have their own
    sub-folder), most recently played first."""
    try:
        found = [p for p in folder.glob("*.dmlog") if p.is_file()]
    except OSError:
        return []
    return sorted(found, key=_mtime, reverse=True)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def read(path: Path) -> SavedGame | None:
    """The game a log holds, or None if it cannot be read."""
    try:
        game = Game.load(path)
    except (DiceMinerError, OSError, ValueError):
        return None
    return SavedGame(path, _mtime(path), game.state)


def saved_games(folder: Path) -> Iterator[SavedGame]:
    """Every readable game of ``folder``, most recently played first."""
    for path in logs(folder):
        saved = read(path)
        if saved is not None:
            yield saved


#: How many of the most recently played logs are looked through for an unfinished game
#: (each is read whole; one left behind that many games ago is not "the last game").
LOOK_BACK = 50


def in_play(path: Path) -> bool:
    """True if a writer holds the log's lock (``core.log.lock``): the game is open in
    another terminal or a server, so it cannot be continued here now."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)  # refused while a writer holds it
    except OSError:
        return True
    finally:
        os.close(fd)  # and with it the shared lock, if it was taken
    return False


def last_unfinished(folder: Path) -> SavedGame | None:
    """The most recently played game of ``folder`` that is not over, if any. Only one the
    terminal can go on with: not a game whose dice come from a secret it does not hold,
    nor one being played elsewhere right now."""
    for saved in itertools.islice(saved_games(folder), LOOK_BACK):
        state = saved.state
        if not state.is_over and not state.facts.secret_dice and not in_play(saved.path):
            return saved
    return None


__all__ = [
    "LAST",
    "SavedGame",
    "data_dir",
    "in_play",
    "last_unfinished",
    "logs",
    "read",
    "saved_games",
]
