"""The Python API that frontends, bots and scripts use to run a game.

    game = Game.new(["Ada", "Brok"], seed=7)
    game.legal()              # the commands of the player to act
    game.issue(command)       # a Commit (the batch logged, the states around each event)
    game.undo()               # one command back; the log only grows
    game.state                # the projected GameState

A game lives in a store's stream (``core.store``): in memory by default, in a
log file with ``log=PATH``, in any store with ``store=STORE``. A command is
decided against the current state with a generator opened for it alone: its
stream is the number of commands standing in the game's history, so undoing a
command and issuing it again rolls exactly the same dice.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from core.commands import Command, NewGame, Undo, parse_command
from core.dice import DICE_SET
from core.errors import GameDamaged, LogDamaged, RuleError
from core.events.base import Event
from core.events.codec import Batch
from core.events.game import CommandUndone
from core.projections.apply import fold_each
from core.projections.state import PREGAME, GameState
from core.projections.steps import Commit
from core.projections.timeline import Timeline, UnreplayableBatch, push
from core.rng import DiceRng
from core.rules import RULES_VERSION, emit_command, resolve_steps
from core.rules.checks import check_seat
from core.rules.legal import legal_commands
from core.rules.setup import check_new_game
from core.store import FileStream, MemoryStream, Seating, Store, Stream, load_batches


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


def replay_stream(stream: Stream, batches: Iterable[Batch] | None = None) -> Timeline:
    """Replay a stream's batches; one that passed its checksum but cannot be applied is damage.

    So is a log that ends after its header: every log this program writes is
    created with its game's opening batch, so one without it was cut short.
    """
    try:
        timeline = Timeline().apply_batches(stream.batches() if batches is None else batches)
    except UnreplayableBatch as exc:  # e.g. a crafted record naming a slot that does not exist
        reason = f"cannot be replayed ({exc.cause})"
        raise stream.damaged(exc.index + 1, reason) from exc.cause
    if timeline.state is PREGAME:
        raise stream.damaged(1, "the log ends after its header: it holds no game")
    return timeline


class Game:
    """A game: the stream its batches are kept in, and its timeline (the effective
    history, for undo)."""

    def __init__(self, stream: Stream, timeline: Timeline | None = None) -> None:
        self.stream = stream
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
        log: str | os.PathLike[str] | None = None,
        store: Store | None = None,
        seating: Seating | None = None,
        sync: bool = True,
    ) -> Game:
        """Start a seeded game: in ``store`` (with its ``seating`` beside it), in the log
        file ``log``, or kept in memory."""
        command = NewGame(
            tuple(players),
            seed,
            game_id=game_id if game_id is not None else f"{seed:016x}" if type(seed) is int else "",
            mode=mode,
            hero_deal=hero_deal,
            starting_magic=starting_magic,
        )
        check_new_game(command)  # bad options refused before anything is rolled or written
        events, states = resolve_steps(PREGAME, command, DiceRng(seed, 0))
        header = log_header(command)
        batch = Batch(0, command, events)
        stream: Stream  # the opening batch is part of the game's atomic creation
        if store is not None:
            stream = store.create(header, batch, seating)
        elif log is not None:
            stream = FileStream.create(log, header, batch, sync=sync)
        else:
            stream = MemoryStream.new(header, batch)
        return cls(stream, push(Timeline(), batch, states[-1]))

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, sync: bool = True) -> Game:
        """Continue a game from its log file (taking the writer's lock)."""
        return cls.from_stream(FileStream.open(path, sync=sync))

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, drop_torn: bool = False) -> Game:
        """Read a log into memory, for viewing or for playing on without touching the file."""
        scan, batches = load_batches(path, drop_torn=drop_torn)
        stream = MemoryStream.holding(scan.header, scan.payloads, batches)
        try:
            timeline = replay_stream(stream, batches)
        except GameDamaged as exc:  # named by the file's offsets, as a reader of it expects
            offset = scan.offsets[exc.record - 1] if exc.record <= len(scan.offsets) else scan.end
            raise LogDamaged(scan.path, offset, exc.record, exc.reason) from exc.__cause__
        return cls(stream, timeline)

    @classmethod
    def resume(cls, store: Store, game_id: str) -> Game:
        """Continue a stored game (``GameNotFound`` if the store has none of that id)."""
        return cls.from_stream(store.open(game_id))

    @classmethod
    def from_stream(cls, stream: Stream) -> Game:
        """The game a stream holds, replayed; the stream is closed if it cannot be."""
        try:
            timeline = replay_stream(stream)
        except BaseException:
            stream.close()  # release the writer's lock
            raise
        return cls(stream, timeline)

    # -- reading -------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The current projected state."""
        return self.timeline.state

    @property
    def seq(self) -> int:
        """The seq the next event will get (the number of events in the log)."""
        return self.timeline.seq

    @property
    def header(self) -> Mapping[str, Any]:
        """The log's header (the game's id, mode, players, seed...)."""
        return self.stream.header

    @property
    def game_id(self) -> str:
        """The game's id in its store."""
        return self.stream.game_id

    def to_act(self) -> int | None:
        """The seat the game waits for, ``None`` once it is over."""
        return self.state.to_act()

    def legal(self) -> list[Command]:
        """The legal commands of the player to act (undo aside)."""
        return list(legal_commands(self.state))

    def batches(self, from_seq: int = 0) -> list[Batch]:
        """The log's batches whose events reach ``from_seq`` or later."""
        return list(self.stream.batches(from_seq))

    def events(self, from_seq: int = 0) -> list[tuple[int, Event]]:
        """``(seq, event)`` for every logged event from ``from_seq`` on."""
        return [
            (b.seq + i, e)
            for b in self.stream.batches(from_seq)
            for i, e in enumerate(b.events)
            if b.seq + i >= from_seq
        ]

    def export(self) -> bytes:
        """The game's log as a ``.dmlog`` file's bytes, whatever store keeps it."""
        return self.stream.export()

    # -- acting --------------------------------------------------------------

    def issue(self, command: Command) -> Commit:
        """Decide ``command`` and log its events; a RuleError leaves everything unchanged.

        A ``StoreConflict`` means another writer appended first: nothing was
        written, and ``catch_up`` brings this game to where the store is.
        """
        if isinstance(command, Undo):
            return self.undo(command.seat)
        before = self.timeline
        out = emit_command(before.state, command, DiceRng(before.state.seed, before.top.depth))
        batch = Batch(before.seq, command, tuple(out.events))
        self.stream.append(batch)  # durable before it counts
        self.timeline = push(before, batch, out.state)
        return Commit.of(batch, before.state, tuple(out.states))

    def issue_text(self, text: str, seat: int | None = None) -> Commit:
        """Parse and issue a typed command for ``seat`` (the player to act by default)."""
        return self.issue(parse_command(text, self.to_act() if seat is None else seat))

    def undo(self, seat: int | None = None) -> Commit:
        """Step back one command; the undo is itself an event, the log is never rewritten."""
        if not self.timeline.can_undo():
            raise RuleError("nothing_to_undo", "there is nothing to undo")
        if seat is not None:
            check_seat(self.state, seat)  # it is logged: never a value that cannot be read back
        before = self.timeline
        batch = Batch(before.seq, Undo(seat), (CommandUndone(before.top.batch_seq),))
        self.stream.append(batch)
        self.timeline = before.apply_batch(batch)
        return Commit(batch, before.state, (self.timeline.state,))

    def undo_turn(self, seat: int) -> list[Commit]:
        """Undo back to just before ``seat``'s last command (and everything after it).

        This is what a player at a table with bots means by undo: their own move
        back, with the bots' replies. Returns the undos' commits, oldest first
        (none if ``seat`` has no command to take back).
        """
        frame, steps = self.timeline.top, 0
        while frame.depth > 1 and getattr(frame.command, "seat", None) != seat:
            frame, steps = frame.below, steps + 1  # type: ignore[assignment]  # depth > 1: one below
        if frame.depth <= 1:
            return []
        return [self.undo(seat) for _ in range(steps + 1)]

    def catch_up(self) -> list[Commit]:
        """Fold the batches other writers have appended since this game last looked.

        Where several processes share a store, each keeps its own ``Game``: this
        is how one learns of the others' moves (the commits say what they were).
        """
        batches = list(self.stream.batches(self.seq))
        first_record = len(self.stream.payloads()) - len(batches) + 1
        commits = []
        for number, batch in enumerate(batches, start=first_record):
            before = self.timeline
            try:
                if isinstance(batch.command, Undo):
                    self.timeline = before.apply_batch(batch)
                    afters = (self.timeline.state,) * len(batch.events)
                else:
                    afters = fold_each(batch.events, before.state)
                    self.timeline = push(before, batch, afters[-1])
            except Exception as exc:  # a batch the rules' fold refuses is damage
                self.timeline = before
                raise self.stream.damaged(number, f"cannot be replayed ({exc})") from exc
            commits.append(Commit(batch, before.state, afters))
        return commits

    def rng(self) -> DiceRng:
        """The generator of the next command: one stream per position in the history."""
        return DiceRng(self.state.seed, self.timeline.depth)

    def close(self) -> None:
        """Close the stream (releasing a log file's writer lock)."""
        self.stream.close()

    def __enter__(self) -> Game:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
