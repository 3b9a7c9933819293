"""The full-screen application: the layout, the command line and the bots' pace.

Bots move one step at a time from a background task on prompt-toolkit's own
asyncio loop, ``pace`` seconds apart, so the screen stays responsive; a bot's
choice is computed in a worker thread from an immutable state and dropped if
the game moved on meanwhile (an undo). Bots wait while a score table or the
help is open. A hint and the review after the game are analysed the same way,
in a worker thread, the screen redrawn meanwhile to show that it is thinking.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal

from prompt_toolkit.application import Application, get_app
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.layout import (
    ConditionalContainer,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    VSplit,
    Window,
    walk,
)
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension as D
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.processors import BeforeInput
from prompt_toolkit.widgets import Frame

from core import SETUP, dice_on
from frontends.cli.tui import analysis_view, board, overlays, panels, rules_view, solo_view
from frontends.cli.tui.choosing import Spot
from frontends.cli.tui.commandline import CommandCompleter, CommandValidator
from frontends.cli.tui.glyphs import Glyphs
from frontends.cli.tui.hints import Hint, hint_moves
from frontends.cli.tui.keys import build_keys
from frontends.cli.tui.review import Review, Stopped, analyse
from frontends.cli.tui.session import Session

BOARD_HEIGHT = 12
#: How often the bot task looks for a bot to move, when none is moving.
POLL = 0.03
#: How often the screen is redrawn while a hint or the review is thought out.
TICK = 0.15


def _control(glyphs: Glyphs, text, **options) -> FormattedTextControl:
    """A text control whose fragments pass through the glyph table (ASCII if asked)."""
    return FormattedTextControl(lambda: glyphs.text(text()), **options)


def _columns() -> int:
    return get_app().output.get_size().columns


def _rows() -> int:
    return get_app().output.get_size().rows


#: What the lit dice of the mountain mean, said under its title (nothing once the game is over).
_MOUNTAIN_NOTES = {"recycle": "  (lit: may be recycled)\n", "over": "\n"}


class PlayApp:
    """The prompt-toolkit application around one session."""

    def __init__(self, session: Session, *, pace: float = 0.4, ascii_only: bool = False) -> None:
        self.session = session
        self.pace = pace
        self.glyphs = Glyphs(ascii_only)
        self.cmdline_open = False
        self.buffer = Buffer(
            completer=CommandCompleter(session),
            validator=CommandValidator(session),
            complete_while_typing=True,
            validate_while_typing=False,
            accept_handler=self._accept,
            multiline=False,
        )
        keys = build_keys(
            session,
            open_cmdline=self.open_cmdline,
            close_cmdline=self.close_cmdline,
            submit_cmdline=self.submit_cmdline,
            ask_hint=self.ask_hint,
            open_review=self.open_review,
            cmdline_open=lambda: self.cmdline_open,
            quit_app=self.quit,
        )
        self.app: Application = Application(
            layout=self._layout(),
            key_bindings=keys,
            full_screen=True,
            mouse_support=True,
            refresh_interval=None,
        )
        self.app.ttimeoutlen = 0.05  # a lone Esc acts at once

    # -- the command line ----------------------------------------------------

    def open_cmdline(self) -> None:
        """Show the ``:`` line and give it the keys."""
        self.cmdline_open = True
        self.buffer.reset()
        self.app.layout.focus(self._cmd_window)

    def close_cmdline(self) -> None:
        """Hide the ``:`` line."""
        self.cmdline_open = False
        self.buffer.reset()
        self.app.layout.focus(self._board_window)

    def submit_cmdline(self) -> None:
        """Enter on the ``:`` line: run it, or show why it does not parse with the
        completion menu closed (it is drawn over the status line that says why)."""
        self.buffer.validate_and_handle()
        if self.buffer.validation_error is not None:
            self.buffer.complete_state = None

    def _accept(self, buffer: Buffer) -> bool:
        text = buffer.text
        self.close_cmdline()
        self.session.run_line(text)
        if self.session.quit_requested:
            self.quit()
        return False

    def quit(self) -> None:
        """Leave the game (every move is already in the log)."""
        future = self.app.future
        if self.app.is_running and future is not None and not future.done():
            self.app.exit()

    # -- the analysis: hints and the review ------------------------------------

    def ask_hint(self) -> None:
        """t: think out the best moves for the person to act, off the screen's loop."""
        hint = self.session.ask_hint()
        if hint is not None:
            self.app.create_background_task(self._think(hint))

    async def _think(self, hint: Hint) -> None:
        """Compute the hint in a worker thread, redrawing meanwhile (the dots move) and
        dropping it if a move is made first (``Session.hint_done`` refuses a stale one)."""
        s = self.session
        loop = asyncio.get_running_loop()
        work = loop.run_in_executor(None, hint_moves, hint.state, hint.depth, s.names, s.samples)
        while not work.done():
            if s.hint is not hint:  # a move, or t again: the result is not wanted
                return
            self.app.invalidate()
            await asyncio.wait([work], timeout=TICK)
        try:
            moves = work.result()
        except Exception as exc:  # the analysis failed: say so, the game goes on
            if s.hint is hint:
                s.hint = None
                s.say(f"No hint: {exc}", "error")
        else:
            s.hint_done(hint, moves)
        self.app.invalidate()

    def open_review(self) -> None:
        """v: the review of the finished game, analysed off the screen's loop."""
        review = self.session.open_review()
        if review is not None:
            self.app.create_background_task(self._analyse(review))

    async def _analyse(self, review: Review) -> None:
        """Analyse the game in a worker thread, showing its progress; closing the review
        stops it at the next position."""
        s = self.session
        loop = asyncio.get_running_loop()
        work = loop.run_in_executor(None, analyse, s.game, s.log_path, s.samples, review)
        while not work.done():
            self.app.invalidate()
            await asyncio.wait([work], timeout=TICK)
        try:
            document = work.result()
        except Stopped:
            return
        except Exception as exc:  # a log that cannot be read: say why, the screen goes on
            s.review_failed(review, str(exc))
        else:
            s.review_ready(review, document)
        self.app.invalidate()

    # -- the layout ----------------------------------------------------------

    def _click(self, spot: Spot) -> None:
        self.session.chooser.click(spot)
        self.app.invalidate()

    def _board(self):
        s = self.session
        if s.state.phase == SETUP:
            return board.heroes(s, self.glyphs, self._click)
        if not dice_on(s.state.mountain):
            return board.trove_grid(s, self.glyphs, BOARD_HEIGHT - 1, self._click)
        note = _MOUNTAIN_NOTES.get(s.chooser.mode(), "  (lit: may be taken)\n")
        title = [(panels.TITLE, " Mountain"), (panels.DIM, note)]
        return title + board.mountain(s, self.glyphs, self._click)

    def _side(self):
        width = max(20, _columns() - board.mountain_width() - 2)
        if self.session.is_solo:
            return solo_view.side(self.session, self.glyphs, width)
        legend = [("", "\n"), (panels.TITLE, " Dice\n"), *panels.legend(self.glyphs, width)]
        return panels.scores(self.session, width) + legend

    def _heights(self) -> tuple[int, int, int]:
        """The rows of the troves, the events and the status line on this screen.

        The header, the board, the key bar and an open command line have theirs; the
        rest goes to the status line first (a refusal must be read), then the troves,
        and what is left to the events (or the review's step), which a small screen
        goes without: nothing asks for more rows than there are ("Window too small")."""
        left = _rows() - (1 + BOARD_HEIGHT + 1 + (1 if self.cmdline_open else 0))
        status = max(1, min(self._status_need(), left - 2))
        s, wanted = self.session, 0  # rows asked for first: the review's step, or a hint
        if s.review is not None:  # the review is what the screen is for now
            wanted = self._lines(analysis_view.review(s, _columns()))
        elif s.hint is not None:
            wanted = 1 + self._lines(analysis_view.hint(s, _columns()))  # and the events' title
        troves = max(0, min(self._troves_need(), left - status - min(wanted, left - status)))
        if troves < 2:  # a title alone says nothing
            troves = 0
        return troves, max(0, left - status - troves), status

    @staticmethod
    def _lines(fragments) -> int:
        return "".join(f[1] for f in fragments).count("\n")

    def _events(self):
        """The event lines; above them a hint, and in their place the review's step."""
        _, height, _ = self._heights()
        width = _columns()
        if height < 2:
            return []
        if self.session.review is not None:
            return analysis_view.review(self.session, width)
        hint = analysis_view.hint(self.session, width)
        shown = sum(text.count("\n") for _, text, *_ in hint)
        if height - shown < 2:  # a small screen: the hint alone
            return hint
        return hint + panels.events(self.session, height - shown, width)

    def typing_error(self) -> str | None:
        """Why the ``:`` line was not accepted (it does not parse), while it is open."""
        refused = self.buffer.validation_error
        return refused.message if self.cmdline_open and refused is not None else None

    def status_view(self):
        """The status line as drawn: the command line's refusal, else the session's message."""
        return panels.status(self.session, self.glyphs, _columns(), self.typing_error())

    def _status_need(self) -> int:
        return panels.status_height(self.session, _columns(), self.typing_error())

    def _troves_need(self) -> int:
        return panels.troves_height(self.session, self.glyphs, _columns())

    def _layout(self) -> Layout:
        s, g = self.session, self.glyphs
        self._board_window = Window(
            _control(self.glyphs, self._board, focusable=True, show_cursor=False),
            width=D.exact(board.mountain_width()),
            height=D.exact(BOARD_HEIGHT),
        )
        self._cmd_window = Window(
            BufferControl(self.buffer, input_processors=[BeforeInput(":", style="bold")]),
            height=1,
        )
        body = HSplit(
            [
                Window(_control(g, lambda: panels.header(s, _columns())), height=1),
                VSplit(
                    [
                        self._board_window,
                        Window(width=1, char="|" if g.ascii_only else "│", style="fg:#444444"),
                        Window(_control(g, self._side), height=D.exact(BOARD_HEIGHT)),
                    ],
                    height=D.exact(BOARD_HEIGHT),
                ),
                Window(
                    _control(g, lambda: panels.troves(s, g, _columns(), self._click)),
                    height=lambda: D.exact(self._heights()[0]),
                ),
                Window(
                    _control(g, self._events),
                    wrap_lines=False,
                    height=lambda: D.exact(self._heights()[1]),
                ),
                Window(
                    _control(g, self.status_view),
                    height=lambda: D.exact(self._heights()[2]),
                ),
                ConditionalContainer(self._cmd_window, filter=Condition(lambda: self.cmdline_open)),
                Window(_control(g, lambda: panels.keys(s, _columns())), height=1),
            ]
        )
        floats = [
            self._float(
                "help", lambda: overlays.help_text(g, s.is_solo, _rows(), _columns()), "Help"
            ),
            self._float("rules", self._rules, "Rules"),
            self._float("round", lambda: overlays.score_table(s, _columns()), "Scores"),
            self._float("over", lambda: overlays.result(s, _columns()), "Game over"),
            self._float("handover", lambda: overlays.handover(s), "Next player"),
            Float(
                ConditionalContainer(
                    self._borders(
                        Frame(Window(_control(g, lambda: overlays.menu(s, self._click))))
                    ),
                    filter=Condition(lambda: s.chooser.menu is not None and s.overlay is None),
                )
            ),
            Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=10)),
        ]
        return Layout(FloatContainer(body, floats=floats), focused_element=self._board_window)

    def _rules(self):
        """The rules page shown, at this screen's size."""
        s = self.session
        shown, s.rules_page = rules_view.page(s.is_solo, s.rules_page, _columns(), _rows())
        return shown

    def _float(self, name: str, text, title: str) -> Float:
        shown = Condition(lambda: self.session.overlay == name)
        frame = Frame(Window(_control(self.glyphs, text)), title=title, style="bg:#1c1c1c")
        return Float(ConditionalContainer(self._borders(frame), filter=shown))

    def _borders(self, frame: Frame) -> Frame:
        """The frame with its box-drawing borders in ASCII if asked (Frame has no option)."""
        for window in walk(frame.__pt_container__()):
            if isinstance(window, Window) and isinstance(window.char, str):
                window.char = self.glyphs.plain(window.char)
        return frame

    # -- the bots ------------------------------------------------------------

    async def _bots(self) -> None:
        """Move the bots one step at a time, at the chosen pace.

        The table's bot decides in a worker thread, on a snapshot, and its move is
        committed here, on the screen's own loop, only if the game has not moved
        meanwhile (``Table.play``): the screen never changes under its own feet.
        """
        s = self.session
        loop = asyncio.get_running_loop()
        while True:
            if s.bot_to_act() is None or s.overlay is not None or s.failed is not None:
                await asyncio.sleep(POLL)
                continue
            await asyncio.sleep(self.pace)
            if s.bot_to_act() is None or s.overlay is not None:
                continue
            move = await loop.run_in_executor(None, s.table.decide_bot)
            if move is not None and s.play_bot(move):
                s.after_change()
                self.app.invalidate()

    def _start_bots(self) -> None:
        self.app.create_background_task(self._bots())
        self.app.create_background_task(self.session.follow(self.app.invalidate))
        # `kill`, or the terminal closed: leave as `q` does, the terminal given back as
        # it was and the way to continue printed (the moves are all in the log already)
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGHUP):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(signum, self.quit)

    async def run_async(self) -> None:
        """Run until the player quits."""
        await self.app.run_async(pre_run=self._start_bots)

    def run(self) -> None:
        """Run until the player quits (blocking)."""
        self.app.run(pre_run=self._start_bots)
