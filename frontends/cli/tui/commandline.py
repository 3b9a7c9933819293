"""The ``:`` command line: the same commands as text, with completion and a syntax check.

Completion offers the text form of every legal command of the person to act
(so it can never suggest a move the engine would refuse), plus ``undo``,
``help`` and ``quit``. The validator only checks that a line parses; whether
the move is allowed is for the engine to say when it is issued.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.validation import ValidationError, Validator

from core.commands import TakeDie, parse_command
from core.errors import CommandSyntaxError
from core.projections.text import die_words
from frontends.cli.tui.session import Session

#: Words the command line accepts besides the game's own commands.
META_WORDS = ("help", "quit")

#: How many legal commands completion looks at (spends and caches combine quickly).
MAX_CANDIDATES = 5000
MAX_SHOWN = 200


def candidates(session: Session) -> list[tuple[str, str]]:
    """``(text, note)`` for every command worth offering now."""
    found: list[tuple[str, str]] = []
    if session.human_to_act() is not None:
        state = session.state
        for command in islice(session.chooser.choices.commands(), MAX_CANDIDATES):
            note = (
                die_words(command.die, state.faces[command.die])
                if isinstance(command, TakeDie)
                else ""
            )
            found.append((command.text(), note))
    found += [
        ("undo", "your last move"),
        ("help", "keys and dice"),
        ("quit", "leave; the log keeps the game"),
    ]
    return found


class CommandCompleter(Completer):
    """Completes a typed line to the text of a legal command."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        typed = document.text_before_cursor
        words = typed.lstrip().lower()
        shown = 0
        seen = set()
        for text, note in candidates(self.session):
            if text.lower().startswith(words) and text not in seen:
                seen.add(text)
                yield Completion(text, start_position=-len(typed), display_meta=note)
                shown += 1
                if shown >= MAX_SHOWN:
                    return


class CommandValidator(Validator):
    """Accepts lines that parse as a command (or a word of the command line)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def validate(self, document: Document) -> None:
        text = document.text.strip()
        if not text or text.split()[0].lower() in (*META_WORDS, "q", "exit", "?"):
            return
        try:
            parse_command(text, self.session.input_seat())
        except CommandSyntaxError as bad:
            raise ValidationError(message=str(bad), cursor_position=len(document.text)) from None
