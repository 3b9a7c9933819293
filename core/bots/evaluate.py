"""What bots know about scores: a trove's round score as it stands, and what a reroll is worth.

These are read-only helpers over the projected state and ``core.scoring``; they
never decide anything. The treasure doubling is estimated against the other
players' gems as they show now (in a tie-break, only the tied players count).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from core.dice import (
    ALL_FACES,
    FACES,
    KIND_OF,
    cave_ins,
    dragons,
    gems,
    magic_symbols,
    tunnel_value,
)
from core.modes.multiplayer.scoring import gem_count
from core.mountain import remove, side_slots, slide_run, top_slots
from core.projections.state import GameState

#: Per face: (tunnel value, gems, cave-ins, dragons, pickaxes, shields, magic symbols).
FACE_INFO = {
    face: (tunnel_value(face), gems(face), cave_ins(face), dragons(face))
    + (int(face == "pickaxe"), int(face == "shield"), magic_symbols(face))
    for face in ALL_FACES
}


def tally(faces: Iterable[str], magic_weight: float = 0) -> tuple[float, int]:
    """A trove's round score before the gem doubling (plus ``magic_weight`` per magic
    symbol, for the rerolls magic buys), and its gems (a doubling adds them once more).

    The same sums as ``core.scoring`` (the tests check they agree) in one pass over
    a face table, because bots score thousands of imagined troves per decision.
    """
    counts = [0, 0, 0, 0, 0, 0]
    gem = cave = dragon = pick = shield = magic = 0
    info = FACE_INFO
    for face in faces:
        value, g, c, d, p, s, m = info[face]
        counts[value] += 1
        gem += g
        cave += c
        dragon += d
        pick += p
        shield += s
        magic += m
    tunnel, running = 0, counts[1]
    for v in range(1, 6):  # sequences from 1: sum of v x min(count of 1..v)
        running = min(running, counts[v])
        if not running:
            break
        tunnel += v * running
    hazard = (pick * cave if pick else -cave) + (shield * dragon if shield else -dragon)
    points = tunnel + gem + hazard
    return (points + magic_weight * magic if magic_weight else points), gem


def score_faces(faces: Iterable[str], rival_gems: int) -> float:
    """The round score of these faces, doubling the gems if they beat ``rival_gems``."""
    points, gem = tally(faces)
    return points + gem if gem > rival_gems else points


def rival_gems(state: GameState, seat: int) -> int:
    """The most gems any other compared player shows now (0 if none)."""
    seats = state.contenders if state.tiebreak else range(state.players)
    return max((gem_count(state.trove_faces(s)) for s in seats if s != seat), default=0)


def projected_score(state: GameState, seat: int) -> float:
    """``seat``'s round score if the round were scored now."""
    return score_faces(state.trove_faces(seat), rival_gems(state, seat))


def reroll_gains(state: GameState, seat: int, dice: Iterable[int]) -> dict[int, float]:
    """For each die, the expected change of the projected score if it alone were rerolled."""
    faces = list(state.trove_faces(seat))
    index = {d: i for i, d in enumerate(state.troves[seat])}
    rivals = rival_gems(state, seat)
    now = score_faces(faces, rivals)
    gains = {}
    for die in dice:
        i, kept = index[die], faces[index[die]]
        outcomes = FACES[KIND_OF[die]]
        total: float = 0
        for face in outcomes:
            faces[i] = face
            total += score_faces(faces, rivals)
        faces[i] = kept
        gains[die] = total / len(outcomes) - now
    return gains


def take_gains(state: GameState, seat: int, dice: Iterable[int]) -> dict[int, float]:
    """For each mountain die, the projected score of ``seat`` after taking it."""
    faces = list(state.trove_faces(seat))
    rivals = rival_gems(state, seat)
    return {d: score_faces([*faces, state.face(d)], rivals) for d in dice}


def best_pair(state: GameState, seat: int, faces: Sequence[str]) -> float:
    """The best projected score from taking two dice, top or side, after sharing a beer.

    Used to value sharing a beer: the shared die leaves the trove (``faces`` are
    what remains) and the player then takes two dice, each a top or a side die;
    a side pick slides its run down (rule D3) before the second pick.
    """
    rivals = rival_gems(state, seat)
    mountain, all_faces = state.mountain, state.faces
    best = None
    for k in sorted(top_slots(mountain) + side_slots(mountain)):
        first = [*faces, all_faces[mountain[k]]]
        after = remove(mountain, k, slide_run(mountain, k))
        seconds = sorted(top_slots(after) + side_slots(after))
        if not seconds:  # rule D5: the last die taken alone
            value = score_faces(first, rivals)
        else:
            value = max(score_faces([*first, all_faces[after[j]]], rivals) for j in seconds)
        best = value if best is None else max(best, value)
    return score_faces(faces, rivals) if best is None else best


__all__ = [
    "best_pair",
    "projected_score",
    "reroll_gains",
    "rival_gems",
    "score_faces",
    "take_gains",
]
