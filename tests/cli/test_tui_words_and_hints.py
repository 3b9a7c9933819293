"""What a player's review of the terminal game found, each pinned by a test: refusals that
must be read whole, the command line saying why a line does not parse, event lines worded
from the state before each event, aligned tables, hints only for the moves that are legal,
a refill asked for first, the ASCII screen."""

from __future__ import annotations

import asyncio
import re

from core.commands import Refill, ShareBeer, SpendMagic, TakeDie
from core.events import game as ev
from core.modes.solo import events as sev
from core.projections.state import SETUP
from core.read.views import event_text, walk
from core.words import face_words
from frontends.cli.tui import overlays, panels
from frontends.cli.tui.glyphs import Glyphs
from frontends.cli.tui.session import Line, Session
from frontends.cli.tui.table import Seat, bot_seat
from tests.support.tui import (
    ENTER,
    advance,
    new_session,
    running,
    session_for,
    step,
    text_of,
    until,
)

GLYPHS = Glyphs()


# -- the status line and the command line --------------------------------------------


def test_a_line_that_does_not_parse_says_why_and_stays_open_to_be_corrected(tmp_path):
    """Enter on ``:foo bar`` used to do nothing visible: the syntax error now shows."""

    async def scenario():
        session = new_session(tmp_path)
        async with running(session) as player:
            await player.ready()
            await player.press(":")
            player.pipe.send_text("foo bar")
            await until(lambda: player.play.buffer.text == "foo bar")
            player.pipe.send_text(ENTER)
            await until(lambda: player.play.buffer.validation_error is not None)
            shown = text_of(player.play.status_view())
            assert "unknown command 'foo'" in shown and "✗" in shown
            assert player.play.cmdline_open and player.play.buffer.text == "foo bar"
            await player.press("\x1b")  # Esc closes the line, and the message with it
            assert "unknown command" not in text_of(player.play.status_view())

    asyncio.run(scenario())


def test_a_long_refusal_wraps_within_the_width_instead_of_being_cut():
    session = session_for(21)
    advance(session, lambda s: s.chooser.mode() == "take")
    message = (
        "you can cache 2 dice with the chests you keep in use, not 3 "
        "(a chest die that holds dice is rerolled, not cached)"
    )
    session.say(message, "error")
    for width in (80, 100):
        lines = text_of(panels.status(session, GLYPHS, width)).split("\n")
        assert len(lines) == panels.status_height(session, width) >= 2
        assert all(len(line) <= width for line in lines)
        words = " ".join(line.strip(" ✗") for line in lines).split()
        assert words[: len(message.split())] == message.split()  # then the die under the cursor
    assert panels.status_height(session, 200) == 1  # one line when it fits
    session.say("x " * 400, "error")
    assert panels.status_height(session, 80) == panels.STATUS_LINES  # never more


def test_the_hero_face_under_the_cursor_is_named_and_its_spend_too():
    def on_hero_face(s):
        return s.chooser.mode() == "magic" and any(
            spot[0] == "face" for spot in s.chooser.selectable()
        )

    for seed in range(40):
        session = session_for(seed)
        if advance(session, on_hero_face):
            break
    else:
        raise AssertionError("no seed gives the person a hero magic face")
    face_spot = next(spot for spot in session.chooser.selectable() if spot[0] == "face")
    session.chooser.cursor = face_spot
    face = session.state.hero_faces(0)[face_spot[1]]
    words = f"hero face h{face_spot[1]} ({face_words(face)})"
    assert words in text_of(panels.status(session, GLYPHS, 200))
    session.chooser.choose()
    if session.chooser.mode() == "spend":  # a choice of dice to make: the prompt names the face
        assert f"Spending hero face h{face_spot[1]} " in session.message()[0]


# -- event lines -------------------------------------------------------------------


