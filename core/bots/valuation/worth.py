"""What a mountain die is worth to a seat: the play-outs' sense of a good pick.

The Monte Carlo bot ranks the dice it may take by ``own_value``: what the die
adds to its own score this round (faces as shown, gems doubled against the
rivals' gems as they stand, each magic symbol ``magic_weight``) plus its mean
addition in the rounds left on the sampled futures. The analysis needs that for
every seat and most of the mountain's dice at every excavation decision, on
many futures (a ranking read on a few futures is noisy, and that noise would be
the same in every play-out), so it counts instead of tallying: each seat's
trove in each future's later round is summed once into counts (tunnel numbers,
gems, hazards, tools, magic), and a die's worth is the score of the counts with
the die's face added less the score without, the same sums as
``core.bots.evaluate.tally``. Every seat's dice show the future's roll of them.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.bots.evaluate import FACE_INFO
from core.bots.multi_value import Future
from core.bots.valuation.later import LaterRounds
from core.projections.state import EXCAVATION, GameState

#: A trove summed: counts of tunnel numbers 0 to 5, gems, cave-ins, dragons, pickaxes,
#: shields, magic symbols.
Counts = tuple[int, ...]


def counts(faces: Sequence[str]) -> Counts:
    """The sums ``score`` reads, of these faces."""
    c = [0] * 12
    for face in faces:
        value, gem, cave, dragon, pick, shield, magic = FACE_INFO[face]
        c[value] += 1
        c[6] += gem
        c[7] += cave
        c[8] += dragon
        c[9] += pick
        c[10] += shield
        c[11] += magic
    return tuple(c)


def score(c: Counts, rival: int, magic_weight: float) -> float:
    """The round score of counts ``c`` (gems doubled if they beat ``rival``), plus
    ``magic_weight`` per magic symbol: ``tally`` and ``score_faces`` in one."""
    tunnel, running = 0, c[1]
    for v in range(1, 6):
        running = min(running, c[v])
        if not running:
            break
        tunnel += v * running
    cave, dragon, pick, shield = c[7], c[8], c[9], c[10]
    hazard = (pick * cave if pick else -cave) + (shield * dragon if shield else -dragon)
    gem = c[6]
    return tunnel + hazard + (2 * gem if gem > rival else gem) + magic_weight * c[11]


def added(c: Counts, face: str) -> Counts:
    """Counts ``c`` with one more face."""
    value, gem, cave, dragon, pick, shield, magic = FACE_INFO[face]
    more = list(c)
    more[value] += 1
    more[6] += gem
    more[7] += cave
    more[8] += dragon
    more[9] += pick
    more[10] += shield
    more[11] += magic
    return tuple(more)


class SeatWorth:
    """``worth(die)``: what taking ``die`` adds to ``seat``'s own value (kept once known)."""

    def __init__(
        self,
        state: GameState,
        seat: int,
        futures: Sequence[Future],
        magic_weight: float,
        later: LaterRounds | None = None,
    ) -> None:
        n = state.players
        heroes = [list(state.hero_faces(s)) for s in range(n)]
        others = [s for s in range(n) if s != seat]
        self.face = state.face  # a mountain die's: it shows one
        self.weight = magic_weight
        self.now: tuple[Counts, int, float] | None = None
        if state.phase == EXCAVATION:
            mine = counts(state.trove_faces(seat))  # its dice's faces, then its hero's
            rival = max((counts(state.trove_faces(s))[6] for s in others), default=0)
            self.now = (mine, rival, score(mine, rival, magic_weight))
        self.later: list[tuple[Counts, int, float, list[str]]] = []
        for future in futures:
            for rolls, _digits, shares in future.rounds:
                own = [rolls[d] for d in (*state.troves[seat], *shares[seat])]
                mine = counts(own + heroes[seat])
                rival = max(
                    (
                        counts([rolls[d] for d in (*state.troves[s], *shares[s])] + heroes[s])[6]
                        for s in others
                    ),
                    default=0,
                )
                self.later.append((mine, rival, score(mine, rival, magic_weight), rolls))
        self.futures = len(futures)
        self.memo: dict[int, float] = {}
        self.state = state
        self.seat = seat
        self.later_rounds = later

    def __call__(self, die: int) -> float:
        found = self.memo.get(die)
        if found is None:
            found = self.memo[die] = self._worth(die)
        return found

    def _worth(self, die: int) -> float:
        weight = self.weight
        total = 0.0
        if self.now is not None:
            mine, rival, base = self.now
            total += score(added(mine, self.face(die)), rival, weight) - base
        if self.later:
            later = 0.0
            for mine, rival, base, rolls in self.later:
                later += score(added(mine, rolls[die]), rival, weight) - base
            total += later / self.futures
        if self.later_rounds is not None:
            total += self.later_rounds.die_bonus(self.state, self.seat, die, self.face(die))
        return total


__all__ = ["Counts", "SeatWorth", "added", "counts", "score"]
