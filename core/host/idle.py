"""When a server stops waiting: a game no person moves in is closed, a quiet seat goes to a bot.

Idle games must not fill a server. A game no person has moved in for
``close_after`` seconds is closed (``GameClosed`` in its log, saying why), so its
place is free; the seat of a person the game has waited on for ``quiet_after``
seconds while another person sits at the table is handed to a bot (BGA's answer
to leavers), so the others can finish, and the person takes it back by moving.

These are decisions about one table at one time, nothing else: ``IdlePolicy.due``
answers what is due (or None), and the lobby's sweep (``core.host.lobby``, a
thread) takes it. The words here are the ones the log and the sweep's lines say.
"""

from __future__ import annotations

from attrs import frozen

from core.host.table import Table

#: The kind of bot that takes over a quiet person's seat.
STAND_IN = "greedy"


def in_words(seconds: float) -> str:
    """A duration in words: "90 seconds", "5 minutes", "2 hours"."""
    if seconds < 120:
        return f"{seconds:g} seconds"
    if seconds < 7200:
        return f"{seconds / 60:g} minutes"
    return f"{seconds / 3600:g} hours"


@frozen
class CloseIdleGame:
    """The game is to be closed: no person has moved in it for too long."""

    reason: str  # as its log says it (``GameClosed``)
    said: str  # the sweep's line

    def take(self, table: Table) -> bool:
        """Close the game; False if it could not be (ended or closed meanwhile)."""
        return bool(table.close_game(self.reason))


@frozen
class HandQuietSeat:
    """A quiet person's seat is to be played by a bot until they move again."""

    seat: int
    reason: str  # as its log says it (``SeatHandedToBot``)
    said: str  # the sweep's line
    bot: str = STAND_IN

    def take(self, table: Table) -> bool:
        """Hand the seat over; False if it could not be (the game ended meanwhile)."""
        return bool(table.hand_to_bot(self.seat, self.bot, self.reason))


@frozen
class IdlePolicy:
    """How long a server waits for people: None in either place waits for ever."""

    close_after: float | None = None  # seconds with no person's move before a game closes
    quiet_after: float | None = None  # seconds a game waits on a person before a bot plays

    def sweep_every(self) -> float | None:
        """How often to look, when not told: a quarter of the shorter wait, from half a
        second to five; None when nothing is waited for."""
        timed = [t for t in (self.close_after, self.quiet_after) if t is not None]
        return max(0.5, min(5.0, min(timed) / 4)) if timed else None

    def is_idle(self, table: Table, now: float) -> bool:
        """True if ``table`` is a game in play that no person has moved in for too long."""
        return (
            self.close_after is not None
            and _waits_on_persons(table)
            and now - table.person_moved >= self.close_after
        )

    def quiet_seat(self, table: Table, now: float) -> int | None:
        """The person's seat ``table`` has waited on for too long while another person
        sits at it (nothing has changed there since), or None."""
        if self.quiet_after is None or not _waits_on_persons(table):
            return None
        seat = table.person_to_act()
        others = [p for p in table.persons if p != seat]
        if seat is None or not others or now - table.changed_at < self.quiet_after:
            return None
        return seat

    def due(self, table: Table, now: float) -> CloseIdleGame | HandQuietSeat | None:
        """What is due at ``table`` at ``now``: closing it, else handing a seat, else
        nothing."""
        if self.close_after is not None and self.is_idle(table, now):
            waited = in_words(self.close_after)
            return CloseIdleGame(
                f"no one moved for {waited}; its place is freed",
                f"{table.id}: closed after {waited} with no move",
            )
        seat = self.quiet_seat(table, now)
        if seat is None or self.quiet_after is None:
            return None
        name = table.seats[seat].name
        return HandQuietSeat(
            seat,
            f"{name} has not moved for {in_words(self.quiet_after)}",
            f"{table.id}: seat {seat} handed to a bot",
        )


def _waits_on_persons(table: Table) -> bool:
    """A game still played here, with a person at it: the only kind the policy touches."""
    return not table.state.is_over and table.playable and not table.stopped and bool(table.persons)


__all__ = ["STAND_IN", "CloseIdleGame", "HandQuietSeat", "IdlePolicy", "in_words"]
