"""Events in words a player understands: the read model behind logs, replays and UIs.

``describe(state, event)`` takes the state *before* the event (for names and
faces) and returns one line, e.g. ``"Ada took die 17 (tunnel 3) from row 2, col 1"``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from core.events import game as ev
from core.events.base import Event, event_table
from core.projections.state import GameState

Describer = Callable[[GameState, Event], str]
DESCRIBERS: dict[type[Event], Describer] = {}


#: A decorator filling a table of describers: ``@describes(EventClass)`` above one.
describer_table = event_table


#: The describers of what every mode shares, defined in this module; each mode's own are
#: registered (``register``).
describes = describer_table(DESCRIBERS)


def register(*tables: Mapping[type[Event], Describer]) -> None:
    """Add a game mode's words (its ``DESCRIBERS``): called once per mode by ``core.read``."""
    for table in tables:
        DESCRIBERS.update(table)


def describe(state: GameState, event: Event) -> str:
    """One line saying what ``event`` did, given the state before it."""
    fn = DESCRIBERS.get(type(event))
    return fn(state, event) if fn else type(event).__name__


def _name(state: GameState, seat: int) -> str:
    return state.names[seat]


@describes(ev.GameStarted)
def _started(state: GameState, e: ev.GameStarted) -> str:
    return started_text(e)


def started_text(e: ev.GameStarted, secret_dice: bool = False) -> str:
    """The game's first line. With ``secret_dice`` (its command commits to a secret seed:
    the next event says so) the seed is named for what it does, never as the dice's."""
    mode = "solo game" if e.mode == "solo" else f"{len(e.players)}-player game"
    if not secret_dice:
        return f"A {mode} began: {', '.join(e.players)} (seed {e.seed})"
    seed = (
        f"seed {e.seed}, which rolls none of the dice"
        if e.mode == "solo"
        else f"seed {e.seed}, which steers the bots only"
    )
    return f"A {mode} began: {', '.join(e.players)} ({seed}: the dice come from a secret seed)"


@describes(ev.MountainFilled)
def _filled(state: GameState, e: ev.MountainFilled) -> str:
    return f"The mountain was filled with {len(e.placements)} dice from the bag"


@describes(ev.TrovesRerolled)
def _rerolled(state: GameState, e: ev.TrovesRerolled) -> str:
    return f"{len(e.rolls)} trove dice were rerolled"


@describes(ev.CommandUndone)
def _undone(state: GameState, e: ev.CommandUndone) -> str:
    return f"The command at event {e.seq} was undone"
