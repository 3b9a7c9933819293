"""Re-running a log: does its seed and its recorded commands still give its events?

A log records each command with the events it caused. Deciding those commands
again, from the same seed, through the same ``Game`` API a player uses, must
reproduce every event exactly; the first one that does not is reported. This is
what ``dice-miner log verify`` checks and what the golden replays rely on to
catch a change to the rules that would alter old games.

A game whose dice came from a secret (``DiceCommitted``) is re-run from the
secret its log reveals at the end (``SeedRevealed``), after checking that the
secret's SHA-256 is the commitment its log made at the start: that proves the
host did not steer a single roll. Until the secret is revealed, nothing can be
re-derived (``Provenance`` says which case a log is).

A branch of another game (``core.branch``) is re-run like any log: its fact
(``GameBranched``) is decided again, and the dice after it come from the luck it
names. A branch with the same luck of a game with a secret seed holds that
secret in its fact, so it is re-run from it (its SHA-256 checked as a reveal's);
a branch with fresh luck of a game whose secret is still kept can be re-run only
from its branch fact on (the events before it are replayed as logged).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from attrs import frozen

from core.commands import Command, NewGame, Undo
from core.errors import RuleError
from core.events.base import Event
from core.events.codec import Batch
from core.game import Game
from core.modes.table.events import GameBranched, SeedRevealed
from core.projections.timeline import replay
from core.store import MemoryStream


@frozen
class Divergence:
    """The first point where re-running a log does not give the log's own events."""

    seq: int  # the seq of the first event that differs (or is missing on one side)
    record: int  # the batch's record number in the file (the header is record 0)
    command: Command
    logged: Event | None  # the event the log holds there (None: the log has none)
    rerun: Event | None  # the event the re-run gives there (None: the re-run has none)
    reason: str


@frozen
class Provenance:
    """Where a log's dice came from, as far as its own records say.

    ``kind`` is ``"seed"`` (its seed, which anyone could know), ``"chosen"`` (a seed
    chosen by ``chosen_by``), ``"revealed"`` (a secret whose SHA-256 is the
    commitment, revealed at the end or by a branch's fact: re-run from it),
    ``"secret"`` (a commitment whose secret is not revealed yet: the rolls cannot be
    re-derived) or ``"secret_then_fresh"`` (a branch with fresh luck of such a game:
    the rolls from its fact at seq ``fresh_from`` on come from ``fresh_seed``, and
    only those can be re-derived).
    """

    kind: str
    seed: int
    commitment: str = ""
    secret: str = ""
    chosen_by: str = ""
    fresh_from: int = 0
    fresh_seed: int = 0


def provenance(batches: Sequence[Batch]) -> Provenance:
    """Where the dice of the log's game came from (its NewGame, its last reveal, and
    the facts of a branch)."""
    start = batches[0].command if batches else None
    if not isinstance(start, NewGame):
        return Provenance("seed", 0)
    if start.seed_chosen_by:
        return Provenance("chosen", start.seed, chosen_by=start.seed_chosen_by)
    if not start.commitment:
        return Provenance("seed", start.seed)
    revealed = [
        event.secret
        for batch in batches
        for event in batch.events
        if isinstance(event, SeedRevealed) or (isinstance(event, GameBranched) and event.secret)
    ]
    if revealed:
        return Provenance("revealed", start.seed, start.commitment, revealed[-1])
    for batch in batches:
        for i, event in enumerate(batch.events):
            if isinstance(event, GameBranched) and event.seed is not None:
                return Provenance(
                    "secret_then_fresh",
                    start.seed,
                    start.commitment,
                    fresh_from=batch.seq + i,
                    fresh_seed=event.seed,
                )
    return Provenance("secret", start.seed, start.commitment)


def rerun(batches: Sequence[Batch]) -> Divergence | None:
    """``None`` if deciding the logged commands again reproduces every logged event.

    A game with a secret seed is re-run from its revealed secret, once its SHA-256
    is checked against the commitment; one whose secret is not revealed cannot be,
    and is reported as a divergence saying so (callers ask ``provenance`` first).
    """
    if not batches:
        return None
    first = batches[0]
    start = first.command
    if not isinstance(start, NewGame):
        return Divergence(first.seq, 1, start, _at(first, 0), None, "the log does not begin a game")
    origin = provenance(batches)
    secret = None
    if origin.kind == "secret":
        reason = "the dice came from a secret the log has not revealed: they cannot be re-run"
        return Divergence(0, 1, start, _at(first, 0), None, reason)
    if origin.kind == "secret_then_fresh":
        return _rerun_from(batches, origin.fresh_from)
    if origin.kind == "revealed":
        try:
            secret = bytes.fromhex(origin.secret)
            valid = hashlib.sha256(secret).hexdigest() == origin.commitment
        except ValueError:
            valid = False
        if not valid:
            reason = "the revealed secret's SHA-256 is not the commitment made at the start"
            return Divergence(0, 1, start, _at(first, 0), None, reason)
    try:
        game = Game.new(
            start.players,
            None if secret is not None else start.seed,
            mode=start.mode,
            hero_deal=start.hero_deal,
            starting_magic=start.starting_magic,
            game_id=start.game_id,
            secret=secret,
            seed_chosen_by=start.seed_chosen_by,
        )
    except RuleError as exc:
        return Divergence(0, 1, start, _at(first, 0), None, f"the game is now refused: {exc}")
    (again,) = game.batches()
    if again.command != start:
        return Divergence(0, 1, start, _at(first, 0), None, "the new-game command differs")
    found = _compare(first, again.events, 1)
    if found is not None:
        return found
    return _decide_again(game, batches, 1)


def _rerun_from(batches: Sequence[Batch], seq: int) -> Divergence | None:
    """Replay the batches before ``seq`` as logged, then decide the others again."""
    kept = next(k for k, batch in enumerate(batches) if batch.seq <= seq < batch.end)
    stream = MemoryStream.new({"game_id": getattr(batches[0].command, "game_id", "")})
    for batch in batches[:kept]:
        stream.append(batch)
    return _decide_again(Game(stream, replay(batches[:kept])), batches, kept)


def _decide_again(game: Game, batches: Sequence[Batch], start: int) -> Divergence | None:
    """Issue the commands of ``batches[start:]`` to ``game``; the first event that differs."""
    for record, batch in enumerate(batches[start:], start=start + 1):
        command = batch.command
        try:
            if isinstance(command, Undo):
                events = game.undo(command.seat).events
            else:
                events = game.issue(command).events
        except RuleError as exc:
            reason = f"the command {command.text()!r} is now refused: {exc}"
            return Divergence(batch.seq, record, command, _at(batch, 0), None, reason)
        found = _compare(batch, events, record)
        if found is not None:
            return found
    return None


def _at(batch: Batch, i: int) -> Event | None:
    return batch.events[i] if i < len(batch.events) else None


def _compare(batch: Batch, events: Sequence[Event], record: int) -> Divergence | None:
    for i in range(max(len(batch.events), len(events))):
        logged, again = _at(batch, i), (events[i] if i < len(events) else None)
        if logged != again:
            if logged is None:
                reason = "the re-run gives an event the log does not have"
            elif again is None:
                reason = "the log has an event the re-run does not give"
            else:
                reason = "the re-run gives a different event"
            return Divergence(batch.seq + i, record, batch.command, logged, again, reason)
    return None


__all__ = ["Divergence", "Provenance", "provenance", "rerun"]
