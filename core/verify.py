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
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from attrs import frozen

from core.commands import Command, NewGame, Undo
from core.errors import RuleError
from core.events.base import Event
from core.events.codec import Batch
from core.events.table import SeedRevealed
from core.game import Game


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
    commitment, revealed at the end: re-run from it) or ``"secret"`` (a commitment
    whose secret is not revealed yet: the rolls cannot be re-derived).
    """

    kind: str
    seed: int
    commitment: str = ""
    secret: str = ""
    chosen_by: str = ""


def provenance(batches: Sequence[Batch]) -> Provenance:
    """Where the dice of the log's game came from (its NewGame and its last reveal)."""
    start = batches[0].command if batches else None
    if not isinstance(start, NewGame):
        return Provenance("seed", 0)
    if start.seed_chosen_by:
        return Provenance("chosen", start.seed, chosen_by=start.seed_chosen_by)
    if not start.commitment:
        return Provenance("seed", start.seed)
    revealed = [e.secret for b in batches for e in b.events if isinstance(e, SeedRevealed)]
    if not revealed:
        return Provenance("secret", start.seed, start.commitment)
    return Provenance("revealed", start.seed, start.commitment, revealed[-1])


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
    for record, batch in enumerate(batches[1:], start=2):
        command = batch.command
        try:
            undo = isinstance(command, Undo)
            events = (game.undo(command.seat) if undo else game.issue(command)).events
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
