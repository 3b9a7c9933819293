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

A game between people is started with ``secret=`` (32 random bytes) instead of
a seed: its log commits to the secret's SHA-256 and never holds the secret
until the game is over (``reveal``), so nobody can foresee a roll, and anyone
can check afterwards that every roll came from it (``core.verify``).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping
from typing import Any

import core.modes  # noqa: F401  (installs the modes: a game is played by their rules)
from core.commands import BranchGame, Command, NewGame, RevealSeed, Undo, parse_command
from core.dice import DICE_SET
from core.errors import GameDamaged, LogDamaged, RuleError
from core.events.base import Event
from core.events.codec import Batch
from core.events.game import CommandUndone
from core.projections.apply import fold_each
from core.projections.state import PREGAME, GameState
from core.projections.steps import Commit
from core.projections.timeline import Timeline, UnreplayableBatch, begins_history, push
from core.rng import DiceRng
from core.rules import RULES_VERSION, emit_command, resolve_steps, verbs_of
from core.rules.checks import check_seat
from core.rules.legal import legal_commands
from core.rules.setup import check_new_game
from core.store import FileStream, LogScan, MemoryStream, Seating, Store, Stream, load_batches


def log_header(command: NewGame) -> dict[str, Any]:
    """The header a new game's log starts with: what a reader needs before the events
    (a secret seed's commitment, or who chose the seed, only when there is one)."""
    header: dict[str, Any] = {
        "dice_set": DICE_SET,
        "rules": RULES_VERSION,
        "game_id": command.game_id,
        "mode": command.mode,
        "players": list(command.players),
        "seed": command.seed,
    }
    if command.commitment:
        header["commitment"] = command.commitment
    if command.seed_chosen_by:
        header["seed_chosen_by"] = command.seed_chosen_by
    return header


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


def replay_scan(scan: LogScan, batches: list[Batch], stream: Stream | None = None) -> Timeline:
    """Replay a log's decoded batches; a record that cannot be applied (or a log with no
    game) is ``LogDamaged`` named by the log's own offsets, as a reader of it expects."""
    if stream is None:
        stream = MemoryStream.holding(scan.header, scan.payloads, batches)
    try:
        return replay_stream(stream, batches)
    except GameDamaged as exc:
        offset = scan.offsets[exc.record - 1] if exc.record <= len(scan.offsets) else scan.end
        raise LogDamaged(scan.path, offset, exc.record, exc.reason) from exc.__cause__


