"""A finished game's standings as the end of a game shows them (Board Game Arena's table):
one row per player with each scoring category, each round, the tie-break and the total.

Nothing here scores: the rounds' categories are the engine's (``GameState.round_scores``,
``tiebreak_scores``), a solo game's the engine's ``solo_score``, the winners the
state's. The rows are only added up and ordered for reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core import GameState, SeatRecord, solo_score

#: The multiplayer categories, as ``Scores`` holds them (tunnel, treasure, hazard).
MULTI_CATEGORIES = (("tunnels", "Tunnels"), ("treasure", "Treasure"), ("hazards", "Hazards"))
#: The solo game's, as ``SoloBreakdown`` names them.
SOLO_CATEGORIES = (
    ("hazards", "Neutralized hazards"),
    ("treasure", "Treasure"),
    ("frozen", "Frozen treasure"),
    ("tunnels", "Tunnels to 5"),
)


def standings(state: GameState, seats: tuple[SeatRecord, ...] = ()) -> dict[str, Any]:
    """The standings of ``state`` (a finished game's, or as they stand): ``columns`` (key,
    header), ``rows`` (best first, each with ``place``, ``name``, ``who``, its categories,
    ``rounds``, ``tiebreak``, ``total``, ``winner``), and why a closed game ended."""
    left = set(state.facts.left)
    handed = dict(state.facts.bot_seats)

    def who(seat: int) -> str:
        if seat in left:
            return f"left: a {handed.get(seat, 'bot')} bot played on"
        if seats and seats[seat].bot is not None:
            return f"{seats[seat].bot} bot"
        if seat in handed:
            return f"a {handed[seat]} bot stood in"
        return "person"

    if state.mode == "solo":
        if not state.troves:
            return {"mode": "solo", "columns": [], "rows": [], "closed": state.facts.closed or None}
        score = solo_score(state)
        b = score.breakdown
        row = {
            "seat": 0,
            "place": 1,
            "name": state.names[0],
            "who": who(0),
            "categories": [b.hazards, b.treasure, b.frozen, b.tunnels],
            "rounds": [],
            "tiebreak": None,
            "total": score.score,
            "rating": score.rating,
            "winner": False,  # a solo game has a score and a rating, no winner
        }
        return {
            "mode": "solo",
            "columns": [list(c) for c in SOLO_CATEGORIES],
            "rows": [row],
            "rounds": 0,
            "closed": state.facts.closed or None,
        }
    rounds = max((len(r) for r in state.round_scores), default=0)
    rows = []
    for seat, name in enumerate(state.names):
        scored = state.round_scores[seat] if seat < len(state.round_scores) else ()
        categories = [sum(s[k] for s in scored) for k in range(3)]
        breaks = [t[seat] for t in state.tiebreak_scores if seat < len(t)]
        rows.append(
            {
                "seat": seat,
                "name": name,
                "who": who(seat),
                "categories": categories,
                "rounds": [sum(s) for s in scored],
                "tiebreak": sum(breaks) if state.tiebreak_scores else None,
                "total": sum(categories),
                "winner": seat in state.winners,
            }
        )

    def rank(row: dict[str, Any]) -> tuple[bool, int, int]:
        return (row["winner"], row["total"], row["tiebreak"] or 0)

    rows.sort(key=rank, reverse=True)
    for row in rows:
        row["place"] = 1 + sum(1 for other in rows if rank(other) > rank(row))
    return {
        "mode": "multi",
        "columns": [list(c) for c in MULTI_CATEGORIES],
        "rows": rows,
        "rounds": rounds,
        "closed": state.facts.closed or None,
    }


def result_words(over: bool, winners: Sequence[str], closed: str = "", solo: str = "") -> str:
    """How a game ended, in a few words for a list: a solo game has a score, no winner
    (it was listed as a "tie"), a closed one none."""
    if not over:
        return "unfinished"
    if closed:
        return "closed, no winner"
    if solo:
        return f"solo: {solo}"
    if len(winners) == 1:
        return f"{winners[0]} won"
    return f"tie: {', '.join(winners)}" if winners else "no winner"


def result_of(state: GameState) -> str:
    """``result_words`` for a game's state."""
    solo = ""
    if state.mode == "solo" and state.is_over and not state.facts.closed and state.troves:
        score = solo_score(state)
        solo = f"{score.score} ({score.rating})"
    winners = [state.names[s] for s in state.winners]
    return result_words(state.is_over, winners, state.facts.closed, solo)


__all__ = ["result_of", "result_words", "standings"]
