"""The play session: the game, who plays which seat, and what the screen is doing.

It sends commands to ``core.game`` and keeps only presentation state: the
status line, the event lines (``core.projections.text.describe``), the overlay.
What can be selected, the cursor, the dice picked for a spend or a cache, an
open menu and the keys that act on them are its ``chooser`` (``choosing``, over
the core read model ``core.projections.choices``); a refused command shows the
engine's own message and changes nothing. No prompt-toolkit here, so the whole
flow can be driven and tested without a terminal.
"""

from __future__ import annotations

from pathlib import Path

from attrs import frozen

from core.bots import make_bot
from core.bots.play import bot_command
from core.commands import Command, Undo, parse_command
from core.errors import CommandSyntaxError, RuleError
from core.events import game as ev
from core.events import solo as sev
from core.events.base import Event
from core.game import Game
from core.projections.state import GameState
from core.projections.text import describe
from core.projections.views import StepReader
from frontends.cli.tui.choosing import Chooser
from frontends.cli.tui.glyphs import sort_key
from frontends.cli.tui.table import Seat
from frontends.cli.tui.words import prompt, second_person, waiting

#: Events that close a round (a score table follows) or the game.
ROUND_ENDS = (ev.RoundScored, ev.TieBreakScored)
GAME_ENDS = (ev.GameEnded, sev.SoloGameEnded)


@frozen
class Line:
    """One event in words, with the seat that acted (for colouring)."""

    seq: int
    text: str
    seat: int | None
    kind: str  # "move", "round", "undo", "info"