class Game:
    """A game: the stream its batches are kept in, and its timeline (the effective
    history, for undo)."""

    def __init__(
        self, stream: Stream, timeline: Timeline | None = None, *, secret: bytes | None = None
    ) -> None:
        self.stream = stream
        self.timeline = timeline or Timeline()
        #: The secret the dice come from, while the log only commits to it (the host's).
        self.secret = secret
        if secret is not None and self.timeline.state is not None:
            self._check_secret(secret)

    # -- starting and loading ------------------------------------------------

    @classmethod
    def new(
        cls,
        players: Iterable[str],
        seed: int | None = None,
        *,
        mode: str = "multi",
        hero_deal: str = "choose",
        starting_magic: int = 3,
        game_id: str | None = None,
        log: str | os.PathLike[str] | None = None,
        store: Store | None = None,
        seating: Seating | None = None,
        secret: bytes | None = None,
        seed_chosen_by: str = "",
        practice: str = "",
        sync: bool = True,
    ) -> Game:
        """Start a game: in ``store`` (with its ``seating`` beside it), in the log file
        ``log``, or kept in memory. Its dice come from ``seed`` (``seed_chosen_by`` saying
        who chose it, if someone did) or from a 32-byte ``secret`` the log only commits to.
        ``practice`` names the one person of a practice game (undo past shown dice)."""
        commitment = ""
        if secret is not None:
            if seed is not None:
                raise ValueError("a game's dice come from a seed or from a secret, not both")
            commitment = hashlib.sha256(secret).hexdigest()
            seed = int(commitment[:16], 16)  # public: steers the bots, rolls no die
        command = NewGame(
            tuple(players),
            seed,  # type: ignore[arg-type]  # None is refused by check_new_game
            game_id=game_id if game_id is not None else f"{seed:016x}" if type(seed) is int else "",
            mode=mode,
            hero_deal=hero_deal,
            starting_magic=starting_magic,
            commitment=commitment,
            seed_chosen_by=seed_chosen_by,
            practice=practice,
        )
        check_new_game(command)  # bad options refused before anything is rolled or written
        rng = DiceRng(command.seed, 0) if secret is None else DiceRng.secret(secret, 0)
        events, states = resolve_steps(PREGAME, command, rng)
        header = log_header(command)
        batch = Batch(0, command, events)
        stream: Stream  # the opening batch is part of the game's atomic creation
        if store is not None:
            stream = store.create(header, batch, seating)
        elif log is not None:
            stream = FileStream.create(log, header, batch, sync=sync)
        else:
            stream = MemoryStream.new(header, batch)
        return cls(stream, push(Timeline(), batch, states[-1]), secret=secret)

    @classmethod
    def open(
        cls, path: str | os.PathLike[str], *, sync: bool = True, secret: bytes | None = None
    ) -> Game:
        """Continue a game from its log file (taking the writer's lock)."""
        return cls.from_stream(FileStream.open(path, sync=sync), secret=secret)

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, drop_torn: bool = False) -> Game:
        """Read a log into memory, for viewing or for playing on without touching the file."""
        scan, batches = load_batches(path, drop_torn=drop_torn)
        stream = MemoryStream.holding(scan.header, scan.payloads, batches)
        return cls(stream, replay_scan(scan, batches, stream))

    @classmethod
    def resume(cls, store: Store, game_id: str, *, secret: bytes | None = None) -> Game:
        """Continue a stored game (``GameNotFound`` if the store has none of that id)."""
        return cls.from_stream(store.open(game_id), secret=secret)

    @classmethod
    def from_stream(cls, stream: Stream, *, secret: bytes | None = None) -> Game:
        """The game a stream holds, replayed; the stream is closed if it cannot be (or if
        ``secret`` is not the one the game committed to)."""
        try:
            return cls(stream, replay_stream(stream), secret=secret)
        except BaseException:
            stream.close()  # release the writer's lock
            raise

    def _check_secret(self, secret: bytes) -> None:
        commitment = self.state.facts.commitment
        if not commitment or hashlib.sha256(secret).hexdigest() != commitment:
            raise ValueError("that is not the secret this game's dice come from")

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

    @property
    def verbs(self) -> tuple[str, ...]:
        """The words a player types to move in this game (``take``, ``undo``, ...)."""
        return verbs_of(self.state.mode)

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

    def issue(self, command: Command, request: str | None = None) -> Commit:
        """Decide ``command`` and log its events; a RuleError leaves everything unchanged.

        A ``StoreConflict`` means another writer appended first: nothing was
        written, and ``catch_up`` brings this game to where the store is.
        ``request`` names the client request the command answers (kept by the store
        beside the batch: ``stream.requested``).
        """
        if isinstance(command, Undo):
            return self.undo(command.seat, request)
        before = self.timeline
        state = before.state
        facts = state.facts
        # dice from a secret or a branch's luck, else the seed (an ordinary game takes the
        # short way); a branch's fact rolls nothing, so it needs no secret kept by a host
        if (facts.commitment or facts.branches) and type(command) is not BranchGame:
            rng = self.rng()
        else:
            rng = DiceRng(state.seed, before.top.depth)
        out = emit_command(state, command, rng)
        batch = Batch(before.seq, command, tuple(out.events))
        self.stream.append(batch, request)  # durable before it counts
        self.timeline = push(before, batch, out.state)
        return Commit.of(batch, before.state, tuple(out.states))

    def issue_text(self, text: str, seat: int | None = None) -> Commit:
        """Parse and issue a typed command for ``seat`` (the player to act by default)."""
        return self.issue(parse_command(text, self.to_act() if seat is None else seat))

    def undo(self, seat: int | None = None, request: str | None = None) -> Commit:
        """Step back one command; the undo is itself an event, the log is never rewritten."""
        if type(self.timeline.top.command) is BranchGame:  # its first events stay the parent's
            raise RuleError(
                "branch_point",
                "this game was branched from another here: undo goes no further back",
            )
        if not self.timeline.can_undo():
            raise RuleError("nothing_to_undo", "there is nothing to undo")
        if self.state.facts.revealed:  # the secret is out: going back would foresee the dice
            raise RuleError(
                "seed_revealed",
                "the game's secret seed was revealed at its end: it can no longer be undone",
            )
        if self.timeline.top.command is not None and self.timeline.top.command.BY_TABLE:
            raise RuleError("table_decision", "what the table decided is not undone")
        if seat is not None:
            check_seat(self.state, seat)  # it is logged: never a value that cannot be read back
        before = self.timeline
        batch = Batch(before.seq, Undo(seat), (CommandUndone(before.top.batch_seq),))
        self.stream.append(batch, request)
        self.timeline = before.apply_batch(batch)
        return Commit(batch, before.state, (self.timeline.state,))

    def undo_turn(self, seat: int) -> list[Commit]:
        """Undo back to just before ``seat``'s last command (and everything after it).

        This is what a player at a table with bots means by undo: their own move
        back, with the bots' replies. Returns the undos' commits, oldest first
        (none if ``seat`` has no command to take back).
        """
        frame, steps = self.timeline.top, 0
        while not begins_history(frame) and getattr(frame.command, "seat", None) != seat:
            frame, steps = frame.below, steps + 1  # type: ignore[assignment]  # one below
        if begins_history(frame):  # the game's start, or a branch's: nothing of seat's after it
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
        facts, depth = self.state.facts, self.timeline.depth
        if facts.branches:  # a branch's luck: the seed, or the revealed secret, its fact names
            if facts.branch_secret:
                return DiceRng.secret(bytes.fromhex(facts.branch_secret), depth)
            return DiceRng(facts.branch_seed, depth)  # type: ignore[arg-type]  # the fold checks
        if not facts.commitment:
            return DiceRng(self.state.seed, depth)
        if facts.revealed:
            return DiceRng.secret(bytes.fromhex(facts.revealed), depth)
        if self.secret is None:
            raise RuleError(
                "seed_secret",
                "this game's dice come from a secret its host keeps until the game ends: "
                "it can be watched here, not played on",
            )
        return DiceRng.secret(self.secret, depth)

    def reveal(self) -> Commit | None:
        """Once the game is over, log the secret its dice came from (None if there is
        nothing to reveal here: no secret, already revealed, or the game goes on)."""
        facts = self.state.facts
        if not (self.state.is_over and facts.secret_dice and self.secret is not None):
            return None
        return self.issue(RevealSeed(self.secret.hex()))

    def close(self) -> None:
        """Close the stream (releasing a log file's writer lock)."""
        self.stream.close()

    def __enter__(self) -> Game:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
