"""The table's facts folded onto the state (``core.events.table``): one small record,
``GameState.facts``, so the rules' fields stay as they were.

Importing this module registers the handlers with ``core.projections.apply``.
"""

from __future__ import annotations

from attrs import evolve

from core.events import table as tev
from core.projections.apply import handles
from core.projections.state import OVER, GameState


@handles(tev.DiceCommitted)
def _committed(state: GameState, e: tev.DiceCommitted) -> GameState:
    return state.replace(facts=evolve(state.facts, commitment=e.commitment))


@handles(tev.SeedChosen)
def _chosen(state: GameState, e: tev.SeedChosen) -> GameState:
    return state.replace(facts=evolve(state.facts, seed_chosen_by=e.by))


@handles(tev.SeedRevealed)
def _revealed(state: GameState, e: tev.SeedRevealed) -> GameState:
    return state.replace(facts=evolve(state.facts, revealed=e.secret))


@handles(tev.GameClosed)
def _closed(state: GameState, e: tev.GameClosed) -> GameState:
    return state.replace(
        phase=OVER, winners=(), active=None, pending=(), facts=evolve(state.facts, closed=e.reason)
    )


@handles(tev.SeatHandedToBot)
def _handed(state: GameState, e: tev.SeatHandedToBot) -> GameState:
    seats = tuple(sorted({**dict(state.facts.bot_seats), e.seat: e.bot}.items()))
    return state.replace(facts=evolve(state.facts, bot_seats=seats))


@handles(tev.SeatReturned)
def _returned(state: GameState, e: tev.SeatReturned) -> GameState:
    seats = tuple((seat, bot) for seat, bot in state.facts.bot_seats if seat != e.seat)
    return state.replace(facts=evolve(state.facts, bot_seats=seats))
