"""The rules pages (``R``): ``frontends.rules_explained`` wrapped to the screen, a page at a
time, so that even a small terminal shows every rule whole (the help was cut short)."""

from __future__ import annotations

import textwrap

from frontends.cli.tui.board import Fragments
from frontends.cli.tui.panels import DIM, TITLE
from frontends.rules_explained import rules

#: Lines the box takes around a page: its frame, the blank line and the footer.
CHROME = 5
#: The widest a page is drawn, however wide the screen (lines of prose read best short).
WIDEST = 76


def page_width(columns: int) -> int:
    """The text's width on a screen ``columns`` wide (inside the box's frame)."""
    return max(20, min(WIDEST, columns - 6))


def pages(solo: bool, columns: int, rows: int) -> list[list[tuple[str, str]]]:
    """The topics wrapped to the screen and packed into pages of whole topics (a topic
    longer than a page is split, its title kept on the first part)."""
    width, height = page_width(columns), max(4, rows - CHROME)
    out: list[list[tuple[str, str]]] = [[]]
    for title, text in rules(solo):
        block = [(TITLE, f" {title}")]
        for paragraph in text.split("\n"):  # a formula stays on its own line
            block += [("", f"  {line}  ") for line in textwrap.wrap(paragraph, width - 4)]
        current = out[-1]
        if current and len(current) + 1 + len(block) > height:
            out.append(current := [])
        if current:
            current.append(("", ""))
        for line in block:
            if len(current) >= height:
                out.append(current := [])
            current.append(line)
    return out


def page(solo: bool, number: int, columns: int, rows: int) -> tuple[Fragments, int]:
    """Page ``number`` (kept within the pages there are) as drawn, and the page shown."""
    book = pages(solo, columns, rows)
    number = max(0, min(number, len(book) - 1))
    out: Fragments = []
    for style, line in book[number]:
        out += [(style, line), ("", "\n")]
    more = "→ next · " if number < len(book) - 1 else ""
    back = "← back · " if number else ""
    out += [("", "\n"), (DIM, f"  page {number + 1} of {len(book)} · {more}{back}Esc closes")]
    return out, number


__all__ = ["CHROME", "page", "page_width", "pages"]
