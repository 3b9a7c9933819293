"""Drawing the board: the mountain as the pyramid it is, and the heroes to choose from.

Every function returns prompt-toolkit formatted text (``(style, text[, handler])``
fragments). Dice the player may select are drawn in full colour with their id
lit; dice that cannot be taken now are dimmed; the cursor is drawn inverted.
A click on a die or a hero reports its spot to the session.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.mouse_events import MouseEvent, MouseEventType

from core import HERO_NAMES, HEROES, KIND_OF, ROW_LENGTHS, ROWS, face_kind, slot_index
from frontends.cli.tui.choosing import Spot, grid_columns
from frontends.cli.tui.glyphs import Glyphs, die_style, kind_style
from frontends.cli.tui.session import Session
from frontends.cli.tui.table import short_name
from frontends.cli.tui.typed import die_id

Fragments = list[tuple]
OnClick = Callable[[Spot], None]

#: The mountain's foot, and the row and column numbers drawn on its edges.
GROUND = "fg:#875f00"
LABEL = "fg:#8a8a8a"
#: Cursor and highlight styles shared by the board and the troves.
CURSOR = "bg:#ffffff bold"
PICKED = "bg:#ffd700 fg:#000000 bold"
SOURCE = "bg:#ff87ff fg:#000000 bold"
#: The review's marks: the dice of the move played, and of the best move found.
REVIEW_MARKS = {"played": "bg:#d75f5f fg:#000000 bold", "best": "bg:#5fd787 fg:#000000 bold"}


def clicker(on_click: OnClick | None, spot: Spot):
    """A mouse handler that reports a click (button release) on ``spot``."""

    def handler(event: MouseEvent) -> object:
        if event.event_type != MouseEventType.MOUSE_UP:
            return NotImplemented
        if on_click is not None:
            on_click(spot)
        return None

    return handler


def frag(style: str, text: str, on_click: OnClick | None = None, spot: Spot | None = None):
    """One fragment, clickable when ``on_click`` and ``spot`` are given."""
    if on_click is None or spot is None:
        return (style, text)
    return (style, text, clicker(on_click, spot))


def cell_style(session: Session, die: int, selectable: set[Spot]) -> str:
    """A die's style: cursor, picked, source, full colour, or dimmed."""
    face = session.state.faces[die]
    chooser = session.chooser
    spot: Spot = ("die", die)
    marked = session.review_marks().get(die)
    if marked is not None:  # the review's step: the move played and the best move
        return REVIEW_MARKS[marked]
    if chooser.cursor == spot and die in chooser.picked:
        return f"{PICKED} underline"
    if chooser.cursor == spot:
        bright = kind_style(KIND_OF[die], face).split()[0].replace("bg:", "fg:")
        return f"{CURSOR} {bright}"
    if chooser.source is not None and chooser.source.die == die:
        return SOURCE
    if die in chooser.picked:
        return PICKED
    if spot not in selectable:
        return die_style(die, face, dim=True)
    return die_style(die, face)


