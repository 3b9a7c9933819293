"""Re-running a log: does its seed and its recorded commands still give its events?

A log records each command with the events it caused. Deciding those commands
again, from the same seed, through the same ``Game`` API a player uses, must
reproduce every event exactly; the first one that does not is reported. This is
what ``dice-miner log verify`` checks and what the golden replays rely on to
catch a change to the rules that would alter old games.
"""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen

from core.commands import Command, NewGame, Undo
from core.errors import RuleError
from core.events.base import Event
from core.events.codec import Batch
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


def rerun(batches: Sequence[Batch]) -> Divergence | None:
    """``None`` if deciding the logged commands again reproduces every logged event."""
    if not batches:
        return None
    first = batches[0]
    start = first.command
    if not isinstance(start, NewGame):
        return Divergence(first.seq, 1, start, _at(first, 0), None, "the log does not begin a game")
    try:
        game = Game.new(
            start.players,
            start.seed,
            mode=start.mode,
            hero_deal=start.hero_deal,
            starting_magic=start.starting_magic,
            game_id=start.game_id,
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


__all__ = ["Divergence", "rerun"]