class Session:
    """A game being played at this keyboard."""

    def __init__(self, game: Game, seats: tuple[Seat, ...], log_path: Path | None = None) -> None:
        self.game = game
        self.seats = seats
        self.log_path = log_path
        self.bots = {s: make_bot(seat.bot) for s, seat in enumerate(seats) if seat.bot}
        self.lines: list[Line] = []
        self._texts: dict[int, str] = {}
        self._seen = 0
        self._reader = StepReader()  # the game's events as far as the lines have read
        self.status = ""
        self.status_kind = "info"  # "info" or "error"
        self.chooser = Chooser(self)  # the cursor, the dice picked, the menu, the keys
        self.overlay: str | None = None  # "help", "round", "over"
        self.quit_requested = False
        self.doubled: dict[int, int | None] = {}  # round -> the seat whose gems doubled
        self.catch_up()
        self.overlay = "over" if self.state.is_over else None
        self.chooser.refresh()

    # -- reading -------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The game's projected state."""
        return self.game.state

    @property
    def is_solo(self) -> bool:
        """True for a solo game."""
        return self.state.mode == "solo"

    def is_human(self, seat: int | None) -> bool:
        """True if ``seat`` is played at this keyboard."""
        return seat is not None and seat not in self.bots

    @property
    def humans(self) -> tuple[int, ...]:
        """The seats played at this keyboard."""
        return tuple(s for s in range(len(self.seats)) if s not in self.bots)

    def human_to_act(self) -> int | None:
        """The seat at this keyboard the game waits for, if any."""
        seat = self.game.to_act()
        return seat if self.is_human(seat) else None

    def input_seat(self) -> int:
        """The seat typed commands are issued for: the person to act, else the first person."""
        seat = self.human_to_act()
        return self.humans[0] if seat is None else seat

    def bot_to_act(self) -> int | None:
        """The bot seat the game waits for, if any."""
        seat = self.game.to_act()
        return seat if seat in self.bots else None

    def legal(self) -> list[Command]:
        """The legal commands of the player to act."""
        return self.game.legal()

    def trove_order(self, seat: int) -> tuple[int, ...]:
        """A trove's dice in display order: by type, then face."""
        faces = self.state.faces
        return tuple(sorted(self.state.troves[seat], key=lambda d: sort_key(d, faces[d])))

    # -- events --------------------------------------------------------------

    def catch_up(self) -> list[Line]:
        """Read the events logged since the last call into event lines.

        Each event is described from the state just before it, as ``describe`` asks
        (the state after its whole batch would word some events wrongly, e.g. the
        refills left after a solo refill): the session folds its own copy of the
        timeline as it reads, to know that state.
        """
        new = []
        for step in self._reader.read(self.game.batches(self._seen)):
            line = self._line(step.seq, step.event, step.before)
            self._texts[step.seq] = line.text
            new.append(line)
            self._note_event(step.event)
        self._seen = self.game.seq
        self.lines.extend(new)
        return new

    def _note_event(self, event: Event) -> None:
        """Open the score table after a round, the result at the end (closed by an undo)."""
        if isinstance(event, ROUND_ENDS):
            self.overlay = "round"
            if isinstance(event, ev.RoundScored):
                self.doubled[event.round] = event.doubled
        elif isinstance(event, GAME_ENDS):
            self.overlay = "over"
        elif isinstance(event, ev.CommandUndone) and self.overlay == "over":
            self.overlay = None

    def _line(self, seq: int, event: Event, before: GameState | None) -> Line:
        if isinstance(event, ev.CommandUndone):
            what = self._texts.get(event.seq, f"the command at event {event.seq}")
            return Line(seq, f"undone: {what}", None, "undo")
        kind = "move" if hasattr(event, "seat") or self.is_solo else "info"
        if isinstance(event, ROUND_ENDS + GAME_ENDS):
            kind = "round"
        text = describe(before, event)
        if "You" in self.state.names:
            text = second_person(text)
        seat = getattr(event, "seat", 0 if self.is_solo else None)
        return Line(seq, text, seat, kind)

    # -- acting --------------------------------------------------------------

    def note(self, text: str) -> None:
        """Add a line of our own (not an event) to the event lines, e.g. where the log is."""
        self.lines.append(Line(-1, text, None, "info"))

    def say(self, text: str, kind: str = "info") -> None:
        """Put a message in the status line."""
        self.status, self.status_kind = text, kind

    def issue(self, command: Command) -> bool:
        """Issue a command; a refusal shows the rule's message and changes nothing."""
        if isinstance(command, Undo):
            return self.undo()
        try:
            self.game.issue(command)
        except RuleError as refused:
            self.say(refused.message, "error")
            return False
        self.after_change()
        return True

    def after_change(self) -> None:
        """The game changed: read its events and reset the selection."""
        self.chooser.reset()
        self.say("")
        self.catch_up()
        self.chooser.refresh()

    def undo(self) -> bool:
        """Step back to before the last move made at this keyboard, with the bots' replies."""
        for command in reversed(self.game.timeline.commands()):
            seat = getattr(command, "seat", None)
            if seat is not None and self.is_human(seat):
                steps = len(self.game.undo_turn(seat))
                self.after_change()
                self.say(f"Undid {steps} move{'s' if steps != 1 else ''}.")
                return True
        self.say("There is nothing of yours to undo.", "error")
        return False

    def bot_move(self) -> Command:
        """The command the bot to act chooses (the game is not changed)."""
        seat = self.bot_to_act()
        if seat is None:
            raise ValueError("no bot is to act")
        return bot_command(self.game, self.bots[seat])

    def bot_step(self) -> bool:
        """Let the bot to act make one move; False if no bot is to act."""
        if self.bot_to_act() is None:
            return False
        self.issue(self.bot_move())
        return True

    def message(self) -> tuple[str, str]:
        """The status line: the last refusal or note, else what to do now."""
        if self.status:
            return self.status, self.status_kind
        return prompt(self.chooser), "info"

    def waiting(self) -> str:
        """Who the game waits for, in words."""
        return waiting(self.state)

    def back(self) -> None:
        """Esc: close the help or a score table, else step back from a menu or the dice picked."""
        if self.overlay in ("help", "round"):
            self.overlay = None
            return
        self.chooser.back()

    def run_line(self, text: str) -> None:
        """Run a line typed at the ``:`` command line."""
        text = text.strip()
        if not text:
            return
        word = text.split()[0].lower()
        if word in ("quit", "q", "exit"):
            self.quit_requested = True
        elif word in ("help", "?"):
            self.overlay = "help"
        else:
            try:
                command = parse_command(text, self.input_seat())
            except CommandSyntaxError as bad:
                self.say(str(bad), "error")
                return
            self.issue(command)
