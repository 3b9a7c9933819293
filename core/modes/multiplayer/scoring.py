"""Scoring a multiplayer round from the faces in each trove (RULES.md section 3).

Every function takes plain faces (dice and hero faces together: hero faces count
exactly like dice), so the scores can be recomputed independently of any state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from attrs import frozen

from core.dice import CAVE_INS, CHESTS, DRAGONS, GEMS, TUNNEL_VALUE


@frozen
class Breakdown:
    """One player's score for one round, by category."""

    tunnel: int
    treasure: int
    hazard: int

    @property
    def total(self) -> int:
        """The round's score."""
        return self.tunnel + self.treasure + self.hazard


def tunnel_points(faces: Iterable[str]) -> int:
    """Sequences start at 1 and never branch: sum over v of v x min(count of 1..v).

    1,2,3 -> 6; 1,2,4 -> 3; 2,3,4 -> 0; 1,1,2,2,3 -> 9; 1,1,1 -> 3; 1,2,2,3 -> 6.
    """
    counts = [0] * 6
    value = TUNNEL_VALUE
    for face in faces:
        counts[value[face]] += 1
    points, running = 0, None
    for v in range(1, 6):
        running = counts[v] if running is None else min(running, counts[v])
        if running == 0:
            break
        points += v * running
    return points


def gem_count(faces: Iterable[str]) -> int:
    """Gems shown, before any doubling."""
    return sum(map(GEMS.__getitem__, faces))


def hazard_points(faces: Iterable[str]) -> int:
    """(P > 0 ? P x C : -C) + (S > 0 ? S x D : -D); chests score nothing."""
    c = d = p = s = 0
    for face in faces:
        c += CAVE_INS[face]
        d += DRAGONS[face]
        p += face == "pickaxe"
        s += face == "shield"
    return (p * c if p else -c) + (s * d if s else -d)


def doubled_seat(gem_counts: Sequence[int], compared: Iterable[int]) -> int | None:
    """The single seat among ``compared`` with strictly the most gems, or ``None``.

    A tie for most means nobody doubles. Players with no gems never double.
    """
    seats = list(compared)
    best = max((gem_counts[s] for s in seats), default=0)
    leaders = [s for s in seats if gem_counts[s] == best]
    return leaders[0] if best > 0 and len(leaders) == 1 else None


def score_round(
    troves: Sequence[Sequence[str]], compared: Iterable[int] | None = None
) -> tuple[Breakdown, ...]:
    """Each player's breakdown for one round; ``compared`` limits the gem doubling.

    ``troves[s]`` is every face seat ``s`` shows (dice and hero faces). In a
    tie-break only the tied players are compared for the doubling.
    """
    seats = range(len(troves)) if compared is None else compared
    counts = [gem_count(faces) for faces in troves]
    doubled = doubled_seat(counts, seats)
    return tuple(
        Breakdown(
            tunnel=tunnel_points(faces),
            treasure=counts[s] * (2 if s == doubled else 1),
            hazard=hazard_points(faces),
        )
        for s, faces in enumerate(troves)
    )


def chest_capacity(faces: Iterable[str]) -> int:
    """Chests shown by these faces."""
    return sum(map(CHESTS.__getitem__, faces))
