"""Events in words a player understands: the read model behind logs, replays and UIs.

``describe(state, event)`` takes the state *before* the event (for names and
faces) and returns one line, e.g. ``"Ada took die 17 (tunnel 3) from row 2, col 1"``.
"""

from __future__ import annotations

from collections.abc import Callable

from core.events import game as ev
from core.events.base import Event
from core.projections.state import GameState
from core.words import die_face_words, die_words, face_words, slot_words

Describer = Callable[[GameState, Event], str]
DESCRIBERS: dict[type[Event], Describer] = {}


def _roll_words(face: str) -> str:
    """What a die rolled: ``"tunnel 3"`` (a bare number reads as a count), ``"2 gems"``."""
    return f"tunnel {face}" if face.isdigit() else face_words(face)


def _dice_list(dice) -> str:
    dice = list(dice)
    if not dice:
        return "no dice"
    return ("die " if len(dice) == 1 else "dice ") + ", ".join(map(str, dice))


def describer_table(table: dict[type[Event], Describer]):
    """A decorator filling ``table``: ``@describes(EventClass)`` above its describer."""

    def describes(cls: type[Event]):
        def add(fn: Describer) -> Describer:
            table[cls] = fn
            return fn

        return add

    return describes


#: The multiplayer game's (and every mode's common) describers, defined in this module.
describes = describer_table(DESCRIBERS)


def register(*tables: dict[type[Event], Describer]) -> None:
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


@describes(ev.FirstPlayerRolled)
def _rolled(state: GameState, e: ev.FirstPlayerRolled) -> str:
    rolls = ", ".join(f"{_name(state, s)} {face_words(f)}" for s, f in e.rolls)
    return f"Roll for first player: {rolls}"


@describes(ev.FirstPlayerChosen)
def _first(state: GameState, e: ev.FirstPlayerChosen) -> str:
    order = ", ".join(_name(state, s) for s in e.hero_order)
    return f"{_name(state, e.seat)} plays first; heroes are chosen by {order}"


@describes(ev.HeroChosen)
def _hero(state: GameState, e: ev.HeroChosen) -> str:
    return f"{_name(state, e.seat)} chose the {e.hero}"


@describes(ev.HeroesDealt)
def _dealt(state: GameState, e: ev.HeroesDealt) -> str:
    return "Heroes dealt: " + ", ".join(
        f"{_name(state, s)} the {h}" for s, h in enumerate(e.heroes)
    )


@describes(ev.MountainFilled)
def _filled(state: GameState, e: ev.MountainFilled) -> str:
    return f"The mountain was filled with {len(e.placements)} dice from the bag"


@describes(ev.RoundBegan)
def _round(state: GameState, e: ev.RoundBegan) -> str:
    # "first to dig: X" reads right for any name, the terminal game's "You" included
    return f"Round {e.round} began; first to dig: {_name(state, e.start_seat)}"


@describes(ev.DieTaken)
def _taken(state: GameState, e: ev.DieTaken) -> str:
    text = f"{_name(state, e.seat)} took {die_words(e.die, e.face)} from {slot_words(e.row, e.col)}"
    if e.slides:
        text += f"; {_dice_list(d for d, _, _ in e.slides)} slid down"
    return text


@describes(ev.BeerShared)
def _beer(state: GameState, e: ev.BeerShared) -> str:
    return (
        f"{_name(state, e.seat)} shared a beer with {_name(state, e.to_seat)}: "
        f"die {e.die} rolled {_roll_words(e.face)}; {_name(state, e.seat)} takes two dice"
    )


@describes(ev.MagicPhaseBegan)
def _magic(state: GameState, e: ev.MagicPhaseBegan) -> str:
    return "The magic phase began: " + ", ".join(_name(state, s) for s in e.seats)


@describes(ev.MagicSpent)
def _spent(state: GameState, e: ev.MagicSpent) -> str:
    if e.die is not None:
        source = die_words(e.die, state.faces[e.die])
    else:  # hero faces are named as the typed command names them: h0, h1, ...
        assert e.hero_face is not None, "the fold refuses a spend of neither a die nor a face"
        face = state.hero_faces(e.seat)[e.hero_face]
        source = f"hero face h{e.hero_face} ({face_words(face)})"
    rolls = " and ".join(
        f"die {d} ({die_face_words(d, state.faces[d])} -> {_roll_words(f)})" for d, f in e.rolls
    )
    return f"{_name(state, e.seat)} spent {source} " + (
        f"to reroll {rolls}" if rolls else "with nothing to reroll"
    )


@describes(ev.MagicTurnEnded)
def _magic_end(state: GameState, e: ev.MagicTurnEnded) -> str:
    return f"{_name(state, e.seat)} ended their magic turn"


def _scores(state, seats, scores) -> str:
    return "; ".join(
        f"{_name(state, s)} {sum(sc)} (tunnels {sc[0]}, treasure {sc[1]}, hazards {sc[2]})"
        for s, sc in zip(seats, scores, strict=True)
    )


@describes(ev.RoundScored)
def _scored(state: GameState, e: ev.RoundScored) -> str:
    text = f"Round {e.round} scored: {_scores(state, range(len(e.scores)), e.scores)}"
    if e.doubled is not None:
        text += f"; {_name(state, e.doubled)} doubled their gems"
    return text


@describes(ev.ReplenishBegan)
def _replenish(state: GameState, e: ev.ReplenishBegan) -> str:
    return "Replenish: choose dice to cache"


@describes(ev.DiceCached)
def _cached(state: GameState, e: ev.DiceCached) -> str:
    return f"{_name(state, e.seat)} cached {_dice_list(e.dice)}"


@describes(ev.TrovesRerolled)
def _rerolled(state: GameState, e: ev.TrovesRerolled) -> str:
    return f"{len(e.rolls)} trove dice were rerolled"


@describes(ev.StartPlayerChosen)
def _start(state: GameState, e: ev.StartPlayerChosen) -> str:
    text = f"{_name(state, e.seat)} has the lowest total and starts the next round"
    if e.tied:
        text += " (tie broken at random)"
    return text


@describes(ev.TieBreakBegan)
def _tiebreak(state: GameState, e: ev.TieBreakBegan) -> str:
    names = ", ".join(_name(state, s) for s in e.seats)
    return f"Tie-break {e.number}: {names} reroll their troves for an extra round"


@describes(ev.TieBreakScored)
def _tiebreak_scored(state: GameState, e: ev.TieBreakScored) -> str:
    return f"Tie-break {e.number} scored: {_scores(state, e.seats, e.scores)}"


@describes(ev.GameEnded)
def _ended(state: GameState, e: ev.GameEnded) -> str:
    names = " and ".join(_name(state, s) for s in e.winners)
    return f"{names} {'wins' if len(e.winners) == 1 else 'share the win'}"


@describes(ev.CommandUndone)
def _undone(state: GameState, e: ev.CommandUndone) -> str:
    return f"The command at event {e.seq} was undone"
