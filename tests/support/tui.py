"""The terminal game without a terminal, for the TUI tests: seeded sessions played on by
the simplest key, and a ``PlayApp`` run on prompt-toolkit's pipe input as a player drives it."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from core.game import Game
from frontends.cli.tui.app import PlayApp
from frontends.cli.tui.session import Session
from frontends.cli.tui.table import Seat, bot_seat

SEATS = (Seat("You"), bot_seat("Brok", "random"), bot_seat("Cira", "random"))


def session_for(seed: int, seats=SEATS, mode: str = "multi") -> Session:
    return Session(Game.new([s.name for s in seats], seed, mode=mode), seats)


def step(session: Session) -> None:
    """One move by whoever is to act: bots by themselves, the person by the simplest key."""
    if session.overlay in ("round", "help", "handover"):
        session.back()
    elif session.bot_step():
        pass
    elif session.chooser.mode() == "magic":
        session.chooser.end_turn()
    else:
        session.chooser.choose()


def advance(session: Session, condition, limit: int = 400) -> bool:
    """Play on until ``condition(session)`` holds for the person to act; False if it never does."""
    for _ in range(limit):
        if session.human_to_act() is not None and session.overlay is None and condition(session):
            return True
        if session.state.is_over:
            return False
        step(session)
    return False


def find(condition, seeds=range(40)) -> Session:
    """The first seeded game that reaches ``condition``."""
    for seed in seeds:
        session = session_for(seed)
        if advance(session, condition):
            return session
    raise AssertionError("no seed reached the situation")


ENTER, ESC = "\r", "\x1b"


async def until(condition, timeout: float = 10.0) -> None:
    """Wait (letting the app run) until ``condition()`` holds."""
    for _ in range(int(timeout / 0.005)):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("timed out waiting for the application")


class Player:
    """Sends keys to a running PlayApp and waits for each to take effect."""

    def __init__(self, play: PlayApp, pipe) -> None:
        self.play, self.pipe = play, pipe
        self.session = play.session

    def _look(self):
        s, c = self.session, self.session.chooser
        look = (s.game.seq, s.overlay, c.mode(), c.picked, c.source, c.cursor, s.status, c.menu)
        return (*look, self.play.cmdline_open)

    async def ready(self) -> None:
        """Wait until the screen waits for a person: their turn, an overlay, or the end."""
        s = self.session
        await until(lambda: s.overlay is not None or s.human_to_act() is not None)

    async def press(self, keys: str) -> None:
        """Send keys and wait until they changed something."""
        before = self._look()
        self.pipe.send_text(keys)
        await until(lambda: self._look() != before)


@asynccontextmanager
async def running(session: Session, pace: float = 0.0):
    """A PlayApp over ``session`` running on pipe input; yields the Player."""
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        play = PlayApp(session, pace=pace)
        task = asyncio.ensure_future(play.run_async())
        await until(lambda: play.app.is_running)
        try:
            yield Player(play, pipe)
        finally:
            play.quit()
            await asyncio.wait_for(task, 5)


def new_session(tmp_path, seed: int = 11) -> Session:
    path = tmp_path / "game.dmlog"
    game = Game.new([s.name for s in SEATS], seed, log=path, sync=False)
    return Session(game, SEATS, path)