def test_event_lines_are_worded_from_the_state_before_each_event():
    """A solo refill said "0 refills left" after the first refill: the lines were worded
    from the state after the batch. They now match the replay text of the log, also for
    a session opened on a log with undos in it."""
    for seed in range(20):
        seats = (bot_seat("Ada", "greedy"),)
        session = session_for(seed, seats, mode="solo")
        for n in range(300):
            if session.state.is_over:
                break
            session.bot_step()
            if n == 5:  # an undo in the history too
                session.table.undo(0)
                session.after_change()
        kinds = {type(e) for _, e in session.game.events()}
        if sev.MountainRefilled in kinds:
            break
    else:
        raise AssertionError("no greedy solo game refilled the mountain")
    expected = [
        event_text(step)
        for step in walk(session.game.batches())
        if not isinstance(step.event, ev.CommandUndone)
    ]
    said = [line.text for line in session.lines if line.kind != "undo"]
    assert said == expected
    refill = next(t for t in said if "refilled the mountain" in t)
    assert "(1 refill left)" in refill
    reopened = Session(session.game, seats)
    assert [line.text for line in reopened.lines] == [line.text for line in session.lines]


def test_the_events_panel_shows_whole_events_not_the_tail_of_a_wrapped_one():
    session = session_for(21)
    long = "Round 1 scored: " + ", ".join(f"player {n} {n * 3} points" for n in range(9))
    session.lines = [
        Line(0, "an older event", None, "info"),
        Line(1, long, None, "info"),
        Line(2, "the newest event", None, "info"),
    ]
    wrapped = text_of(panels.events(session, 100, 44)).split("\n")[1:-1]
    assert len(wrapped) > 3  # the long event takes several rows
    room = len(wrapped) - 1  # every row but the oldest event's
    shown = text_of(panels.events(session, room, 44)).split("\n")[1:-1]
    assert shown == ["  the newest event"]  # the long one does not fit whole: left out


# -- tables and hints --------------------------------------------------------------


def finished_session(seed: int = 4) -> Session:
    seats = (Seat("You"), bot_seat("Brok", "random"), bot_seat("Cira", "random"))
    session = session_for(seed, seats)
    for _ in range(2000):
        if session.state.is_over:
            return session
        if session.overlay in ("round", "help"):
            session.back()
        elif not session.bot_step():
            command = session.legal()[-1]
            session.issue(command)
    raise AssertionError("the game did not end")


def test_the_score_table_columns_line_up_with_their_headers():
    session = finished_session()
    for width, wide_rounds in ((100, 3), (76, 1)):
        lines = text_of(overlays.score_table(session, width)).split("\n")
        head = next(line for line in lines if "Total" in line)
        rows = [line for line in lines if line.strip().startswith(("You", "Brok", "Cira"))]
        assert len(rows) == 3
        for row in rows:  # the totals end under "Total"
            assert len(row.rstrip()) == len(head.rstrip())
        sub = lines[lines.index(head) + 1]
        sums = [m.end() for m in re.finditer("sum", sub)]
        assert len(sums) == wide_rounds
        labels = [m for m in re.finditer(r"Round \d", head)]
        for row in rows:
            ends = {m.end() for m in re.finditer(r"-?\d+", row)}
            assert set(sums) <= ends  # each round's sum ends under "sum"
            for label, end in zip(labels, sums, strict=True):
                assert end - 17 <= label.start() and label.end() <= end  # over its block


def test_the_beer_hint_and_key_show_only_when_a_beer_can_be_shared():
    checked = {True: 0, False: 0}
    for seed in range(6):
        session = session_for(seed)
        for _ in range(300):
            if session.state.is_over:
                break
            if session.chooser.mode() == "take" and session.overlay is None:
                can = any(isinstance(c, ShareBeer) for c in session.legal())
                assert ("share a beer" in session.message()[0]) == can
                assert ("share a beer" in text_of(panels.keys(session, 200))) == can
                checked[can] += 1
            step(session)
    assert checked[True] and checked[False]


