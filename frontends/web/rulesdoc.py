"""The rules reference (``docs/RULES.md``) as HTML, for the browser's ``/rules`` page.

Rendered by markdown-it-py (CommonMark with tables) with raw HTML switched off,
so markup in the file (a ``<script>``, an ``<img onerror>``) is shown as text and
never runs. The file's leading note (an HTML comment on where the copy comes
from) is left out, headings get anchors, and the headings make the page's
table of contents. Tables sit in a scrolling wrapper for narrow screens.
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


__all__ = ["DEFAULT_RULES_FILE", "headings", "render", "slug"]
