"""The play session: a table at this keyboard, and what the screen is doing.

The game, its seats, whose turn it is, the undo policy and the bots' moves are
the game host's (``core.host.Table``); the session sends it the keyboard's
commands and keeps only presentation state: the
status line, the event lines (``core.read.text.describe``), the overlay.
What can be selected, the cursor, the dice picked for a spend or a cache, an
open menu and the keys that act on them are its ``chooser`` (``choosing``, over
the core read model ``core.read.choices``); a refused command shows the
engine's own message and changes nothing. No prompt-toolkit here, so the whole
flow can be driven and tested without a terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from attrs import evolve, frozen

from core import (
    BotMove,
    Choices,
    Command,
    CommandSyntaxError,
    CommandUndone,
    Commit,
    Event,
    Game,
    GameEnded,
    GameState,
    RoundScored,
    RuleError,
    Seating,
    SeatRecord,
    SoloGameEnded,
    Step,
    StepReader,
    StoreError,
    Table,
    TakeDie,
    TieBreakScored,
    Undo,
    choices,
    describe,
    parse_command,
    second_person,
)
from frontends.cli.tui.choosing import Chooser
from frontends.cli.tui.glyphs import sort_key
from frontends.cli.tui.hints import Hint, HintMove
from frontends.cli.tui.review import Review, items
from frontends.cli.tui.table import short_name
from frontends.cli.tui.typed import ambiguous_number, dice_of
from frontends.cli.tui.words import prompt, waiting

#: Events that close a round (a score table follows) or the game.
ROUND_ENDS = (RoundScored, TieBreakScored)
GAME_ENDS = (GameEnded, SoloGameEnded)


@frozen
class Line:
    """One event in words, with the seat that acted (for colouring)."""

    seq: int
    text: str
    seat: int | None
    kind: str  # "move", "round", "undo", "info"


class Session:
    """A game being played at this keyboard: a ``Table`` whose people all sit here."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[SeatRecord],
        log_path: Path | None = None,
        *,
        hints: bool | None = None,
        samples: int | None = None,
        read_only: bool = False,
        host: Table | None = None,
    ) -> None:
        #: The game host; ``host`` is another's, e.g. a server's game (``frontends.cli.remote``).
        self.table = (
            Table(game, Seating(tuple(seats)), playable=not read_only) if host is None else host
        )
        #: A finished game resumed from its log, or one whose dice come from a secret
        #: this program does not hold: shown, never changed (no move, no undo).
        self.read_only = read_only
        #: Why the game stopped (its log could not keep a move), or None while it goes on.
        self.failed: str | None = None
        self.log_path = log_path
        #: The hint key works against bots and alone; at one keyboard only if asked for.
        self.hints_on = len(self.table.persons) == 1 if hints is None else hints
        self.samples = samples  # futures per position for hints and the review (None: default)
        self.hint: Hint | None = None
        self.review: Review | None = None  # open after the game: analysing, or its steps
        self._reviewed: tuple[int, Review] | None = None  # the last review and the seq it read
        self.lines: list[Line] = []
        self._texts: dict[int, str] = {}
        self._batch_ends: dict[int, int] = {}  # a batch's first seq -> the seq after its last
        self.undone: set[int] = set()  # seqs of events whose command was undone
        self._committed: list[Commit] = []  # told by the table, read into lines by catch_up
        self.status = ""
        self.status_kind = "info"  # "info" or "error"
        self.chooser = Chooser(self)  # the cursor, the dice picked, the menu, the keys
        #: "help", "rules", "round", "over", "handover", "leave"
        self.overlay: str | None = None
        self.rules_page = 0  # the rules page shown (R)
        self.at_keyboard: int | None = None  # hot-seat: the person last handed the keyboard
        self.quit_requested = False
        self.doubled: dict[int, int | None] = {}  # round -> the seat whose gems doubled
        with self.table.changed:
            self._read(StepReader().read(game.batches()))
            self.table.subscribe(self._committed.extend)
        self.overlay = "over" if self.state.is_over else None
        self.chooser.refresh()
        self.hand_over()

    # -- reading -------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The game played at the table."""
        return self.table.game

    @property
    def seats(self) -> tuple[SeatRecord, ...]:
        """Each seat's name and bot kind (None: a person at this keyboard)."""
        return self.table.seats

    @property
    def state(self) -> GameState:
        """The game's projected state; during a review, the position of the step shown."""
        review = self.review
        if review is not None and review.items:
            return review.item.position
        return self.game.state

    @property
    def is_solo(self) -> bool:
        """True for a solo game."""
        return self.state.mode == "solo"

    def is_human(self, seat: int | None) -> bool:
        """True if ``seat`` is played at this keyboard."""
        return seat is not None and self.table.is_person(seat)

    @property
    def humans(self) -> tuple[int, ...]:
        """The seats played at this keyboard."""
        return self.table.persons

    def human_to_act(self) -> int | None:
        """The seat at this keyboard the game waits for, if any (none in a game that is
        only shown here: nothing is offered that would be refused)."""
        return None if self.read_only else self.table.person_to_act()

    def why_read_only(self) -> str:
        """Why nothing can be done to this game here, in words."""
        if self.game.state.facts.secret_dice and not self.game.state.is_over:
            return (
                "This game's dice come from a secret its host keeps until the game ends: "
                "it can be watched here, not played on (play it where it was started)."
            )
        return "This game is over; its log is open read-only, so nothing is undone."

    def input_seat(self) -> int:
        """The seat typed commands are issued for: the person to act, else the first person."""
        seat = self.human_to_act()
        return self.humans[0] if seat is None else seat

    @property
    def names(self) -> tuple[str, ...]:
        """The seats' names as the screen shows them (a bot's without its kind): what a
        player types to name a seat (``beer 12 to Brok``)."""
        return tuple(short_name(seat) for seat in self.seats)

    def parse(self, text: str) -> Command:
        """A typed line as a command of the seat typing (``CommandSyntaxError`` if it is none)."""
        return parse_command(text, self.input_seat(), self.names, self.table.game.verbs)

    def bot_to_act(self) -> int | None:
        """The bot seat the game waits for, if any."""
        return self.table.bot_to_act()

    def legal(self) -> list[Command]:
        """The legal commands of the player to act (none in a game only shown here)."""
        return [] if self.read_only else self.game.legal()

    def read_model(self, state: GameState) -> Choices:
        """What the seat to act may choose at ``state`` (a remote session: the server's)."""
        return choices(state, state.to_act())

    async def follow(self, redraw: Callable[[], None]) -> None:
        """Keep up with moves made elsewhere (a remote session's); here nothing to follow."""

    def trove_order(self, seat: int) -> tuple[int, ...]:
        """A trove's dice in display order: by type, then face."""
        faces = self.state.faces
        return tuple(sorted(self.state.troves[seat], key=lambda d: sort_key(d, faces[d])))

    # -- events --------------------------------------------------------------

    def catch_up(self) -> list[Line]:
        """The event lines of what the table committed since the last call.

        Each event is worded from the state just before it, as ``describe`` asks,
        which the table's commits carry: nothing is folded again here.
        """
        with self.table.changed:
            commits, self._committed[:] = list(self._committed), []
        return self._read(step for commit in commits for step in commit.steps)

    def _read(self, steps) -> list[Line]:
        new = []
        for step in steps:
            self._batch_ends[step.batch.seq] = step.batch.end
            line = self._line(step)
            self._texts[step.seq] = line.text
            new.append(line)
            self._note_event(step.event)
        self.lines.extend(new)
        return new

    def _note_event(self, event: Event) -> None:
        """Open the score table after a round, the result at the end (closed by an undo)."""
        if isinstance(event, ROUND_ENDS):
            self.overlay = "round"
            if isinstance(event, RoundScored):
                self.doubled[event.round] = event.doubled
        elif isinstance(event, GAME_ENDS):
            self.overlay = "over"
        elif isinstance(event, CommandUndone) and self.overlay == "over":
            self.overlay = None

    def _line(self, step: Step) -> Line:
        seq, event, before = step.seq, step.event, step.before
        if isinstance(event, CommandUndone):
            # every line of the command's events is shown undone, not only its first
            self.undone.update(range(event.seq, self._batch_ends.get(event.seq, event.seq + 1)))
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
            self.table.issue(getattr(command, "seat", self.input_seat()), command)
        except RuleError as refused:
            self.say(refused.message, "error")
            return False
        except StoreError as failed:  # a full disk: the table stopped
            self.stop(failed)
            return False
        self.after_change()
        return True

    def play_bot(self, move: BotMove) -> bool:
        """Commit a bot's move decided for this position; False if it was not (the game
        moved on, or its log could not keep it: then the game stops, saying so)."""
        try:
            return bool(self.table.play(move))
        except StoreError as failed:
            self.stop(failed)
            return False

    def stop(self, failed: Exception) -> None:
        """The log could not keep a move: nothing more is played, and the screen says why
        in one line (what was saved before stays saved; nothing claims more)."""
        self.failed = self.table.stopped or str(failed)
        self.say(f"The game stopped: {self.failed}. Quit with q.", "error")

    def after_change(self) -> None:
        """The game changed: read its events and reset the selection."""
        self.chooser.reset()
        self.say("")
        self.catch_up()
        self.chooser.refresh()
        if self.hint is not None and self.hint.state is not self.state:
            self.hint = None  # a move made while it was thought out drops it
        self.hand_over()

    @property
    def spectating(self) -> bool:
        """True when this screen only watches a game played elsewhere (``./play watch``):
        no move, undo or typed command is its to make, so none is offered."""
        return False

    @property
    def is_hotseat(self) -> bool:
        """True when several people share this keyboard."""
        return len(self.humans) > 1

    def hand_over(self) -> None:
        """Hot-seat: when the game waits for another person than the one at the keyboard,
        say whose turn it is and wait for a key (the ``handover`` overlay), so the next
        player knows it is theirs and no one moves for them by mistake."""
        seat = self.human_to_act()
        if self.is_hotseat and self.overlay is None and seat not in (None, self.at_keyboard):
            self.overlay = "handover"

    def undo(self) -> bool:
        """Step back to before the last move of the person at this keyboard, with the bots'
        replies (the table's undo policy). At one keyboard shared by several people that
        is the person the keyboard was last handed to: never another's move."""
        if self.read_only:
            self.say(self.why_read_only(), "error")
            return False
        return self._undo_seat(self._undoer())

    def _undoer(self) -> int | None:
        """The seat ``u`` would undo for: the person the keyboard was handed to, else the
        person who moved last here; None if no person has moved."""
        if self.is_hotseat:
            return self.at_keyboard if self.at_keyboard is not None else self.human_to_act()
        for command in reversed(self.game.timeline.commands()):
            seat = getattr(command, "seat", None)
            if seat is not None and self.is_human(seat):
                return seat
        return None

    def can_undo(self) -> bool:
        """True if ``u`` would undo something now (the key bar shows it only then)."""
        if self.read_only or self.spectating or self.failed is not None:
            return False
        seat = self._undoer()
        return seat is not None and self.table.can_undo(seat)

    def _undo_seat(self, seat: int | None) -> bool:
        if seat is None:
            self.say("There is nothing of yours to undo.", "error")
            return False
        try:
            steps = len(self.table.undo(seat))
        except RuleError as refused:
            self.say(refused.message, "error")
            return False
        except StoreError as failed:
            self.stop(failed)
            return False
        self.after_change()
        self.say(f"Undid {steps} move{'s' if steps != 1 else ''}.")
        return True

    # -- hints -----------------------------------------------------------------

    def ask_hint(self) -> Hint | None:
        """t: the hint to think out now for the person to act (the application computes it
        off the screen's loop, ``hints.hint_moves``, and hands it to ``hint_done``), or None
        having said why not. Asked again while shown, it hides the hint."""
        if self.hint is not None:
            self.hint = None
            return None
        seat = self.human_to_act()
        if not self.hints_on:
            self.say("Hints are off when people share the keyboard (play --hints).", "error")
        elif seat is None:
            self.say("A hint is for your turn: " + self.waiting(), "error")
        else:
            self.hint = Hint(self.state, seat, self.game.timeline.depth + 1)
        return self.hint

    def hint_done(self, hint: Hint, moves: tuple[HintMove, ...]) -> bool:
        """The hint thought out: shown if it is still the one asked for at this position."""
        if self.hint is not hint or hint.state is not self.state:
            return False
        self.hint = evolve(hint, moves=moves)
        return True

    # -- the review ------------------------------------------------------------

    def open_review(self) -> Review | None:
        """v: open the review of the finished game. Returns the review to analyse (the
        application runs ``review.analyse`` off the screen's loop and hands the document to
        ``review_ready``), or None: already analysed (shown again at once), or not yet over."""
        if not self.game.state.is_over:
            self.say("The review opens once the game is over.", "error")
            return None
        if self.review is not None:
            return None
        self.overlay = "review"
        if self._reviewed is not None and self._reviewed[0] == self.game.seq:
            self.review = self._reviewed[1]
            self.chooser.refresh()
            return None
        self.review = Review()
        return self.review

    def review_ready(self, review: Review, document: dict) -> None:
        """The analysis is done: the review's steps, from the first."""
        if review.stopped:
            return
        review.items = items(document, self.game, self.names)
        self._reviewed = (self.game.seq, review)
        self.chooser.refresh()

    def review_failed(self, review: Review, reason: str) -> None:
        """The analysis could not be made: closed, saying why."""
        if self.review is review:
            self.close_review()
            self.say(f"The game could not be analysed: {reason}", "error")

    def review_step(self, delta: int) -> None:
        """← →: the previous or next step of the review."""
        if self.review is not None:
            self.review.step(delta)
            self.chooser.refresh()

    def close_review(self) -> None:
        """Esc: back to the end of the game (stopping the analysis if it is still running)."""
        if self.review is not None:
            self.review.stop()
        self.review = None
        self.overlay = "over" if self.game.state.is_over else None
        self.chooser.refresh()

    def review_marks(self) -> dict[int, str]:
        """The dice the review's step names: ``"played"`` and ``"best"`` (the best wins)."""
        review = self.review
        if review is None or not review.items:
            return {}
        item = review.item
        marks = dict.fromkeys(dice_of(item.played), "played")
        marks.update(dict.fromkeys(dice_of(item.best), "best"))
        return marks

    def bot_step(self) -> bool:
        """Let the bot to act make one move; False if no bot is to act."""
        move = self.table.decide_bot()
        if move is None:
            return False
        if self.table.play(move):
            self.after_change()
        return True

    def message(self) -> tuple[str, str]:
        """The status line: the last refusal or note, else what to do now."""
        if self.status:
            return self.status, self.status_kind
        if self.read_only and not self.game.state.is_over:
            return self.why_read_only(), "info"
        if self.review is not None:
            return "Review: ← → (or h l) step through the mistakes; Esc closes it.", "info"
        return prompt(self.chooser), "info"

    def waiting(self) -> str:
        """Who the game waits for, in words."""
        return waiting(self.state, self.can_undo())

    def back(self) -> None:
        """Esc: close the help or a score table, else step back from a menu or the dice picked."""
        if self.overlay == "review":
            self.close_review()
            return
        if self.overlay == "handover":
            self.at_keyboard = self.human_to_act()
            self.overlay = None
            return
        if self.overlay == "rules":
            self.close_rules()
            return
        if self.overlay in ("help", "round"):
            self.overlay = None
            self.hand_over()
            return
        self.chooser.back()

    # -- leaving ---------------------------------------------------------------

    @property
    def can_leave(self) -> bool:
        """True when this screen plays a seat it can leave for good (a server's game:
        ``frontends.cli.remote``); here, leaving a game is quitting it (q)."""
        return False

    def ask_leave(self) -> None:
        """L: ask before leaving the game for good (the ``leave`` box), where it can be."""
        if not self.can_leave:
            self.say("To leave this game, quit it with q: its log keeps it for later.", "error")
            return
        self.overlay = "leave"

    def leave(self) -> None:
        """y in the ``leave`` box: leave for good (a server's game says how)."""
        self.overlay = None

    def stay(self) -> None:
        """n or Esc in the ``leave`` box: back to the game."""
        self.overlay = "over" if self.game.state.is_over else None

    def show_rules(self) -> None:
        """R: the rules pages from the first, over whatever was shown (the result stays
        under them)."""
        self.overlay = "rules"
        self.rules_page = 0

    def close_rules(self) -> None:
        """Esc on the rules: back to the game, or to its result if it is over."""
        self.overlay = "over" if self.game.state.is_over else None
        self.hand_over()

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
        elif word == "rules":
            self.show_rules()
        elif self.read_only:
            self.say(self.why_read_only(), "error")
        else:
            try:
                command = self.parse(text)
            except CommandSyntaxError as bad:
                self.say(str(bad), "error")
                return
            ambiguous = ambiguous_number(self.state, text, command, self._dice_to_name(command))
            if ambiguous is not None:
                self.say(ambiguous, "error")
                return
            self.issue(command)

    def _dice_to_name(self, command: Command) -> tuple[int, ...]:
        """The dice on screen a typed command picks from: the mountain's for a take (and a
        solo recycle), else the trove of the seat typing."""
        mountain = tuple(d for d in self.state.mountain if d is not None)
        if isinstance(command, TakeDie):
            return mountain
        troves = self.state.troves
        trove = troves[self.input_seat()] if troves else ()
        return trove + mountain if self.is_solo else trove
