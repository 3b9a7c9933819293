"""The expert's order of merit at a table: its win chance and ``montecarlo``'s lead together.

The win chances (``multi.verdict``) and ``montecarlo``'s value (its mean lead
over the best rival, with a bonus per future won) each play the round out
their own way, and their errors differ: each alone ties the other, the two
added win more (docs/performance.md, "The expert at a table"). Each is scaled
to the spread of its candidates (the best 0, the worst -1) and ``montecarlo``'s
weighted ``BLEND``. The expert plays the best merit; the analysis values its
candidates by it too, set on the scale of win chances (``on_chance_scale``) so
that its losses and marks stay in points of win chance.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from typing import TypeVar

#: The weight of ``montecarlo``'s valuation beside the win chance (0: the win chance alone).
BLEND = 1.0
#: Points of mean lead worth one unit of win chance, to break near ties of win chance.
LEAD_WEIGHT = 1e-4

Move = TypeVar("Move", bound=Hashable)


def scaled(values: Mapping[Move, float], among: list[Move] | None = None) -> dict[Move, float]:
    """Values less the best of ``among`` (all by default), over the spread of ``among``
    (max less min; 1 when all are equal)."""
    basis = [values[c] for c in (values if among is None else among)]
    top, low = max(basis), min(basis)
    spread = (top - low) or 1.0
    return {c: (v - top) / spread for c, v in values.items()}


def merits(
    chances: Mapping[Move, float], leads: Mapping[Move, float], blend: float = BLEND
) -> dict[Move, float]:
    """Every candidate of ``chances`` with its merit: its scaled chance plus ``blend`` times
    its scaled lead. A candidate ``montecarlo`` did not weigh (a spend on other dice, say)
    counts its own scaled chance for both. With fewer than two candidates in common, or
    no ``blend``, the chances alone."""
    common = [c for c in chances if c in leads and math.isfinite(leads[c])]
    if blend <= 0 or len(common) < 2:
        return dict(chances)
    mine = scaled(chances, common)
    other = scaled({c: leads[c] for c in common})
    return {c: mine[c] + blend * other.get(c, mine[c]) for c in chances}


def on_chance_scale(
    chances: Mapping[Move, float], leads: Mapping[Move, float], blend: float = BLEND
) -> dict[Move, float]:
    """The merits as win chances: the best chance less the merit's share of the spread of
    chances (``merit / (1 + blend)`` of it). The order is the merits'; a candidate best by
    both opinions keeps its chance, one worst by both gets the worst chance, and where
    the chances do not differ neither do these (an opinion on points is no loss of
    chance)."""
    common = [c for c in chances if c in leads and math.isfinite(leads[c])]
    if blend <= 0 or len(common) < 2:
        return dict(chances)
    merit = merits(chances, leads, blend)
    top = max(chances[c] for c in common)
    spread = top - min(chances[c] for c in common)
    return {c: top + spread * m / (1 + blend) for c, m in merit.items()}


__all__ = ["BLEND", "LEAD_WEIGHT", "merits", "on_chance_scale", "scaled"]
