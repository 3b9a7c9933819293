"""What the analysis says of one position: the candidate moves, each with its value.

A ``Valued`` move carries the figure the mover is judged by (``value``: the
mover's win chance from 0 to 1 in a multiplayer game, the expected final solo
score in a solo game), a figure that breaks ties between equal values
(``lead``: the mover's mean final lead over its best rival, in points; the
value itself in solo), and what the move leaves every seat (``chances``: each
seat's win chance; the expected score alone in solo). A ``Judgement`` is the
moves weighed at one decision, best first, and which of them was played.
"""

from __future__ import annotations

from attrs import frozen

from core.commands import CacheDice, Command, SpendMagic


@frozen
class Valued:
    """One candidate move and what the sampled futures say it is worth."""

    command: Command
    value: float
    lead: float
    chances: tuple[float, ...]

    @property
    def key(self) -> tuple[float, float]:
        """The order of merit: the value, then the lead."""
        return (self.value, self.lead)


@frozen
class Judgement:
    """The moves weighed at one position, best first; ``played`` indexes the move made
    (``None`` for a position no one has moved from yet: the end of an unfinished log)."""

    legal: int  # how many legal commands the mover had
    candidates: tuple[Valued, ...]
    played: int | None

    @property
    def best(self) -> Valued:
        """The best move found."""
        return self.candidates[0]

    def rank(self) -> int | None:
        """The played move's rank: 1 + the moves found strictly better."""
        if self.played is None:
            return None
        mine = self.candidates[self.played].key
        return 1 + sum(c.key > mine for c in self.candidates)


def same_move(a: Command, b: Command) -> bool:
    """True if two commands do the same: spend targets and cached dice in any order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, SpendMagic) and isinstance(b, SpendMagic):
        return (a.seat, a.die, a.hero_face, sorted(a.targets)) == (
            b.seat,
            b.die,
            b.hero_face,
            sorted(b.targets),
        )
    if isinstance(a, CacheDice) and isinstance(b, CacheDice):
        return (a.seat, sorted(a.dice)) == (b.seat, sorted(b.dice))
    return a == b


def judgement(legal: int, found: list[Valued], played: Command | None) -> Judgement:
    """Sort ``found`` best first (a stable sort: ties keep the order they were found in)
    and point at the played move, which must be among them."""
    ordered = tuple(sorted(found, key=lambda v: v.key, reverse=True))
    index = None
    if played is not None:
        index = next(i for i, v in enumerate(ordered) if same_move(v.command, played))
    return Judgement(legal, ordered, index)


__all__ = ["Judgement", "Valued", "judgement", "same_move"]
