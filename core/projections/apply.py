"""``apply(state, event) -> state``: the pure fold that rebuilds a game from its events.

One handler per event type, dispatched on the event's class: the events every mode
shares are folded here, each mode's own in its package's ``fold.py`` (the multiplayer
game's in ``core.modes.multiplayer.fold``), registered by ``core.modes.install``. An event
type with no handler raises, so a new event can never be silently ignored. Handlers only
record what the event says happened; the deciding was done by the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from core.events import game as ev
from core.events.base import Event
from core.events.ranges import seats_named
from core.mountain import slot_at
from core.projections.state import EXCAVATION, MAGIC, OVER, PREGAME, REPLENISH, SETUP, GameState

Handler = Callable[[GameState, Event], GameState]
HANDLERS: dict[type[Event], Handler] = {}


class UnknownEvent(TypeError):
    """An event type the projection has no handler for."""


def handler_table(table: dict[type[Event], Handler]):
    """A decorator filling ``table``: ``@handles(EventClass)`` above its handler."""

    def handles(cls: type[Event]):
        def add(fn: Handler) -> Handler:
            table[cls] = fn
            return fn

        return add

    return handles


#: The handlers every mode shares (a game begun, the mountain filled, troves rerolled),
#: defined in this module; each mode's own are registered (``register``).
handles = handler_table(HANDLERS)


def register(*tables: Mapping[type[Event], Handler]) -> None:
    """Add a game mode's fold (its ``HANDLERS``): called for each mode by ``core.modes.install``."""
    for table in tables:
        taken = HANDLERS.keys() & table.keys()
        if taken and any(HANDLERS[cls] is not table[cls] for cls in taken):
            raise ValueError(f"events folded twice: {sorted(c.__name__ for c in taken)}")
        HANDLERS.update(table)


def apply(state: GameState, event: Event) -> GameState:
    """The state after ``event``; on ``PREGAME`` (before the game) only GameStarted applies."""
    handler = HANDLERS.get(type(event))
    if handler is None:
        raise UnknownEvent(f"no projection handles {type(event).__name__}")
    if state is PREGAME and not isinstance(event, ev.GameStarted):
        raise ValueError(f"a log must begin with GameStarted, not {type(event).__name__}")
    _check_seats(state, event)
    return handler(state, event)


def _check_seats(state: GameState, event: Event) -> None:
    """Refuse an event naming a seat the game does not have (a forged record: the rules
    never name one), before a handler or a reader indexes the seats with it."""
    if state is PREGAME:
        return
    players = len(state.names)
    for seat in seats_named(event):
        if seat >= players:
            raise ValueError(f"{type(event).__name__} names seat {seat} of a {players}-seat game")


def fold(events: Iterable[Event], state: GameState = PREGAME) -> GameState:
    """Apply events in order (no undo handling: see ``core.projections.timeline``)."""
    if state is PREGAME:  # the first event must start the game: ``apply`` checks it
        events = iter(events)
        for event in events:
            state = apply(state, event)
            break
    handlers = HANDLERS
    for event in events:
        handler = handlers.get(type(event))
        if handler is None:  # ``apply`` itself only where its checks could fail
            state = apply(state, event)
            continue
        _check_seats(state, event)
        state = handler(state, event)
    return state


def fold_each(events: Iterable[Event], state: GameState = PREGAME) -> tuple[GameState, ...]:
    """The state after each event in turn (no undo handling), for readers that show them."""
    states = []
    for event in events:
        state = apply(state, event)
        states.append(state)
    return tuple(states)


def _set_faces(faces: tuple, rolls) -> tuple:
    new = list(faces)
    for die, face in rolls:
        new[die] = face
    return tuple(new)


@handles(ev.GameStarted)
def _started(state: GameState, e: ev.GameStarted) -> GameState:
    n = len(e.players)
    return GameState(
        game_id=e.game_id,
        seed=e.seed,
        mode=e.mode,
        names=e.players,
        dice_set=e.dice_set,
        rules=e.rules,
        heroes=(None,) * n,
        hero_table=((),) * n,
        troves=((),) * n,
        hero_spent=(frozenset(),) * n,
        cached=((),) * n,
        round_scores=((),) * n,
        hero_deal=e.hero_deal,
    )


@handles(ev.MountainFilled)
def _filled(state: GameState, e: ev.MountainFilled) -> GameState:
    slots = list(state.mountain)
    faces = list(state.faces)
    drawn = set()
    for die, row, col, face in e.placements:
        slots[slot_at(row, col)] = die
        faces[die] = face
        drawn.add(die)
    return state.replace(
        mountain=tuple(slots),
        faces=tuple(faces),
        bag=tuple(d for d in state.bag if d not in drawn),
    )


@handles(ev.TrovesRerolled)
def _troves_rerolled(state: GameState, e: ev.TrovesRerolled) -> GameState:
    return state.replace(faces=_set_faces(state.faces, e.rolls))


@handles(ev.CommandUndone)
def _undone(state: GameState, e: ev.CommandUndone) -> GameState:
    raise ValueError("CommandUndone is folded by the timeline, which keeps the earlier states")


__all__ = [
    "EXCAVATION",
    "HANDLERS",
    "MAGIC",
    "OVER",
    "PREGAME",
    "REPLENISH",
    "SETUP",
    "apply",
    "fold",
    "handler_table",
    "register",
]
