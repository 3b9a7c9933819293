"""How a move's loss is named and scored, as lichess does for chess.

A move's **loss** is the value of the best move found less the value of the move
played, both on the same sampled futures: in a multiplayer game in points of
win chance (percentage points: 31% against 24% is a loss of 7), in a solo game
in points of expected final score. It is never below 0 (the best move found is
the best the analysis knows of, so the move played is at most as good).

Marks, by the size of the loss (multiplayer in win-chance points, solo in score
points; the solo thresholds are the multiplayer ones divided by 2.5):

============  ===========  ======
mark          multiplayer  solo
============  ===========  ======
inaccuracy    4 or more    1.6
mistake       8 or more    3.2
blunder       15 or more   6
============  ===========  ======

A move's **accuracy** is lichess's formula on the loss in win-chance points
(solo: 2.5 times the loss in score points), ``103.1668 * exp(-0.04354 * loss) -
3.1669`` kept within 0 and 100: 100 for the best move, about 83 for a loss of 4,
72 for 8, 50 for 15. A seat's accuracy is the mean over its decisions that had
a choice (a forced move, the only legal one, counts for nothing either way).
"""

from __future__ import annotations

import math

INACCURACY, MISTAKE, BLUNDER = "inaccuracy", "mistake", "blunder"
#: Loss thresholds in multiplayer win-chance points, largest first.
THRESHOLDS = ((BLUNDER, 15.0), (MISTAKE, 8.0), (INACCURACY, 4.0))
#: A solo point of expected score counts as this many win-chance points.
SOLO_FACTOR = 2.5


def scaled(loss: float, mode: str) -> float:
    """A loss in the multiplayer scale (win-chance points)."""
    return loss * SOLO_FACTOR if mode == "solo" else loss


def mark(loss: float, mode: str) -> str | None:
    """The mark a loss earns (``None`` below an inaccuracy)."""
    size = scaled(loss, mode)
    for name, threshold in THRESHOLDS:
        if size >= threshold - 1e-9:
            return name
    return None


def thresholds(mode: str) -> dict[str, float]:
    """The thresholds in the game's own unit, for the report."""
    factor = SOLO_FACTOR if mode == "solo" else 1.0
    return {name: threshold / factor for name, threshold in reversed(THRESHOLDS)}


def accuracy(loss: float, mode: str) -> float:
    """One move's accuracy, 0 to 100."""
    value = 103.1668 * math.exp(-0.04354 * scaled(loss, mode)) - 3.1669
    return min(100.0, max(0.0, value))


__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MISTAKE",
    "SOLO_FACTOR",
    "THRESHOLDS",
    "accuracy",
    "mark",
    "scaled",
    "thresholds",
]
