"""The analysis on screen: the hint's best moves, and the review of a finished game.

Both are drawn where the event lines are (the widest panel), so the board stays in
view: a hint above the last events while the game goes on, a review step in their
place while the board shows that step's position. Fragments only; what is shown
comes from the session (``hints``, ``review``).
"""

from __future__ import annotations

import textwrap
import time

from frontends.cli.tui.board import Fragments
from frontends.cli.tui.panels import DIM, TITLE
from frontends.cli.tui.review import Review
from frontends.cli.tui.session import Session

BEST = "fg:#5fd787 bold"
PLAYED = "fg:#ff8787 bold"
MARK_STYLES = {"blunder": "fg:#ff5f5f bold", "mistake": "fg:#ffaf5f bold", "inaccuracy": BEST}


def thinking() -> str:
    """The word "thinking" with one to three dots, moving, so the screen is seen to be alive."""
    return "thinking" + "." * (1 + int(time.monotonic() * 4) % 3)


def hint(session: Session, width: int) -> Fragments:
    """The hint: thinking, or the best three moves with their values (nothing if none)."""
    shown = session.hint
    if shown is None:
        return []
    who = session.names[shown.seat]
    if shown.moves is None:
        return [
            (TITLE, " Hint "),
            (DIM, f" {thinking()} (a move cancels it; t hides it)\n"),
        ]
    whose = "your" if len(session.humans) == 1 else f"{who}'s"
    out: Fragments = [(TITLE, " Hint "), (DIM, f" {whose} best moves (t hides it)\n")]
    for n, move in enumerate(shown.moves, start=1):
        lead, tail = f"  {n}. ", f"  {move.value}  (:{move.typed})"
        room = max(10, width - len(lead) - len(tail) - 1)
        out += [
            ("fg:#ffd700 bold", lead),
            ("bold" if n == 1 else "", textwrap.shorten(move.words, room, placeholder="…")),
            (BEST if n == 1 else "", f"  {move.value}"),
            (DIM, f"  (:{move.typed})\n"),
        ]
    return out


def review(session: Session, width: int) -> Fragments:
    """The review in the event lines' place: analysing, or the step shown on the board."""
    shown: Review | None = session.review
    if shown is None:
        return []
    if shown.items is None:
        done, total = shown.progress
        count = f"{done} of {total} positions" if total else "reading the game"
        return [
            (TITLE, " Review "),
            (DIM, f" analysing the game: {count}, {thinking()} (Esc stops)\n"),
        ]
    if not shown.items:
        return [(TITLE, " Review "), (DIM, " nothing to review\n")]
    item = shown.item
    title = f" Review {shown.index + 1}/{len(shown.items)} "
    seat_line = textwrap.shorten(item.seat_line, max(20, width - len(title) - 2), placeholder="…")
    out: Fragments = [(TITLE, title), (DIM, f" {seat_line}\n")]
    if item.loss is None:
        out.append(("", f"  {item.headline}\n"))
        return out
    style = MARK_STYLES.get(item.mark or "", "bold")
    out += [("", "  "), (style, f"{item.headline}\n")]
    wrap = max(20, width - 12)
    for label, words, value, look in (
        ("played", item.played_words, item.played_value, PLAYED),
        ("best", item.best_words, item.best_value, BEST),
    ):
        lines = textwrap.wrap(f"{words} ({value})", wrap) or [""]
        out += [(look, f"  {label + ':':<8}"), ("", f"{lines[0]}\n")]
        out += [("", f"  {'':<8}{line}\n") for line in lines[1:]]
    if session.review_marks():
        lead = "  The board shows the position before the move, its dice marked: "
        if len(lead) + len("played, best.") > width:  # a narrow screen: the same, shorter
            lead = "  Before the move; dice marked: "
        out.append((DIM, lead))
        out += [(PLAYED, "played"), (DIM, ", "), (BEST, "best"), (DIM, ".\n")]
    return out


__all__ = ["hint", "review", "thinking"]
