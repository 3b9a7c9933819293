"""Key bindings: arrows or hjkl to move, Enter to act, letters for the other moves.

Four layers, switched by filters: the ``:`` command line (its buffer owns the
keys), an overlay waiting to be closed, the review after the game (arrows step
through it), and the board. Ctrl-C and ``q`` always
leave; the log already holds every move.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from frontends.cli.tui import rules_view
from frontends.cli.tui.session import Session


def build_keys(
    session: Session,
    *,
    open_cmdline: Callable[[], None],
    close_cmdline: Callable[[], None],
    submit_cmdline: Callable[[], None],
    ask_hint: Callable[[], None],
    open_review: Callable[[], None],
    cmdline_open: Callable[[], bool],
    quit_app: Callable[[], None],
) -> KeyBindings:
    """The game's key bindings over ``session``."""
    kb = KeyBindings()
    chooser = session.chooser
    typing = Condition(cmdline_open)
    overlay = Condition(lambda: session.overlay in ("help", "round", "handover")) & ~typing
    reviewing = Condition(lambda: session.overlay == "review") & ~typing
    reading = Condition(lambda: session.overlay == "rules") & ~typing
    board = ~typing & ~overlay & ~reviewing & ~reading

    @kb.add("c-c", eager=True)
    def _(event: KeyPressEvent) -> None:
        quit_app()

    @kb.add("q", filter=~typing)
    def _(event: KeyPressEvent) -> None:
        quit_app()

    @kb.add("escape", filter=typing, eager=True)
    @kb.add("c-g", filter=typing)
    def _(event: KeyPressEvent) -> None:
        close_cmdline()

    @kb.add("enter", filter=typing)
    def _(event: KeyPressEvent) -> None:
        submit_cmdline()

    @kb.add(":", filter=typing)
    def _(event: KeyPressEvent) -> None:
        open_cmdline()  # no command has a ':': a fresh line, not one appended to a refused one

    for key in ("enter", "space", "escape"):

        @kb.add(key, filter=overlay)
        def _(event: KeyPressEvent) -> None:
            session.back()

    moves = {
        ("left",): (-1, 0),
        ("h",): (-1, 0),
        ("right",): (1, 0),
        ("l",): (1, 0),
        ("up",): (0, -1),
        ("k",): (0, -1),
        ("down",): (0, 1),
        ("j",): (0, 1),
    }
    for keys, (dx, dy) in moves.items():

        @kb.add(*keys, filter=board)
        def _(event: KeyPressEvent, dx=dx, dy=dy) -> None:
            chooser.move(dx, dy)

    simple = {
        "enter": chooser.choose,
        "space": chooser.toggle,
        "escape": session.back,
        "b": chooser.share_beer,
        "e": chooser.end_turn,
        "u": session.undo,
        "m": chooser.magic,
        "r": chooser.refill,
        "s": chooser.stop,
    }
    for key, action in simple.items():

        @kb.add(key, filter=board)
        def _(event: KeyPressEvent, action=action) -> None:
            action()

    @kb.add("t", filter=board)
    def _(event: KeyPressEvent) -> None:
        ask_hint()

    @kb.add("v", filter=board)
    def _(event: KeyPressEvent) -> None:
        open_review()

    for keys, delta in (
        (("left",), -1),
        (("h",), -1),
        (("up",), -1),
        (("k",), -1),
        (("p",), -1),
        (("right",), 1),
        (("l",), 1),
        (("down",), 1),
        (("j",), 1),
        (("n",), 1),
        (("enter",), 1),
        (("space",), 1),
    ):

        @kb.add(*keys, filter=reviewing)
        def _(event: KeyPressEvent, delta=delta) -> None:
            session.review_step(delta)

    @kb.add("escape", filter=reviewing)
    @kb.add("v", filter=reviewing)
    def _(event: KeyPressEvent) -> None:
        session.close_review()

    @kb.add("?", filter=~typing & ~reviewing & ~reading)
    def _(event: KeyPressEvent) -> None:
        session.overlay = None if session.overlay == "help" else "help"

    rules = Condition(lambda: session.overlay == "rules") & ~typing

    @kb.add("R", filter=~typing & ~reviewing & ~rules)
    def _(event: KeyPressEvent) -> None:
        session.show_rules()

    def turn_page(event: KeyPressEvent, delta: int, close_at_end: bool = False) -> None:
        size = event.app.output.get_size()
        count = len(rules_view.pages(session.is_solo, size.columns, size.rows))
        number = min(session.rules_page, count - 1) + delta
        if number >= count and close_at_end:
            session.close_rules()
            return
        session.rules_page = max(0, min(number, count - 1))

    for key in ("right", "l", "n", "space", "pagedown", "enter"):

        @kb.add(key, filter=rules)
        def _(event: KeyPressEvent, closes=key == "enter") -> None:
            turn_page(event, 1, closes)

    for key in ("left", "h", "p", "pageup"):

        @kb.add(key, filter=rules)
        def _(event: KeyPressEvent) -> None:
            turn_page(event, -1)

    @kb.add("escape", filter=rules)
    @kb.add("R", filter=rules)
    def _(event: KeyPressEvent) -> None:
        session.close_rules()

    @kb.add(":", filter=board)
    def _(event: KeyPressEvent) -> None:
        open_cmdline()

    for digit in "123456789":

        @kb.add(digit, filter=board)
        def _(event: KeyPressEvent, n=int(digit)) -> None:
            chooser.pick_number(n)

    return kb
