"""How a die looks on screen: a short glyph for its face and a colour for its type.

Glyphs are chosen to read at a glance and to render in common terminal fonts
(digits for tunnels, a symbol plus a count for everything else); ``ASCII``
is the fallback for terminals without them (``--ascii``, or a non-UTF-8 locale).
Each die type has one background colour; the face's glyph is drawn on it.
"""

from __future__ import annotations

from typing import Final

from core import KIND_OF

#: Face -> glyph, with Unicode symbols that common monospace fonts carry.
UNICODE: Final[dict[str, str]] = {
    "1": "1",
    "2": "2",
    "3": "3",
    "4": "4",
    "5": "5",
    "beer": "B",
    "gem1": "◆1",
    "gem2": "◆2",
    "gem3": "◆3",
    "cavein1": "▼1",
    "cavein2": "▼2",
    "dragon1": "§1",
    "dragon2": "§2",
    "dragon4": "§4",
    "pickaxe": "⚒",
    "shield": "Ʊ",
    "chest1": "▣1",
    "chest2": "▣2",
    "magic1": "✦1",
    "magic2": "✦2",
    "magic3": "✦3",
}

#: Face -> glyph in plain ASCII.
ASCII: Final[dict[str, str]] = {
    **{str(v): str(v) for v in range(1, 6)},
    "beer": "B",
    "gem1": "$1",
    "gem2": "$2",
    "gem3": "$3",
    "cavein1": "v1",
    "cavein2": "v2",
    "dragon1": "&1",
    "dragon2": "&2",
    "dragon4": "&4",
    "pickaxe": "P",
    "shield": "S",
    "chest1": "C1",
    "chest2": "C2",
    "magic1": "*1",
    "magic2": "*2",
    "magic3": "*3",
}

#: What each symbol means, for the legend under the keys and in the help.
LEGEND: Final = (
    ("1", "tunnel"),
    ("beer", "beer"),
    ("gem1", "gem"),
    ("cavein1", "cave-in"),
    ("dragon1", "dragon"),
    ("pickaxe", "pickaxe"),
    ("shield", "shield"),
    ("chest1", "chest"),
    ("magic1", "magic"),
)

#: The colour of each die type: (background, foreground when out of reach).
KIND_COLOURS: Final[dict[str, tuple[str, str]]] = {
    "tunnel": ("#af5f00", "#d78700"),
    "treasure": ("#008787", "#00afaf"),
    "hazard": ("#af0000", "#ff5f5f"),
    "tool": ("#767676", "#b2b2b2"),
    "magic": ("#8700d7", "#af5fff"),
}

#: The order dice are listed in a trove: by type, as the score is counted.
KIND_ORDER: Final = {kind: n for n, kind in enumerate(KIND_COLOURS)}


#: The interface's own symbols, for terminals that only show ASCII.
_ASCII_UI = str.maketrans(
    {"·": ".", "│": "|", "▶": ">", "▸": ">", "←": "<", "→": ">", "↑": "^", "↓": "v",
     "✓": "*", "✗": "x", "…": "~", "▀": "=",
     "─": "-", "┌": "+", "┐": "+", "└": "+", "┘": "+"}
)  # fmt: skip


class Glyphs:
    """One glyph table (Unicode or ASCII) and the styles built on it."""

    def __init__(self, ascii_only: bool = False) -> None:
        self.table = ASCII if ascii_only else UNICODE
        self.ascii_only = ascii_only

    def face(self, face: str | None) -> str:
        """The glyph of a face (``"?"`` for a die in the bag)."""
        return "?" if face is None else self.table.get(face, face)

    def symbol(self, face: str) -> str:
        """The glyph without its count, as the legend shows it."""
        return self.face(face).rstrip("0123456789") or self.face(face)

    def text(self, fragments: list[tuple]) -> list[tuple]:
        """Formatted text as it should be drawn: the interface's symbols in ASCII if asked."""
        if not self.ascii_only:
            return fragments
        return [(f[0], f[1].translate(_ASCII_UI), *f[2:]) for f in fragments]

    def plain(self, text: str) -> str:
        """A string of the interface's own (a border, a separator) in ASCII if asked."""
        return text.translate(_ASCII_UI) if self.ascii_only else text

    def cell(self, face: str | None, width: int) -> str:
        """The glyph centred in ``width`` columns (a die's cell)."""
        return self.face(face).center(width)


def die_style(die: int, face: str | None, *, dim: bool = False) -> str:
    """The prompt-toolkit style of a die: its type's colour, beer in gold."""
    return kind_style(KIND_OF[die], face, dim=dim)


def kind_style(kind: str, face: str | None, *, dim: bool = False) -> str:
    """The style of a face shown on a die of type ``kind``."""
    bright, faint = KIND_COLOURS[kind]
    if dim:  # out of reach: the type's colour on grey, so the type still reads
        return f"bg:#262626 fg:{faint}"
    fg = "fg:#ffd700" if face == "beer" else "fg:#ffffff"
    return f"bg:{bright} {fg} bold"


def sort_key(die: int, face: str | None) -> tuple:
    """Dice in a trove sort by type, then by face (tunnels by value)."""
    return (KIND_ORDER[KIND_OF[die]], face == "beer", face or "", die)
