"""The multiplayer game's own facts (RULES.md section 3): the roll-off, the heroes, each die
taken, beer shared, magic spent, the rounds scored, the replenish, the tie-breaks and the
end. Each is a frozen fact holding only what replay needs; every random outcome is inside
the event that caused it.

A multiplayer log also holds the facts every game has (``core.events.game``); they are
offered here too, so the mode's parts read every event of its logs from one module.
"""

from __future__ import annotations

from attrs import frozen

from core.events.base import Event, event
from core.events.game import CommandUndone, GameStarted, MountainFilled, Roll, TrovesRerolled

Slide = tuple[int, int, int]  # (die, new row, new col)
SeatRoll = tuple[int, str]  # (seat, face)

__all__ = [
    "BeerShared",
    "CommandUndone",
    "DiceCached",
    "DieTaken",
    "FirstPlayerChosen",
    "FirstPlayerRolled",
    "GameEnded",
    "GameStarted",
    "HeroChosen",
    "HeroesDealt",
    "MagicPhaseBegan",
    "MagicSpent",
    "MagicTurnEnded",
    "MountainFilled",
    "ReplenishBegan",
    "RoundBegan",
    "RoundScored",
    "StartPlayerChosen",
    "TieBreakBegan",
    "TieBreakScored",
    "TrovesRerolled",
]


@event(version=1, rolls=True)
@frozen
class FirstPlayerRolled(Event):
    """One roll-off for first player: the seats that rolled and their tunnel faces."""

    rolls: tuple[SeatRoll, ...]


@event(version=1)
@frozen
class FirstPlayerChosen(Event):
    """The roll-off found its winner; heroes are chosen in ``hero_order``."""

    seat: int
    hero_order: tuple[int, ...]


@event(version=2)
@frozen
class HeroChosen(Event):
    """A player took a hero, whose faces were ``faces`` (all game, every round).

    Version 2 added ``faces`` so the log says what the hero showed when the game
    was played, as the header's dice set does for the dice: a corrected hero
    table (rule D1) must not change old games. Version 1 events are upcast with
    the table of their time (``core.events.upcasters``).
    """

    seat: int
    hero: str
    faces: tuple[str, ...]


@event(version=2, rolls=True)
@frozen
class HeroesDealt(Event):
    """Heroes were dealt at random, one per seat; ``faces[seat]`` are that hero's faces.

    Version 2 added ``faces``, for the reason HeroChosen v2 did: the log says what
    each hero showed, so a corrected hero table (rule D1) cannot change old games.
    """

    heroes: tuple[str, ...]
    faces: tuple[tuple[str, ...], ...]


@event(version=1)
@frozen
class RoundBegan(Event):
    """A round's excavation begins with ``start_seat``."""

    round: int
    start_seat: int


@event(version=1)
@frozen
class DieTaken(Event):
    """A player took a die from slot ``row, col``; ``slides`` are the dice that slid down."""

    seat: int
    die: int
    face: str
    row: int
    col: int
    slides: tuple[Slide, ...] = ()


@event(version=1, rolls=True)
@frozen
class BeerShared(Event):
    """A player rerolled a beer die of their trove and gave it away; they now take two dice."""

    seat: int
    die: int
    to_seat: int
    face: str


@event(version=1)
@frozen
class MagicPhaseBegan(Event):
    """The magic phase begins; ``seats`` take one magic turn each, in this order."""

    seats: tuple[int, ...]


@event(version=1)
@frozen
class MagicSpent(Event):
    """A magic face was spent: ``die`` or the hero face ``hero_face``, rerolling ``rolls``."""

    seat: int
    die: int | None
    hero_face: int | None
    rolls: tuple[Roll, ...]

    def shows_dice(self) -> bool:
        """A spend that rerolled shows dice; one that only moved or took none does not."""
        return bool(self.rolls)


@event(version=1)
@frozen
class MagicTurnEnded(Event):
    """A player finished their magic turn."""

    seat: int


@event(version=1)
@frozen
class RoundScored(Event):
    """A round was scored: per seat ``(tunnel, treasure, hazard)``; ``doubled`` had most gems."""

    round: int
    scores: tuple[tuple[int, int, int], ...]
    doubled: int | None


@event(version=1)
@frozen
class ReplenishBegan(Event):
    """Replenish begins; ``seats`` choose what to cache, in this order."""

    seats: tuple[int, ...]


@event(version=1)
@frozen
class DiceCached(Event):
    """A player kept these dice of their trove as they are."""

    seat: int
    dice: tuple[int, ...]


@event(version=1)
@frozen
class StartPlayerChosen(Event):
    """The player with the lowest total starts; ``tied`` lists a tie broken at random."""

    seat: int
    tied: tuple[int, ...] = ()

    def shows_dice(self) -> bool:
        """A tie broken at random shows the roll that broke it."""
        return bool(self.tied)


@event(version=1)
@frozen
class TieBreakBegan(Event):
    """The game ended tied; ``seats`` play tie-break number ``number``."""

    number: int
    seats: tuple[int, ...]


@event(version=1)
@frozen
class TieBreakScored(Event):
    """A tie-break round was scored for the tied ``seats`` (same shape as RoundScored)."""

    number: int
    seats: tuple[int, ...]
    scores: tuple[tuple[int, int, int], ...]
    doubled: int | None


@event(version=1)
@frozen
class GameEnded(Event):
    """The game is over; more than one winner means the tie could not be broken."""

    winners: tuple[int, ...]


#: The multiplayer game's own facts, in the order the events page lists them; registered
#: by ``core.modes.install`` after the facts every game has.
EVENTS: tuple[type[Event], ...] = (
    FirstPlayerRolled,
    FirstPlayerChosen,
    HeroChosen,
    HeroesDealt,
    RoundBegan,
    DieTaken,
    BeerShared,
    MagicPhaseBegan,
    MagicSpent,
    MagicTurnEnded,
    RoundScored,
    ReplenishBegan,
    DiceCached,
    StartPlayerChosen,
    TieBreakBegan,
    TieBreakScored,
    GameEnded,
)
