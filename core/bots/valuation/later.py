"""What the random deal of the later rounds misses, learned from games.

The valuation scores each round still to come on the bag dealt out at random
(``multi_value.Future``), each trove's magic rerolling only its beer faces and
no die cached. Players do better than that: they take the dice that suit their
trove, cache their best faces on their chests, spend magic on their worst dice.
How much better depends on the trove. Measured at the start of each replenish
phase, a seat's later rounds scored more than the model said, and more still
with magic, hazards and tool dice (pickaxes and shields that the hazards taken
later multiply) and with the chests it shows (they keep good faces).

So each seat's final total gets a correction: a linear function, per table size
and round, of its trove's dice of each kind, the rivals' mean of the same, its
hero and the chests it shows, with the weights fitted by ridge least squares to
what the later rounds really scored less what the model said
(``scripts/fit_later_rounds.py``, fixed seeds; the weights are in
``later_weights``). The first generation learned from ``montecarlo``'s games
against itself; the committed one from the expert's own games against
``montecarlo``, the expert playing with the first, as TD-Gammon learned from its
own play (1,000 2-player games: 66.8% won, the first 62.9%). It is the same for
every future of a position, so it moves no chance of luck, only the worth of a
die kept for the rounds to come.

The expert plays its later rounds better than its rivals do (at 4 players the
model missed 13.0 points of its seats' rounds 2 and 3 against 10.3 of its
rivals'). Where the weights have ``RIVALS`` for a table the expert sees it from
its own seat (``LaterRounds.seen_by``): its own total corrected by ``WEIGHTS``,
fitted on its seats, every other seat's by ``RIVALS``, fitted on theirs
(``fit_later_rounds --split``). The committed weights have none: split at 4
players, the expert won no measurably more (docs/performance.md, "The expert's
own seat apart from its rivals'").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

from core.bots.valuation.later_weights import RIVALS, WEIGHTS
from core.dice import HEROES, KIND_OF, chests
from core.projections.state import GameState

#: The kinds of dice, in the order of the weights.
KINDS = ("tunnel", "treasure", "hazard", "tool", "magic")
#: The heroes, in the order of the weights.
HERO_NAMES = tuple(sorted(HEROES))
#: What each weight multiplies, in order: the seat's dice of each kind, the rivals' mean
#: of each kind, one per hero (1 for the seat's), the chests it shows (hero included),
#: and 1 (what the model misses whatever the trove).
FEATURES = (
    *(f"own {kind}" for kind in KINDS),
    *(f"rivals' {kind}" for kind in KINDS),
    *(f"hero {name}" for name in HERO_NAMES),
    "chests shown",
    "constant",
)
_CHESTS = FEATURES.index("chests shown")
#: How far the expert and the analysis apply the correction: 0 not at all, 1 to the win
#: chances, 2 to ``montecarlo``'s half of the blend as well, 3 to the play-outs' sense of
#: a die's worth too (``worth.SeatWorth``).
LEVEL = 2


def features(
    state: GameState, dice: Sequence[Sequence[int]], shown: Sequence[str | None]
) -> list[list[float]]:
    """Each seat's ``FEATURES``, where ``dice[s]`` are the dice seat ``s`` ends the round
    with and ``shown[d]`` the face die ``d`` shows then (None: not known, rerolled)."""
    n = state.players
    kinds = [[0] * len(KINDS) for _ in range(n)]
    for s in range(n):
        for d in dice[s]:
            kinds[s][_KIND_INDEX[KIND_OF[d]]] += 1
    totals = [sum(k[i] for k in kinds) for i in range(len(KINDS))]
    found = []
    for s in range(n):
        name = state.heroes[s] if s < len(state.heroes) else None
        shown_chests = sum(chests(f) for f in (shown[d] for d in dice[s]) if f is not None)
        if name is not None:
            shown_chests += sum(chests(f) for f in HEROES[name])
        rivals = [(totals[i] - kinds[s][i]) / (n - 1) for i in range(len(KINDS))]
        heroes = [1.0 if name == h else 0.0 for h in HERO_NAMES]
        found.append([*map(float, kinds[s]), *rivals, *heroes, float(shown_chests), 1.0])
    return found


Weights = Mapping[tuple[int, int], tuple[float, ...]]


class LaterRounds:
    """The correction for a table of weights: ``weights[(players, round)]``, one per
    ``FEATURES``, for the rounds still to come after round ``round``.

    With ``rivals`` and a ``seat``, the table is seen by that seat: its own total is
    corrected by ``weights`` (fitted on the expert's seats) and every other seat's by
    ``rivals`` (fitted on its rivals' seats) where ``rivals`` has the table: the expert's
    later rounds go better than its rivals' (``seen_by``)."""

    def __init__(
        self, weights: Weights, rivals: Weights | None = None, seat: int | None = None
    ) -> None:
        self.weights = weights
        self.rivals = rivals or {}
        self.seat = seat

    def seen_by(self, seat: int) -> LaterRounds:
        """The same correction with ``seat``'s own total by ``weights``, the others' by
        ``rivals``."""
        return LaterRounds(self.weights, self.rivals, seat)

    def at(self, state: GameState) -> tuple[float, ...] | None:
        """The weights for the rounds after ``state``'s; None after the last (or a
        tie-break) and before the first."""
        return None if state.tiebreak else self.weights.get((state.players, state.round))

    def offsets(
        self, state: GameState, dice: Sequence[Sequence[int]], shown: Sequence[str | None]
    ) -> list[float] | None:
        """Each seat's correction (``features``'s arguments); None where the table has
        no weights for this round (the last, or before the first)."""
        w = self.at(state)
        if w is None:
            return None
        theirs = self._rivals(state, w)
        return [
            sum(a * b for a, b in zip(w if s == self.seat else theirs, f, strict=True))
            for s, f in enumerate(features(state, dice, shown))
        ]

    def die_bonus(self, state: GameState, seat: int, die: int, face: str | None) -> float:
        """What one more ``die`` showing ``face`` adds to ``seat``'s correction, rivals
        aside: the play-outs' sense of a die's worth (``worth.SeatWorth``)."""
        w = self.at(state)
        if w is None:
            return 0.0
        if seat != self.seat:
            w = self._rivals(state, w)
        shown = chests(face) if face is not None else 0
        return w[_KIND_INDEX[KIND_OF[die]]] + w[_CHESTS] * shown

    def _rivals(self, state: GameState, w: tuple[float, ...]) -> tuple[float, ...]:
        """The weights of a seat not ``self.seat``'s: ``rivals`` where they cover the table
        and a seat sees it, else ``w`` (every seat alike)."""
        if self.seat is None:
            return w
        return self.rivals.get((state.players, state.round), w)


_KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}


@cache
def learned() -> LaterRounds:
    """The correction with the committed weights (``later_weights``), made once."""
    return LaterRounds(WEIGHTS, RIVALS)


__all__ = [
    "FEATURES",
    "HERO_NAMES",
    "KINDS",
    "LEVEL",
    "LaterRounds",
    "Weights",
    "features",
    "learned",
]
