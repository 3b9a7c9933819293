"""The table's facts folded onto the state (``core.modes.table.events``): one small record,
``GameState.facts``, so the rules' fields stay as they were.

``HANDLERS`` is the table's ``MODE.fold``, handed to ``core.projections.apply``.
"""

from __future__ import annotations

import re

from attrs import evolve

from core.events.base import Event
from core.modes.table import events as tev
from core.projections.apply import Handler, handler_table
from core.projections.state import OVER, GameState

#: This mode's fold, one handler per event: the table's ``MODE.fold``.
HANDLERS: dict[type[Event], Handler] = {}
handles = handler_table(HANDLERS)

_HEX64 = re.compile(r"^[0-9a-f]{64}$")


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


@handles(tev.PracticeChosen)
def _practice(state: GameState, e: tev.PracticeChosen) -> GameState:
    return state.replace(facts=evolve(state.facts, practice=e.by))


@handles(tev.SeatHandedToBot)
def _handed(state: GameState, e: tev.SeatHandedToBot) -> GameState:
    seats = tuple(sorted({**dict(state.facts.bot_seats), e.seat: e.bot}.items()))
    return state.replace(facts=evolve(state.facts, bot_seats=seats))


@handles(tev.SeatReturned)
def _returned(state: GameState, e: tev.SeatReturned) -> GameState:
    seats = tuple((seat, bot) for seat, bot in state.facts.bot_seats if seat != e.seat)
    return state.replace(facts=evolve(state.facts, bot_seats=seats))


@handles(tev.SeatLeft)
def _left(state: GameState, e: tev.SeatLeft) -> GameState:
    seats = tuple(sorted({**dict(state.facts.bot_seats), e.seat: e.bot}.items()))
    left = tuple(sorted({*state.facts.left, e.seat}))
    return state.replace(facts=evolve(state.facts, bot_seats=seats, left=left))


@handles(tev.RematchStarted)
def _rematch(state: GameState, e: tev.RematchStarted) -> GameState:
    return state.replace(facts=evolve(state.facts, rematch=e.game_id))


@handles(tev.GameBranched)
def _branched(state: GameState, e: tev.GameBranched) -> GameState:
    # the dice come from a seed or a secret, never neither or both (else the log is damaged)
    if (e.seed is None) == (not e.secret) or (e.secret and not _HEX64.match(e.secret)):
        raise ValueError("a branch's dice come from a seed or from a 64-hex-digit secret")
    facts = evolve(
        state.facts,
        branches=(*state.facts.branches, (e.parent, e.at, e.luck)),
        branch_seed=e.seed,
        branch_secret=e.secret,
    )
    return state.replace(facts=facts)
