"""The rules reference (``docs/RULES.md``) as HTML, for the browser's ``/rules`` page.

Rendered by markdown-it-py (CommonMark with tables) with raw HTML switched off,
so markup in the file (a ``<script>``, an ``<img onerror>``) is shown as text and
never runs. The file's leading note (an HTML comment on where the copy comes
from) is left out, headings get anchors, and the headings make the page's
table of contents. Tables sit in a scrolling wrapper for narrow screens. The page is
for players first (``for_players``): the file's opening notes for developers close it.
"""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup

#: The repository's rules reference, served at /rules.
DEFAULT_RULES_FILE = Path(__file__).resolve().parents[2] / "docs" / "RULES.md"

_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")
_COMMENT = re.compile(r"<!--.*?-->", re.S)


def slug(text: str) -> str:
    """A heading's anchor: "2. The mountain" -> "2-the-mountain" (punctuation dropped)."""
    words = re.sub(r"[^\w\s-]", "", text.lower())
    return re.sub(r"[\s_]+", "-", words.strip()) or "section"


def _tokens(text: str) -> list[Token]:
    return _MARKDOWN.parse(_COMMENT.sub("", text))


def _heading_text(inline: Token) -> str:
    """A heading's words without their markup (``**`` and backticks)."""
    return "".join(child.content for child in inline.children or () if child.type != "softbreak")


def _anchored(tokens: list[Token]) -> list[tuple[Token, str, str]]:
    """Each heading's opening token, its anchor (unique: a repeated one gets -2, -3 ...)
    and its words."""
    found, used = [], set()
    for opening, inline in pairwise(tokens):
        if opening.type == "heading_open":
            words = _heading_text(inline)
            anchor, n = slug(words), 1
            while anchor in used:
                n += 1
                anchor = f"{slug(words)}-{n}"
            used.add(anchor)
            found.append((opening, anchor, words))
    return found


#: The page's opening for players, before the file's own words.
PLAYERS_FIRST = (
    "How Dice Miner is played: the dice, the mountain, the game for 2 to 4 players and "
    "the solo game. Where the original rulebooks are silent, a **decision** (D1, D2, ...) "
    "says what this game does; they are listed under Decisions."
)
#: Where the file's notes for whoever works on the code go: the end of the page.
DEVELOPER_NOTES = "Notes for developers"


def for_players(text: str) -> str:
    """The rules file reordered for a player: its opening notes for developers (where the
    rules come from, how code and tests cite them: a paragraph naming code) move to a
    last section of their own, and a sentence for players opens the page."""
    body = _COMMENT.sub("", text).strip("\n")
    head, sep, rest = body.partition("\n## ")
    if not sep or not head.startswith("# "):
        return text  # not the reference's shape: shown as written
    title, *blocks = [b.strip() for b in head.split("\n\n") if b.strip()]
    notes = [b for b in blocks if "`" in b or " code " in b]
    kept = [b for b in blocks if b not in notes]
    page = "\n\n".join([title, PLAYERS_FIRST, *kept]) + "\n\n## " + rest.rstrip("\n")
    if notes:
        page += f"\n\n## {DEVELOPER_NOTES}\n\n" + "\n\n".join(notes)
    return page + "\n"


def render(text: str) -> Markup:
    """The rules file's text as HTML, safe to put in a page as it is."""
    tokens = _tokens(text)
    for opening, anchor, _ in _anchored(tokens):
        opening.attrSet("id", anchor)
    html = _MARKDOWN.renderer.render(tokens, _MARKDOWN.options, {})
    html = html.replace("<table>", '<div class="table-wrap"><table>')
    return Markup(html.replace("</table>", "</table></div>"))


def headings(text: str) -> list[tuple[int, str, str]]:
    """The file's headings as (level, anchor, text): the page's table of contents."""
    return [
        (int(opening.tag[1:]), anchor, words) for opening, anchor, words in _anchored(_tokens(text))
    ]


__all__ = ["DEFAULT_RULES_FILE", "for_players", "headings", "render", "slug"]
