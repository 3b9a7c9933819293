"""What the views draw: the mountain as a pyramid with ids, lit and dimmed dice, clicks,
glyphs one column wide, the panels within the width they are given."""

from __future__ import annotations

from prompt_toolkit.data_structures import Point
from prompt_toolkit.mouse_events import MouseButton, MouseEvent, MouseEventType
from prompt_toolkit.utils import get_cwidth

from core.commands import TakeDie
from core.dice import ALL_FACES
from core.game import Game
from core.modes.multiplayer import events as ev
from core.mountain import ROW_LENGTHS, dice_on
from frontends.cli.tui import board, overlays, panels
from frontends.cli.tui.glyphs import ASCII, UNICODE, Glyphs
from frontends.cli.tui.session import Session
from frontends.cli.tui.table import Seat, bot_seat
from tests.support.tui import text_of

SEATS = (Seat("You"), bot_seat("Brok", "random"), bot_seat("Cira", "random"))
GLYPHS = Glyphs()


def taking_session(seed: int = 21) -> Session:
    session = Session(Game.new([s.name for s in SEATS], seed), SEATS)
    while session.chooser.mode() != "take":
        if not session.bot_step():
            session.chooser.choose()
    return session


def id_fragments(fragments) -> list:
    """The clickable fragments of the id lines (every second line of the mountain)."""
    line, found = 0, []
    for fragment in fragments:
        if line % 2 == 1 and len(fragment) == 3:
            found.append(fragment)
        line += fragment[1].count("\n")
    return found


def click(fragment) -> None:
    fragment[2](MouseEvent(Point(0, 0), MouseEventType.MOUSE_UP, MouseButton.LEFT, frozenset()))


def test_every_face_has_a_one_column_glyph_in_both_tables():
    for table in (UNICODE, ASCII):
        assert set(table) == set(ALL_FACES)
        for glyph in table.values():
            assert 1 <= get_cwidth(glyph) == len(glyph) <= 2
    assert all(g.isascii() for g in ASCII.values())


def test_the_mountain_is_drawn_as_a_pyramid_with_every_die_id():
    session = taking_session()
    lines = text_of(board.mountain(session, GLYPHS)).split("\n")
    labelled = [lines[2 * r] for r in range(5)]  # top row first
    assert [line[:2] for line in labelled] == ["r4", "r3", "r2", "r1", "r0"]  # row numbers
    rows = ["  " + line[2:] for line in labelled]
    foot = lines[10]
    assert [foot.index(f"c{c}") for c in range(6)] == [3 + 6 * c for c in range(6)]
    assert len(foot) <= board.mountain_width() - 1  # the separator stays clear
    for line, count in zip(rows, reversed(ROW_LENGTHS), strict=True):
        assert len(line) - len(line.lstrip()) >= 2
        assert len(line.split()) == count  # a die or an empty slot's dot for every slot
    assert [len(r) - len(r.lstrip()) for r in rows] == sorted(
        (len(r) - len(r.lstrip()) for r in rows), reverse=True
    )  # each row further up is indented further: a pyramid
    ids = " ".join(lines[1:10:2]).split()
    assert all(i.startswith("#") for i in ids)  # an id is never read for a tunnel's face
    assert sorted(int(i[1:]) for i in ids) == sorted(dice_on(session.state.mountain))


def test_selectable_dice_are_lit_and_the_others_dimmed():
    session = taking_session()
    legal = {c.die for c in session.legal() if isinstance(c, TakeDie)}
    styles = {
        int(f[1].strip()[1:]): f[0]
        for f in id_fragments(board.mountain(session, GLYPHS, lambda spot: None))
    }
    assert sorted(styles) == sorted(dice_on(session.state.mountain))
    for die, style in styles.items():
        if session.chooser.cursor == ("die", die):
            assert "reverse" in style
        elif die in legal:
            assert "bold" in style and "#6c6c6c" not in style
        else:
            assert "#6c6c6c" in style


def test_a_click_on_a_lit_die_takes_it_and_on_a_covered_one_shows_why_not():
    session = taking_session()
    clicked = []
    fragments = board.mountain(session, GLYPHS, on_click=clicked.append)
    legal = {c.die for c in session.legal() if isinstance(c, TakeDie)}
    ids = {int(f[1].strip()[1:]): f for f in id_fragments(fragments)}
    covered = [f for die, f in ids.items() if die not in legal]
    click(covered[0])
    session.chooser.click(clicked[-1])
    assert session.status_kind == "error" and "covered" in session.status
    die, lit = next((die, f) for die, f in ids.items() if die in legal)
    seq = session.game.seq
    click(lit)
    session.chooser.click(clicked[-1])
    taken = [e for _, e in session.game.events(seq) if isinstance(e, ev.DieTaken)]
    assert taken[0].die == die


def test_ascii_glyphs_draw_an_ascii_board():
    session = taking_session()
    plain = Glyphs(ascii_only=True)
    assert not text_of(board.mountain(session, plain)).isascii()  # the raw view has · and ▀
    for view in (
        board.mountain(session, plain),
        panels.scores(session, 60),
        panels.status(session, plain),
        panels.keys(session, 100),
        panels.troves(session, plain, 100, None),
    ):
        assert text_of(plain.text(view)).isascii()


def test_panels_fit_their_width_and_say_whose_turn_it_is():
    session = taking_session()
    for width in (80, 100, 120):
        header = text_of(panels.header(session, width))
        assert len(header) == width and "Round 1/3" in header and "Your turn" in header
        assert len(text_of(panels.keys(session, width))) <= width
        for line in panels.trove_lines(session, GLYPHS, width):
            assert len(text_of(line)) <= width
    scores = text_of(panels.scores(session, 40)).split("\n")
    assert all(len(line) <= 40 for line in scores)
    assert "Brok" in scores[2] and "You" in scores[1]


def test_the_trove_grid_shows_ids_and_hero_faces_in_the_magic_phase():
    session = taking_session(8)
    while session.chooser.mode() != "magic":
        if session.state.is_over:
            raise AssertionError("no magic turn for the person")
        if session.overlay:
            session.back()
        elif not session.bot_step():
            session.chooser.choose()
    text = text_of(board.trove_grid(session, GLYPHS, 11))
    assert "Your trove" in text and "h0" in text
    for die in session.state.troves[0]:
        assert str(die) in text


def test_the_help_fits_a_small_screen():
    text = text_of(overlays.help_text(GLYPHS, rows=24))
    assert len(text.split("\n")) <= 22 and "undo" in text
    assert all(len(line) <= 76 for line in text.split("\n"))


def test_the_events_panel_shows_the_latest_lines_that_fit():
    session = taking_session()
    texts = [line.text for line in session.lines]
    roomy = text_of(panels.events(session, 100, 200)).split("\n")[1:-1]
    assert [t.strip() for t in roomy] == texts  # all of them when there is room
    tight = text_of(panels.events(session, 4, 200)).split("\n")[1:-1]
    assert [t.strip() for t in tight] == texts[-3:]  # else the newest, at the bottom
