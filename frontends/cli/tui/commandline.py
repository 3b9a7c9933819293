"""The ``:`` command line: the same commands as text, with completion and a syntax check.

Completion offers every legal command of the person to act as a player types it
here (``take #17``, ``beer #12 to Brok``: ``typed``), so it can never suggest a move
the engine would refuse, plus ``undo``, ``help``, ``rules`` and ``quit``; a ``#`` may be left
out while typing. The validator only checks that a line parses; whether
the move is allowed is for the engine to say when it is issued.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.validation import ValidationError, Validator

from core import CommandSyntaxError
from frontends.cli.tui.session import Session
from frontends.cli.tui.typed import typed

#: Words the command line accepts besides the game's own commands.
META_WORDS = ("help", "rules", "quit")

#: How many legal commands completion looks at (spends and caches combine quickly).
MAX_CANDIDATES = 5000
MAX_SHOWN = 200


def candidates(session: Session) -> list[tuple[str, str]]:
    """``(text, note)`` for every command worth offering now, as a player types it
    (``take #17``, ``beer #12 to Brok``) with its words (``take die 17 (tunnel 3)``)."""
    found: list[tuple[str, str]] = []
    if session.human_to_act() is not None:
        model = session.chooser.choices
        notes = {o.command: o.label for t in model.takes for o in t.options}
        notes.update((o.command, o.label) for o in model.beers)
        for command in islice(model.commands(), MAX_CANDIDATES):
            found.append((typed(command, session.names), notes.get(command, "")))
    found += [
        ("undo", "your last move"),
        ("help", "keys and dice"),
        ("rules", "the rules explained: side dice, beer, scoring"),
        ("quit", "leave; the log keeps the game"),
    ]
    return found


def _loose(text: str) -> str:
    """Text compared for completion: any case, with or without the ``#`` of an id."""
    return text.lower().replace("#", "")


class CommandCompleter(Completer):
    """Completes a typed line to the text of a legal command."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        before = document.text_before_cursor
        words = _loose(before.lstrip())
        shown = 0
        seen = set()
        for text, note in candidates(self.session):
            if _loose(text).startswith(words) and text not in seen:
                seen.add(text)
                yield Completion(text, start_position=-len(before), display_meta=note)
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
            self.session.parse(text)
        except CommandSyntaxError as bad:
            raise ValidationError(message=str(bad), cursor_position=len(document.text)) from None
