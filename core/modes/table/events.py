"""The table's facts: where a game's dice come from, and what the table did to a game.

These are not moves of the game's rules but facts about how it was played, kept
in the log so the log stays the whole story: the secret the dice come from
(committed at the start, revealed at the end, so anyone can check afterwards
that no die was steered), a seed chosen by someone (so everyone knows it is no
secret), a game closed because nobody played it, a quiet person's seat handed
to a bot and given back, a person who left for good, the rematch that followed,
a game branched from another to try another way (``core.branch``).
"""

from __future__ import annotations

from attrs import frozen

from core.events.base import Event, event

__all__ = [
    "DiceCommitted",
    "GameBranched",
    "GameClosed",
    "PracticeChosen",
    "RematchStarted",
    "SeatHandedToBot",
    "SeatLeft",
    "SeatReturned",
    "SeedChosen",
    "SeedRevealed",
]


@event(version=1)
@frozen
class DiceCommitted(Event):
    """The dice come from a secret seed whose SHA-256 is ``commitment`` (hex), revealed
    when the game ends; the game's seed only steers the bots."""

    commitment: str


@event(version=1)
@frozen
class SeedChosen(Event):
    """The game's seed was chosen by ``by``: it is no secret, so rolls could be foreseen."""

    by: str


@event(version=1)
@frozen
class SeedRevealed(Event):
    """The game over, the secret the dice came from is revealed (hex): its SHA-256 is the
    commitment, and every roll of the log can be derived from it again."""

    secret: str


@event(version=1)
@frozen
class GameClosed(Event):
    """The table ended the game before its end, for ``reason`` (no winner)."""

    reason: str


@event(version=1)
@frozen
class PracticeChosen(Event):
    """The game is practice for ``by``, its one person: they may undo even what the dice
    have shown (a reroll, a refill, the next round's mountain), so its scores are practice."""

    by: str


@event(version=1)
@frozen
class SeatHandedToBot(Event):
    """A bot of kind ``bot`` plays seat ``seat`` from now on, for ``reason``."""

    seat: int
    bot: str
    reason: str


@event(version=1)
@frozen
class SeatReturned(Event):
    """Seat ``seat`` is its person's again."""

    seat: int


@event(version=1)
@frozen
class SeatLeft(Event):
    """The person of seat ``seat`` left the game for good: a bot of kind ``bot`` plays it
    to the end (unlike a quiet seat handed over, moving again does not take it back)."""

    seat: int
    bot: str


@event(version=1)
@frozen
class RematchStarted(Event):
    """The game over, a rematch with the same seats and settings was started: game
    ``game_id``, whose people find their seats from this game."""

    game_id: str


@event(version=1)
@frozen
class GameBranched(Event):
    """This game is a branch of the log whose bytes' SHA-256 is ``parent`` (hex): its
    first ``at`` events are that log's. ``luck`` is ``"same"`` (each position rolls
    what the parent rolled there) or ``"fresh"``; from here on the dice come from
    ``seed``, or from ``secret`` (hex), the parent's secret seed, revealed."""

    parent: str
    at: int
    luck: str
    seed: int | None = None
    secret: str = ""


#: The table's facts, registered by ``core.modes.install``.
EVENTS: tuple[type[Event], ...] = (
    DiceCommitted,
    SeedChosen,
    SeedRevealed,
    GameClosed,
    PracticeChosen,
    SeatHandedToBot,
    SeatReturned,
    SeatLeft,
    RematchStarted,
    GameBranched,
)
