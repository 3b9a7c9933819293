"""Scoring a solo game (RULES.md section 4): the points of the final trove and their rating.

Neutralized hazard die: 1 point per hazard symbol; unfrozen treasure: 1 per gem;
frozen treasure: 2 per gem; each tunnel sequence that reaches 5: 5 points.
Tunnel dice in a sequence that stops short of 5, tools and magic score nothing.

``score_solo`` works on plain faces and bookkeeping, so a score can be checked
without a game; ``solo_score(state)`` reads them from a projected state.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Final

from attrs import frozen

from core.dice import gems, hazard_symbols, tunnel_value

if TYPE_CHECKING:
    from core.projections.state import GameState

#: Points for each tunnel sequence that reaches 5.
SEQUENCE_POINTS: Final = 5

#: The rating bands: the lowest score of each band, in order (rule D10: Average is 46-60).
RATINGS: Final[tuple[tuple[int, str], ...]] = (
    (0, "Disaster"),
    (15, "A brave start"),
    (31, "Improving"),
    (46, "Average"),
    (61, "Excellent"),
    (71, "Masterful"),
)


@frozen
class SoloBreakdown:
    """A solo score by category."""

    hazards: int  # neutralized hazard dice: 1 per hazard symbol
    treasure: int  # unfrozen treasure: 1 per gem
    frozen: int  # frozen treasure: 2 per gem
    tunnels: int  # 5 per sequence reaching 5

    @property
    def total(self) -> int:
        """The game's score."""
        return self.hazards + self.treasure + self.frozen + self.tunnels


@frozen
class SoloScore:
    """A solo game's score, its rating band and where the points came from."""

    score: int
    rating: str
    breakdown: SoloBreakdown


def rating(score: int) -> str:
    """The rating band of a solo score: 0-14 Disaster ... 71+ Masterful (rule D10)."""
    if score < 0:
        raise ValueError(f"a solo score is never negative, not {score}")
    name = RATINGS[0][1]
    for lowest, band in RATINGS:
        if score >= lowest:
            name = band
    return name


def score_solo(
    faces: Mapping[int, str],
    neutralized: Collection[int],
    frozen_dice: Collection[int],
    sequences: Iterable[Sequence[int]],
) -> SoloScore:
    """The score of a final trove.

    ``faces`` maps each trove die to its face; ``neutralized`` are its neutralized
    hazard dice, ``frozen_dice`` its frozen treasure dice, ``sequences`` its tunnel
    sequences (die ids, from the 1 up).
    """
    hazards = sum(hazard_symbols(faces[d]) for d in neutralized)
    frozen_gems = sum(gems(faces[d]) for d in frozen_dice)
    loose_gems = sum(gems(f) for d, f in faces.items() if d not in frozen_dice)
    complete = sum(1 for seq in sequences if max(tunnel_value(faces[d]) for d in seq) >= 5)
    breakdown = SoloBreakdown(hazards, loose_gems, 2 * frozen_gems, SEQUENCE_POINTS * complete)
    return SoloScore(breakdown.total, rating(breakdown.total), breakdown)


def solo_score(state: GameState) -> SoloScore:
    """The score and rating of a solo game's trove as it stands (final once the game is over)."""
    trove = state.troves[0]
    faces = {d: state.face(d) for d in trove}
    return score_solo(
        faces,
        {d for d, _ in state.solo.neutralized if d in faces},
        {d for d, _ in state.solo.frozen if d in faces},
        state.solo.sequences,
    )
