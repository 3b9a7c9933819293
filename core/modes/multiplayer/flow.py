"""The multiplayer game's automatic transitions, emitted in the same batch as the
command that triggers them: filling the mountain, starting the magic phase,
skipping turns with nothing to decide, scoring, replenishing, the tie-break, the end.
"""

from __future__ import annotations

from core.modes.multiplayer import events as ev
from core.modes.multiplayer.cache import cache_capacity
from core.modes.multiplayer.magic import has_magic
from core.modes.multiplayer.scoring import doubled_seat, gem_count, score_round
from core.mountain import is_bare
from core.projections.state import EXCAVATION, MAGIC, REPLENISH, SETUP, GameState
from core.rules.chance import fill_mountain, reroll_troves
from core.rules.emitter import Emitter

ROUNDS = 3
#: A tie still standing after this many tie-breaks is shared (the engine's
#: safeguard against an endless loop; no real game comes near it).
MAX_TIEBREAKS = 50


def clockwise_from(state: GameState, start: int, seats=None) -> tuple[int, ...]:
    """``seats`` (all by default) in clockwise order starting at ``start``."""
    n = state.players
    order = tuple((start + k) % n for k in range(n))
    return order if seats is None else tuple(s for s in order if s in seats)


def advance(out: Emitter) -> None:
    """Emit every transition that needs no player's decision, until one does."""
    while True:
        state = out.state
        if state.phase == SETUP and not state.hero_order:
            assert state.first_seat is not None, "the roll-off comes before the heroes"
            out.emit(fill_mountain(state, out.rng))
            out.emit(ev.RoundBegan(1, state.first_seat))
        elif state.phase == EXCAVATION and is_bare(state.mountain):
            _begin_magic(out)
        elif state.phase == MAGIC and state.pending:
            seat = state.pending[0]
            if has_magic(state, seat):
                return
            out.emit(ev.MagicTurnEnded(seat))  # nothing to spend: the turn passes
        elif state.phase == MAGIC:
            _score(out)
        elif state.phase == REPLENISH and state.pending:
            seat = state.pending[0]
            if cache_capacity(state, seat):
                return
            out.emit(ev.DiceCached(seat, ()))  # no chests: nothing to cache
        elif state.phase == REPLENISH:
            _next_round(out)
        else:
            return


def _begin_magic(out: Emitter) -> None:
    """The player who would have taken the next die goes first, then clockwise.

    rule D5: a turn whose second pick found the mountain empty is over, so the
    projection has already passed the turn to the next player.
    """
    state = out.state
    assert state.active is not None, "someone takes dice in the excavation"
    out.emit(ev.MagicPhaseBegan(clockwise_from(state, state.active)))


def _score(out: Emitter) -> None:
    state = out.state
    troves = [state.trove_faces(s) for s in range(state.players)]
    if state.tiebreak:
        seats = state.contenders
        breakdowns = score_round(troves, compared=seats)
        doubled = _doubled(troves, seats)
        scores = tuple(_triple(breakdowns[s]) for s in seats)
        state = out.emit(ev.TieBreakScored(state.tiebreak, seats, scores, doubled))
        _finish_or_tiebreak(out, dict(zip(seats, (sum(s) for s in scores), strict=True)))
        return
    breakdowns = score_round(troves)
    seats = tuple(range(state.players))
    scores = tuple(_triple(b) for b in breakdowns)
    state = out.emit(ev.RoundScored(state.round, scores, _doubled(troves, seats)))
    if state.round < ROUNDS:
        out.emit(ev.ReplenishBegan(clockwise_from(state, state.start_seat)))
    else:
        _finish_or_tiebreak(out, dict(enumerate(state.totals())))


def _triple(b) -> tuple[int, int, int]:
    return (b.tunnel, b.treasure, b.hazard)


def _doubled(troves, seats) -> int | None:
    return doubled_seat([gem_count(f) for f in troves], seats)


def _finish_or_tiebreak(out: Emitter, totals: dict[int, int]) -> None:
    """End the game with the single highest total, or play a tie-break among the tied."""
    best = max(totals.values())
    tied = tuple(s for s, t in totals.items() if t == best)
    state = out.state
    if len(tied) == 1 or state.tiebreak >= MAX_TIEBREAKS:
        out.emit(ev.GameEnded(tied))
        return
    state = out.emit(ev.TieBreakBegan(state.tiebreak + 1, tied))
    # Tied players reroll their whole troves (no caching) and play an extra magic phase.
    out.emit(reroll_troves((d for s in tied for d in state.troves[s]), out.rng))
    out.emit(ev.MagicPhaseBegan(clockwise_from(state, state.start_seat, tied)))


def _next_round(out: Emitter) -> None:
    """Reroll every uncached trove die, choose the new start player, refill, begin."""
    state = out.state
    kept = {d for cache in state.cached for d in cache}
    out.emit(reroll_troves((d for t in state.troves for d in t if d not in kept), out.rng))
    totals = state.totals()
    lowest = min(totals)
    tied = tuple(s for s, t in enumerate(totals) if t == lowest)
    if len(tied) == 1:
        state = out.emit(ev.StartPlayerChosen(tied[0]))
    else:
        state = out.emit(ev.StartPlayerChosen(out.rng.pick(tied), tied))
    out.emit(fill_mountain(state, out.rng))
    out.emit(ev.RoundBegan(state.round + 1, state.start_seat))
