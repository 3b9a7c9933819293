"""The review after a game: each seat's biggest mistakes, stepped through on the board.

Once the game is over the review key analyses it as ``dice-miner analyse`` does
(``core.analysis``: every decision weighed on sampled futures; kept beside the
log, so a second look is instant) and walks through each seat's biggest losses
(the analysis's ``biggest``, in seat order): the move played, the best move
found, what the move cost and its mark, with the board showing the position the
move was made from. Analysing takes seconds: ``analyse`` is the slow, pure part
the application runs off the screen's loop, reporting its progress and stopping
at the next position when asked (``Review.stop``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from attrs import frozen

from core import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Command,
    CommandSyntaxError,
    Game,
    GameState,
    Options,
    analyse_log,
    history,
    judge_each,
    parse_command,
    report,
    tasks,
)


class Stopped(Exception):
    """The review was closed while the game was being analysed."""


@frozen
class ReviewItem:
    """One step of the review: a seat's move and what the analysis says of it (or, for a
    seat without a loss, that it had none)."""

    seat: int
    seat_line: str  # "Brok: accuracy 92.9 over 30 choices; 4 inaccuracies, 0 mistakes, 1 blunder"
    position: GameState  # the board shown: the state the move was made from
    headline: str  # "round 2, excavation: a mistake, 9.3 points of win chance lost"
    loss: float | None = None  # None: nothing lost, nothing to compare
    mark: str | None = None
    played: Command | None = None
    best: Command | None = None
    played_words: str = ""
    played_value: str = ""
    best_words: str = ""
    best_value: str = ""


class Review:
    """The review of a finished game: analysing (``items`` None), then its steps."""

    def __init__(self) -> None:
        self.items: tuple[ReviewItem, ...] | None = None
        self.index = 0
        self.progress = (0, 0)  # positions weighed, of how many
        self._stop = threading.Event()

    @property
    def item(self) -> ReviewItem:
        """The step shown."""
        assert self.items
        return self.items[self.index]

    def step(self, delta: int) -> None:
        """Move ``delta`` steps on (or back), within the review."""
        if self.items:
            self.index = max(0, min(len(self.items) - 1, self.index + delta))

    def stop(self) -> None:
        """Stop analysing at the next position (the review was closed)."""
        self._stop.set()

    @property
    def stopped(self) -> bool:
        """True once the review was closed."""
        return self._stop.is_set()

    def watch(self, judged: Iterable, total: int) -> Iterator:
        """The judgements as they come, counting them and stopping when asked."""
        self.progress = (0, total)
        for done, judgement in enumerate(judged, start=1):
            if self.stopped:
                raise Stopped
            self.progress = (done, total)
            yield judgement


def analyse(game: Game, log_path: Path | None, samples: int | None, review: Review) -> dict:
    """The analysis of the game (slow: seconds), the one kept beside its log if there is one."""
    if log_path is not None:
        return analyse_log(str(log_path), samples, progress=review.watch).document
    batches = game.batches()
    hist = history(batches)
    todo = tasks(hist)
    options = Options.for_mode(hist.final.mode, samples)
    judged = list(review.watch(judge_each(todo, options), len(todo)))
    return report(hist, batches, judged, options, "")


def items(document: dict[str, Any], game: Game, names: Sequence[str]) -> tuple[ReviewItem, ...]:
    """The review's steps: each seat's biggest losses, in seat order, the board at each."""
    positions = {d.seq: d.before for d in history(game.batches()).decisions}
    solo = document["log"]["mode"] == "solo"
    found = []
    for seat in document["summary"]:
        line = f"{names[seat['seat']]}: {_seat_words(seat)}"
        if not seat["biggest"]:
            none = "no decision with a choice" if not seat["choices"] else "no move lost anything"
            headline = f"{none} against the best move found: nothing to review"
            found.append(ReviewItem(seat["seat"], line, game.state, headline))
        for move in seat["biggest"]:
            position = positions[move["seq"]]
            found.append(
                ReviewItem(
                    seat["seat"],
                    line,
                    position,
                    _headline(move, solo),
                    move["loss"],
                    move["mark"],
                    _command(move["played"]["command"], seat["seat"]),
                    _command(move["best"]["command"], seat["seat"]),
                    move["played"]["words"],
                    _value(move["played"]["value"], solo),
                    move["best"]["words"],
                    _value(move["best"]["value"], solo),
                )
            )
    return tuple(found)


def _seat_words(seat: dict[str, Any]) -> str:
    accuracy = "-" if seat["accuracy"] is None else f"{seat['accuracy']:.1f}"
    counts = ", ".join(
        f"{seat[key]} {one if seat[key] == 1 else key}"
        for key, one in (
            ("inaccuracies", INACCURACY),
            ("mistakes", MISTAKE),
            ("blunders", BLUNDER),
        )
    )
    choices = seat["choices"]
    return f"accuracy {accuracy} over {choices} choice{'' if choices == 1 else 's'}; {counts}"


#: The phase a move was made in, as the review says it.
PHASE_WORDS = {"setup": "choosing heroes", "magic": "magic phase", "replenish": "replenish"}


def _headline(move: dict[str, Any], solo: bool) -> str:
    phase = PHASE_WORDS.get(move["phase"], move["phase"])
    if solo:
        when = ""
    elif move["round"]:
        when = f"round {move['round']}, {phase}: "
    else:  # the heroes are chosen before round 1
        when = f"{phase}: "
    mark = move["mark"]
    named = f"{'an' if mark[0] in 'aeiou' else 'a'} {mark}, " if mark else ""
    unit = "points of expected score" if solo else "points of win chance"
    return f"{when}{named}{move['loss']:.1f} {unit} lost"


def _value(value: float, solo: bool) -> str:
    return f"{value:.1f} points expected" if solo else f"{value:.1f}% to win"


def _command(text: str, seat: int) -> Command | None:
    """The analysis's command text as a command (to mark its dice on the board)."""
    try:
        return parse_command(text, seat)
    except CommandSyntaxError:
        return None


__all__ = ["Review", "ReviewItem", "Stopped", "analyse", "items"]