def test_the_solo_hints_name_only_the_moves_the_rules_allow():
    checked = set()
    for seed in range(8):
        session = session_for(seed, (Seat("You"),), mode="solo")
        for _ in range(200):
            if session.state.is_over:
                break
            if session.chooser.mode() == "solo":
                legal = session.legal()
                prompt, keys = session.message()[0], text_of(panels.keys(session, 200))
                for words, key, kind in (
                    ("spend magic (m)", "m  magic", SpendMagic),
                    ("refill (r)", "r  refill", Refill),
                ):
                    can = any(isinstance(c, kind) for c in legal)
                    assert (words in prompt) == can and (key in keys) == can
                    checked.add((kind.__name__, can))
                can_take = any(isinstance(c, TakeDie) for c in legal)
                assert prompt.startswith("No top die") == (not can_take)
                # the key bar offered "Enter take" beside "No top die can be taken now"
                assert ("Enter  take" in keys) == can_take
                checked.add(("TakeDie", can_take))
            if session.chooser.mode() == "solo" and session.chooser.selectable():
                session.chooser.choose()
            elif session.chooser.mode() == "solo" and session.chooser.can(Refill):
                session.chooser.refill()
                session.chooser.choose()
            elif session.chooser.mode() == "solo" and session.chooser.can(SpendMagic):
                session.chooser.magic()
            elif session.chooser.mode() == "solo":
                session.chooser.stop()
            else:  # a menu or a recycle: take the first choice
                session.chooser.choose()
    assert {("SpendMagic", True), ("Refill", True), ("Refill", False)} <= checked
    assert {("TakeDie", True), ("TakeDie", False)} <= checked


def test_a_refill_is_asked_for_first_and_says_how_many_are_left():
    for seed in range(20):
        session = session_for(seed, (Seat("You"),), mode="solo")
        if advance(
            session, lambda s: s.chooser.mode() == "solo" and s.chooser.can(Refill), limit=40
        ):
            break
    else:
        raise AssertionError("no solo game reached a possible refill")
    seq, left = session.game.seq, session.state.solo.refills_left
    session.chooser.refill()
    assert session.game.seq == seq and session.chooser.mode() == "menu"  # nothing done yet
    assert f"{left} refill" in session.chooser.menu.title
    session.back()  # Esc: no refill
    assert session.game.seq == seq and session.state.solo.refills_left == left
    session.chooser.refill()
    session.chooser.choose()
    assert session.state.solo.refills_left == left - 1
    assert f"({left - 1} refill" in session.lines[-1].text


def test_troves_line_up_while_heroes_are_still_being_chosen():
    session = session_for(3)
    for _ in range(10):
        if session.chooser.mode() == "hero":
            break
        session.bot_step()
    assert session.state.phase == SETUP
    heroes = session.state.heroes
    assert any(heroes) and not all(heroes)  # some chosen, some not
    for width in (80, 100):
        bars = {text_of(line).index("│") for line in panels.trove_lines(session, GLYPHS, width)}
        assert len(bars) == 1


def test_the_help_tells_how_sharing_a_beer_works():
    text = text_of(overlays.help_text(GLYPHS, solo=False, rows=40))
    assert "share a beer (b)" in text and "two dice" in text and "top or side" in text
    assert all(len(line) <= 76 for line in text.split("\n"))


def test_the_mountain_says_nothing_is_lit_once_the_game_is_over(tmp_path):
    from frontends.cli.tui.app import PlayApp

    session = session_for(5, (Seat("You"),), mode="solo")
    session.game.issue_text("stop")  # the solo game ends when you stop digging
    assert session.state.is_over
    title = text_of(PlayApp(session)._board()[:2])
    assert title.startswith(" Mountain") and "lit" not in title
    live = session_for(5, (Seat("You"),), mode="solo")
    assert "(lit: may be taken)" in text_of(PlayApp(live)._board()[:2])
