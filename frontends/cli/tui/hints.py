"""The hint key: the best three moves for the person to act, as the game analysis weighs them.

A hint is the analysis of one position (``core.analysis.judge``: the mover's
candidate moves valued on sampled futures of the dice no one has seen, as
``dice-miner analyse`` values every decision of a finished game), asked for at
the position the game is in. Its futures come from the analysis's own stream for
this place in the game's history, so the values are those the review will show
for the same position. It takes a second or two: the application computes it
off the screen's loop (``hint_moves`` is the slow, pure part); a move made
meanwhile drops it.
"""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen

from core import GameState, Options, Task, judge, move_words
from frontends.cli.tui.typed import typed

#: Moves a hint shows.
SHOWN = 3


@frozen
class HintMove:
    """One move of a hint: its words, how to type it, and its value in words."""

    words: str
    typed: str
    value: str


@frozen
class Hint:
    """A hint asked for at ``state`` by ``seat``; ``moves`` is None while it is thought out."""

    state: GameState
    seat: int
    depth: int  # the place in the game's history of the decision (the analysis's stream)
    moves: tuple[HintMove, ...] | None = None


def value_words(value: float, mode: str) -> str:
    """A move's value as the analysis gives it: the mover's win chance in a game of several
    players, the expected final score in the solo game."""
    return f"{value:.1f} points expected" if mode == "solo" else f"{100 * value:.0f}% to win"


def hint_moves(
    state: GameState, depth: int, names: Sequence[str], samples: int | None = None
) -> tuple[HintMove, ...]:
    """The best ``SHOWN`` moves at ``state``, best first (slow: seconds, not frames)."""
    judgement = judge(Task(state, None, depth), Options.for_mode(state.mode, samples))
    return tuple(
        HintMove(
            move_words(state, v.command), typed(v.command, names), value_words(v.value, state.mode)
        )
        for v in judgement.candidates[:SHOWN]
    )


__all__ = ["SHOWN", "Hint", "HintMove", "hint_moves", "value_words"]
