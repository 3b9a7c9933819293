"""The Python API that frontends, bots and scripts use to run a game.

    game = Game.new(["Ada", "Brok"], seed=7)
    game.legal()              # the commands of the player to act
    game.issue(command)       # events appended (and fsynced, for a file log) or RuleError
    game.undo()               # one command back; the log only grows
    game.state                # the projected GameState

A command is decided against the current state with a generator opened for it
alone: its stream is the number of commands standing in the game's history, so
undoing a command and issuing it again rolls exactly the same dice.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from core.commands import Command, NewGame, Undo, parse_command
from core.dice import DICE_SET
from core.errors import LogDamaged, RuleError
from core.events.base import Event
from core.events.codec import Batch
from core.events.game import CommandUndone
from core.log import LogScan
from core.projections.state import GameState
from core.projections.timeline import Timeline, UnreplayableBatch, push
from core.rng import DiceRng
from core.rules import RULES_VERSION, resolve
from core.rules.checks import check_seat
from core.rules.legal import legal_commands
from core.rules.setup import check_new_game
from core.store import EventStore, FileStore, MemoryStore, load_batches


def log_header(command: NewGame) -> dict[str, Any]:
    """The header a new game's log starts with: what a reader needs before the events."""
    return {
        "dice_set": DICE_SET,
        "rules": RULES_VERSION,
        "game_id": command.game_id,
        "mode": command.mode,
        "players": list(command.players),
        "seed": command.seed,
    }


def _replay(batches: Iterable[Batch], scan: LogScan) -> Timeline:
    """Replay a log's batches; one that passed its checksum but cannot be applied is damage.

    So is a log that ends after its header: every log this program writes is
    created with its game's opening batch, so one without it was cut short.
    """
    try:
        timeline = Timeline().apply_batches(batches)
    except UnreplayableBatch as exc:  # e.g. a crafted record naming a slot that does not exist
        offset, reason = scan.offsets[exc.index], f"cannot be replayed ({exc.cause})"
        raise LogDamaged(scan.path, offset, exc.index + 1, reason) from exc.cause
    if timeline.state is None:
        raise LogDamaged(scan.path, scan.end, 1, "the log ends after its header: it holds no game")
    return timeline


class Game:
    """A game: its event store and its timeline (the effective history, for undo)."""

    def __init__(self, store: EventStore, timeline: Timeline | None = None) -> None:
        self.store = store
        self.timeline = timeline or Timeline()

    # -- starting and loading ------------------------------------------------

    @classmethod
    def new(
        cls,
        players: Iterable[str],
        seed: int,
        *,
        mode: str = "multi",
        hero_deal: str = "choose",
        starting_magic: int = 3,
        game_id: str | None = None,
        log: str | os.PathLike | None = None,
        sync: bool = True,
    ) -> Game:
        """Start a seeded game, logged to the file ``log`` or kept in memory."""
        command = NewGame(
            tuple(players),
            seed,
            game_id=game_id if game_id is not None else f"{seed:016x}" if type(seed) is int else "",
            mode=mode,
            hero_deal=hero_deal,
            starting_magic=starting_magic,
        )
        check_new_game(command)  # bad options refused before anything is rolled or written
        events, state = resolve(None, command, DiceRng(seed, 0))
        header = log_header(command)
        batch = Batch(0, command, events)
        if log is None:
            store: EventStore = MemoryStore(header)
            store.append(batch)
        else:  # the opening batch is part of the file's atomic creation
            store = FileStore.create(log, header, batch, sync=sync)
        return cls(store, push(Timeline(), batch, state))

    @classmethod
    def open(cls, path: str | os.PathLike, *, sync: bool = True) -> Game:
        """Continue a game from its log file (taking the writer's lock)."""
        store = FileStore.open(path, sync=sync)
        try:
            timeline = _replay(store.batches(), store.scan)
        except BaseException:
            store.close()  # release the writer's lock
            raise
        return cls(store, timeline)

    @classmethod
    def load(cls, path: str | os.PathLike, *, drop_torn: bool = False) -> Game:
        """Read a log into memory, for viewing or for playing on without touching the file."""
        scan, batches = load_batches(path, drop_torn=drop_torn)
        store = MemoryStore.holding(scan.header, scan.payloads, batches)
        return cls(store, _replay(batches, scan))

    # -- reading -------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The current projected state."""
        return self.timeline.state

    @property
    def seq(self) -> int:
        """The seq the next event will get (the number of events in the log)."""
        return self.timeline.seq

    def to_act(self) -> int | None:
        """The seat the game waits for, ``None`` once it is over."""
        return self.state.to_act()

    def legal(self) -> list[Command]:
        """The legal commands of the player to act (undo aside)."""
        return list(legal_commands(self.state))

    def batches(self, from_seq: int = 0) -> list[Batch]:
        """The log's batches whose events reach ``from_seq`` or later."""
        return list(self.store.batches(from_seq))

    def events(self, from_seq: int = 0) -> list[tuple[int, Event]]:
        """``(seq, event)`` for every logged event from ``from_seq`` on."""
        return [
            (b.seq + i, e)
            for b in self.store.batches(from_seq)
            for i, e in enumerate(b.events)
            if b.seq + i >= from_seq
        ]

    # -- acting --------------------------------------------------------------

    def issue(self, command: Command) -> tuple[Event, ...]:
        """Decide ``command`` and log its events; a RuleError leaves everything unchanged."""
        if isinstance(command, Undo):
            return self.undo(command.seat)
        events, state = resolve(self.state, command, self.rng())
        self._commit(command, events, state)
        return events

    def issue_text(self, text: str, seat: int | None = None) -> tuple[Event, ...]:
        """Parse and issue a typed command for ``seat`` (the player to act by default)."""
        return self.issue(parse_command(text, self.to_act() if seat is None else seat))

    def undo(self, seat: int | None = None) -> tuple[Event, ...]:
        """Step back one command; the undo is itself an event, the log is never rewritten."""
        if not self.timeline.can_undo():
            raise RuleError("nothing_to_undo", "there is nothing to undo")
        if seat is not None:
            check_seat(self.state, seat)  # it is logged: never a value that cannot be read back
        events = (CommandUndone(self.timeline.top.batch_seq),)
        self._commit(Undo(seat), events)
        return events

    def undo_turn(self, seat: int) -> int:
        """Undo back to just before ``seat``'s last command (and everything after it).

        This is what a player at a table with bots means by undo: their own move
        back, with the bots' replies. Returns how many commands were undone (0 if
        ``seat`` has no command to take back).
        """
        frame, steps = self.timeline.top, 0
        while frame.depth > 1 and getattr(frame.command, "seat", None) != seat:
            frame, steps = frame.below, steps + 1
        if frame.depth <= 1:
            return 0
        for _ in range(steps + 1):
            self.undo(seat)
        return steps + 1

    def rng(self) -> DiceRng:
        """The generator of the next command: one stream per position in the history."""
        return DiceRng(self.state.seed, self.timeline.depth)

    def _commit(
        self, command: Command, events: tuple[Event, ...], state: GameState | None = None
    ) -> None:
        batch = Batch(self.timeline.seq, command, events)
        self.store.append(batch)  # durable before it counts
        if state is None:
            self.timeline = self.timeline.apply_batch(batch)
        else:
            self.timeline = push(self.timeline, batch, state)

    def close(self) -> None:
        """Close the log (releasing the writer's lock)."""
        self.store.close()

    def __enter__(self) -> Game:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
