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


def render(text: str) -> Markup:
    """The rules file's text as HTML, safe to put in a page as it is."""
    tokens = _tokens(text)
    for opening, inline in pairwise(tokens):
        if opening.type == "heading_open":
            opening.attrSet("id", slug(_heading_text(inline)))
    html = _MARKDOWN.renderer.render(tokens, _MARKDOWN.options, {})
    html = html.replace("<table>", '<div class="table-wrap"><table>')
    return Markup(html.replace("</table>", "</table></div>"))


def headings(text: str) -> list[tuple[int, str, str]]:
    """The file's headings as (level, anchor, text): the page's table of contents."""
    tokens = _tokens(text)
    return [
        (int(opening.tag[1:]), slug(_heading_text(inline)), _heading_text(inline))
        for opening, inline in pairwise(tokens)
        if opening.type == "heading_open"
    ]


__all__ = ["DEFAULT_RULES_FILE", "headings", "render", "slug"]
