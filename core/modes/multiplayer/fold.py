"""The multiplayer game's fold: its events onto the state (``HANDLERS``, the
mode's ``MODE.fold``; what every mode shares is ``core.projections.apply``'s own)."""

from __future__ import annotations

from core.events.base import Event
from core.modes.multiplayer import events as ev
from core.mountain import SLOT_COUNT, SLOTS, slot_at
from core.projections.apply import Handler, handler_table
from core.projections.state import EXCAVATION, MAGIC, OVER, REPLENISH, GameState

#: This mode's fold, one handler per event: the mode's ``MODE.fold``.
HANDLERS: dict[type[Event], Handler] = {}
handles = handler_table(HANDLERS)

_SLOT = {rc: k for k, rc in enumerate(SLOTS)}  # (row, col) -> slot index


def _set_item(items: tuple, index: int, value) -> tuple:
    return items[:index] + (value,) + items[index + 1 :]


def _set_faces(faces: tuple, rolls) -> tuple:
    new = list(faces)
    for die, face in rolls:
        new[die] = face
    return tuple(new)


@handles(ev.FirstPlayerRolled)
def _first_rolled(state: GameState, e: ev.FirstPlayerRolled) -> GameState:
    return state  # the roll-off is a matter of record; FirstPlayerChosen carries its result


@handles(ev.FirstPlayerChosen)
def _first_chosen(state: GameState, e: ev.FirstPlayerChosen) -> GameState:
    return state.replace(first_seat=e.seat, start_seat=e.seat, hero_order=e.hero_order)


@handles(ev.HeroChosen)
def _hero_chosen(state: GameState, e: ev.HeroChosen) -> GameState:
    return state.replace(
        heroes=_set_item(state.heroes, e.seat, e.hero),
        hero_table=_set_item(state.hero_table, e.seat, e.faces),  # as logged, not today's table
        hero_order=tuple(s for s in state.hero_order if s != e.seat),
    )


@handles(ev.HeroesDealt)
def _heroes_dealt(state: GameState, e: ev.HeroesDealt) -> GameState:
    if len(e.heroes) != state.players or len(e.faces) != state.players:
        raise ValueError(f"{len(e.heroes)} heroes dealt to {state.players} seats")
    return state.replace(heroes=e.heroes, hero_table=e.faces, hero_order=())


@handles(ev.RoundBegan)
def _round_began(state: GameState, e: ev.RoundBegan) -> GameState:
    n = state.players
    return state.replace(
        phase=EXCAVATION,
        round=e.round,
        start_seat=e.start_seat,
        active=e.start_seat,
        picks_left=1,
        beer_shared=False,
        pending=(),
        spent=frozenset(),
        hero_spent=(frozenset(),) * n,
        cached=((),) * n,
    )


@handles(ev.DieTaken)
def _die_taken(state: GameState, e: ev.DieTaken) -> GameState:
    slots = list(state.mountain)
    k = _SLOT.get((e.row, e.col))  # slot_at, inline: a game takes ~60 dice
    if k is None:
        raise ValueError(f"there is no slot at row {e.row}, column {e.col}")
    if slots[k] != e.die:
        raise ValueError(f"the slot at row {e.row}, column {e.col} holds no die {e.die}")
    slots[k] = None
    for die, row, col in e.slides:
        slots[slots.index(die)] = None
        slots[slot_at(row, col)] = die
    seat, troves = e.seat, state.troves
    troves = (*troves[:seat], (*troves[seat], e.die), *troves[seat + 1 :])
    # rule D5: with the mountain empty the turn is over, even with a pick left from a beer.
    if state.picks_left > 1 and slots.count(None) != SLOT_COUNT:
        return state.replace(mountain=tuple(slots), troves=troves, picks_left=state.picks_left - 1)
    return state.replace(
        mountain=tuple(slots),
        troves=troves,
        active=(seat + 1) % len(state.names),  # the next seat clockwise
        picks_left=1,
        beer_shared=False,
    )


@handles(ev.BeerShared)
def _beer_shared(state: GameState, e: ev.BeerShared) -> GameState:
    troves = list(state.troves)
    troves[e.seat] = tuple(d for d in troves[e.seat] if d != e.die)
    troves[e.to_seat] = (*troves[e.to_seat], e.die)
    return state.replace(
        troves=tuple(troves),
        faces=_set_faces(state.faces, ((e.die, e.face),)),
        picks_left=2,
        beer_shared=True,
    )


@handles(ev.MagicPhaseBegan)
def _magic_began(state: GameState, e: ev.MagicPhaseBegan) -> GameState:
    return state.replace(phase=MAGIC, pending=e.seats, active=None, picks_left=1)


@handles(ev.MagicSpent)
def _magic_spent(state: GameState, e: ev.MagicSpent) -> GameState:
    if (e.die is None) == (e.hero_face is None):  # a forged record: the rules name one
        raise ValueError("a magic spend names exactly one source, a die or a hero face")
    if e.die is not None:
        spent, hero_spent = state.spent | {e.die}, state.hero_spent
    else:
        if e.hero_face is None or not e.hero_face < len(state.hero_faces(e.seat)):
            raise ValueError(f"seat {e.seat}'s hero has no face h{e.hero_face}")
        spent = state.spent
        hero_spent = _set_item(state.hero_spent, e.seat, state.hero_spent[e.seat] | {e.hero_face})
    return state.replace(faces=_set_faces(state.faces, e.rolls), spent=spent, hero_spent=hero_spent)


@handles(ev.MagicTurnEnded)
def _magic_turn_ended(state: GameState, e: ev.MagicTurnEnded) -> GameState:
    return state.replace(pending=tuple(s for s in state.pending if s != e.seat))


def _add_round(state: GameState, scores) -> tuple:
    return tuple(rounds + (scores[s],) for s, rounds in enumerate(state.round_scores))


@handles(ev.RoundScored)
def _round_scored(state: GameState, e: ev.RoundScored) -> GameState:
    return state.replace(round_scores=_add_round(state, e.scores), pending=())


@handles(ev.ReplenishBegan)
def _replenish_began(state: GameState, e: ev.ReplenishBegan) -> GameState:
    return state.replace(phase=REPLENISH, pending=e.seats, cached=((),) * state.players)


@handles(ev.DiceCached)
def _dice_cached(state: GameState, e: ev.DiceCached) -> GameState:
    return state.replace(
        cached=_set_item(state.cached, e.seat, e.dice),
        pending=tuple(s for s in state.pending if s != e.seat),
    )


@handles(ev.StartPlayerChosen)
def _start_chosen(state: GameState, e: ev.StartPlayerChosen) -> GameState:
    return state.replace(start_seat=e.seat)


@handles(ev.TieBreakBegan)
def _tiebreak_began(state: GameState, e: ev.TieBreakBegan) -> GameState:
    n = state.players
    return state.replace(
        tiebreak=e.number,
        contenders=e.seats,
        spent=frozenset(),
        hero_spent=(frozenset(),) * n,
    )


@handles(ev.TieBreakScored)
def _tiebreak_scored(state: GameState, e: ev.TieBreakScored) -> GameState:
    totals = dict(zip(e.seats, (sum(s) for s in e.scores), strict=True))
    row = tuple(totals.get(s, 0) for s in range(state.players))
    return state.replace(tiebreak_scores=(*state.tiebreak_scores, row), pending=())


@handles(ev.GameEnded)
def _game_ended(state: GameState, e: ev.GameEnded) -> GameState:
    return state.replace(phase=OVER, winners=e.winners, active=None, pending=())