def mountain(session: Session, glyphs: Glyphs, on_click: OnClick | None = None) -> Fragments:
    """The mountain: five rows from the top (2 dice) down to the bottom (6), each die's id
    under it as ``#17`` (so that no one reads a tunnel's face for an id)."""
    state = session.state
    chooser = session.chooser
    lit: set[Spot]
    if chooser.mode() == "recycle":
        lit = set(chooser.selectable())
    else:  # the dice the player to act may take, bot or person
        lit = {("die", t.die) for t in chooser.choices.takes}
    width, pitch = 5, 6
    out: Fragments = []
    for row in reversed(range(ROWS)):
        indent = " " * (2 + (pitch // 2) * row)
        # the row's number at the left edge, as the event lines name it ("row 2, col 1")
        dice_line: Fragments = [(LABEL, f"r{row}"), ("", indent[2:])]
        ids_line: Fragments = [("", indent)]
        for col in range(ROW_LENGTHS[row]):
            k = slot_index(row, col)
            die = None if k is None else state.mountain[k]
            if col:
                dice_line.append(("", " " * (pitch - width)))
                ids_line.append(("", " " * (pitch - width)))
            if die is None:
                dice_line.append(("fg:#444444", "·".center(width)))
                ids_line.append(("", " " * width))
                continue
            spot: Spot = ("die", die)
            style = cell_style(session, die, lit)
            dice_line.append(frag(style, glyphs.cell(state.faces[die], width), on_click, spot))
            ids_line.append(frag(*id_label(session, spot, lit, glyphs), on_click, spot))
        out += [*dice_line, ("", "\n"), *ids_line, ("", "\n")]
    out += base_line(pitch, width)
    return out


def base_line(pitch: int = 6, width: int = 5) -> Fragments:
    """The mountain's foot, the bottom row's column numbers in it (each row's columns
    count from its left end: col 1 of row 1 rests on cols 1 and 2 of row 0)."""
    out: Fragments = [(GROUND, " ▀")]
    for col in range(ROW_LENGTHS[0]):
        left = (width - 2) // 2
        gap = "" if col == 0 else "▀" * (pitch - width)
        out += [(GROUND, gap + "▀" * left), (LABEL, f"c{col}"), (GROUND, "▀" * (width - 2 - left))]
    out.append((GROUND, "▀\n"))
    return out


def id_label(
    session: Session,
    spot: Spot,
    selectable: set[Spot],
    glyphs: Glyphs,
    label: str | None = None,
    width: int = 5,
) -> tuple[str, str]:
    """The style and text of the id under a die: lit if selectable, ticked if picked."""
    label = die_id(spot[1]) if label is None else label
    if session.chooser.cursor == spot:
        style = "reverse bold"
    elif spot in selectable:
        style = "fg:#ffffff bold"
    else:
        style = "fg:#6c6c6c"
    if spot[0] == "die" and spot[1] in session.chooser.picked:
        label, style = "✓" + label, f"{style} fg:#ffd700"
    return style, label.center(width)


def mountain_width() -> int:
    """Columns the mountain needs (the bottom row and its margin)."""
    return 2 + ROW_LENGTHS[0] * 6 + 1


def face_cells(glyphs: Glyphs, faces, width: int = 3, styles=None) -> Fragments:
    """Hero faces drawn as dice of their type."""
    out: Fragments = []
    for n, face in enumerate(faces):
        style = styles[n] if styles else kind_style(face_kind(face), face)
        out.append((style, glyphs.cell(face, width)))
        out.append(("", " "))
    return out


def heroes(session: Session, glyphs: Glyphs, on_click: OnClick | None = None) -> Fragments:
    """The six heroes with their faces; those taken say by whom."""
    state = session.state
    choosing = session.chooser.mode() == "hero"
    out: Fragments = [
        ("fg:#ffd700 bold", " Heroes"),
        ("fg:#8a8a8a", "  (faces that count every round)\n"),
    ]
    for n, hero in enumerate(HERO_NAMES):
        spot: Spot = ("hero", hero)
        holder = state.heroes.index(hero) if hero in state.heroes else None
        if session.chooser.cursor == spot:
            style = "reverse bold"
        elif holder is not None:
            style = "fg:#6c6c6c"
        else:
            style = "bold"
        key = f" {n + 1} " if choosing and holder is None else "   "
        out.append(frag("fg:#ffd700 bold", key, on_click, spot))
        out.append(frag(style, f" {hero:<14}", on_click, spot))
        out += face_cells(glyphs, HEROES[hero])
        if holder is not None:
            out.append(("fg:#8a8a8a", f"  {short_name(session.seats[holder])}"))
        out.append(("", "\n"))
    return out


def trove_grid(
    session: Session, glyphs: Glyphs, height: int, on_click: OnClick | None = None
) -> Fragments:
    """Your trove laid out large, ids under each die, for choosing what to spend or cache."""
    state = session.state
    seat = session.input_seat()
    chooser = session.chooser
    mode = chooser.mode()
    owner = "Your" if len(session.humans) == 1 else f"{state.names[seat]}'s"
    out: Fragments = [
        ("fg:#ffd700 bold", f" {owner} trove"),
        ("fg:#8a8a8a", "  (ids under the dice)\n"),
    ]
    selectable = set(chooser.selectable())
    choosing = mode in ("magic", "spend", "cache")
    marks = session.review_marks()
    cells: list[tuple[Spot, str, str, str]] = []  # spot, glyph, style, id
    for die in session.trove_order(seat):
        face = state.faces[die]
        if choosing:
            style = cell_style(session, die, selectable)
        else:
            style = REVIEW_MARKS.get(
                marks.get(die, ""), die_style(die, face, dim=die in state.spent)
            )
        if state.cached and die in state.cached[seat]:
            style += " underline"
        cells.append((("die", die), glyphs.face(face), style, die_id(die)))
    spent = state.hero_spent[seat] if state.hero_spent else frozenset()
    for n, face in enumerate(state.hero_faces(seat)):
        face_spot: Spot = ("face", n)
        if chooser.cursor == face_spot:
            style = f"{CURSOR} fg:#8700d7"
        elif chooser.source is not None and chooser.source.hero_face == n:
            style = SOURCE
        else:
            style = kind_style(
                face_kind(face), face, dim=n in spent or (choosing and face_spot not in selectable)
            )
        cells.append((face_spot, glyphs.face(face), style, f"h{n}"))
    if not cells:
        return [*out, ("fg:#8a8a8a", "  no dice yet\n")]
    columns = grid_columns(len(cells))
    width = 5 if columns == 6 else 4
    rows = -(-len(cells) // columns)
    with_ids = 1 + 2 * rows <= height
    for start in range(0, len(cells), columns):
        line: Fragments = [("", "  ")]
        ids: Fragments = [("", "  ")]
        for spot, glyph, style, label in cells[start : start + columns]:
            line += [frag(style, glyph.center(width), on_click, spot), ("", " ")]
            ids += [
                frag(*id_label(session, spot, selectable, glyphs, label, width), on_click, spot)
            ]
            ids.append(("", " "))
        out += [*line, ("", "\n")]
        if with_ids:
            out += [*ids, ("", "\n")]
    return out
