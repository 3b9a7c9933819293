"""Live games as the web shows them: a core ``Table`` with its events kept as JSON records.

Everything about playing (seats and tokens, whose turn, the undo policy, the
bots at their pace, the store) is the game host's (``core.host``): this module
only keeps what the pages read, each event as its record in words
(``event_record``), the totals after it and the chart's series, so a spectator
who joins late or reconnects gets the events from any seq on. The records grow
from the table's commits (each event with the states around it), so no event is
folded twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core import (
    Command,
    CommandUndone,
    Commit,
    GameState,
    Lobby,
    Step,
    StepReader,
    Table,
    Undo,
    command_to_dict,
    replay,
)
from frontends.web.choices_json import choices_view
from frontends.web.lastmove import LastMove, Marks
from frontends.web.readmodel import ScoreSeries, board_view, page_record


def undo_option(seat: int) -> dict[str, Any]:
    """A seat's undo as its page offers it: its words and its command."""
    return {"label": "Undo my last move", "text": "undo", "command": command_to_dict(Undo(seat))}


def dice_origin(state: GameState) -> dict[str, Any]:
    """Where the game's dice come from, for the page to say (never the secret itself,
    until the log has revealed it)."""
    facts = state.facts
    if facts.branches:  # a what-if branch: its fact says where its dice come from now
        parent, at, luck = facts.branches[-1]
        seed = facts.branch_seed
        return {"kind": "branch", "parent": parent, "at": at, "luck": luck, "seed": seed}
    if facts.seed_chosen_by:
        return {"kind": "chosen", "seed": state.seed, "chosen_by": facts.seed_chosen_by}
    if facts.commitment:
        kind = "revealed" if facts.revealed else "secret"
        return {"kind": kind, "commitment": facts.commitment, "secret": facts.revealed or None}
    return {"kind": "seed", "seed": state.seed}


class LiveGame:
    """A table and the JSON records of its events, kept as they are committed."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.records: list[dict[str, Any]] = []
        self.totals: list[list[int]] = []  # each player's total after each event
        self.scores = ScoreSeries()
        self.marks: list[Marks | None] = []  # what the board marks after each event (sent beside)
        self._last_move = LastMove()
        self._batch_records: dict[int, range] = {}  # batch seq -> its events' seqs
        with table.changed:
            # what the table has folded, not what the store holds: another process's move
            # not folded yet is told by the table's catching up, once
            folded = table.seq
            batches = (batch for batch in table.game.batches() if batch.seq < folded)
            for step in StepReader().read(batches):
                self._keep(step)
            self._stop = table.subscribe(self._committed)

    # -- reading -------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.table.id

    @property
    def cond(self):
        """The table's condition: held while it changes, notified after every change."""
        return self.table.changed

    @property
    def state(self) -> GameState:
        return self.table.state

    @property
    def seq(self) -> int:
        return self.table.seq

    @property
    def closed(self) -> bool:
        return self.table.closed

    def summary(self) -> dict[str, Any]:
        """The game as the lists and the game page show it."""
        timeline = self.table.timeline
        state = timeline.state
        return {
            "id": self.id,
            "mode": state.mode,
            "seats": [
                {
                    "seat": seat,
                    "name": record.name,
                    "bot": record.bot,  # None: a person's seat (a link may play it)
                    # the kind of bot playing for a person gone quiet, until they come back
                    "stand_in": self.table.bot_kind(seat) if self.table.is_handed(seat) else None,
                    "can_undo": self.can_undo(seat),
                }
                for seat, record in enumerate(self.table.seats)
            ],
            "players": list(state.names),
            "seq": timeline.seq,
            "phase": state.phase,
            "round": state.round,
            "over": state.is_over,
            "playable": self.table.playable,
            "stopped": self.table.stopped,  # why the game stopped (its store failed), or None
            "closed": state.facts.closed or None,  # why the table ended it early, or None
            # the one person a practice game is for (they may undo what the dice showed)
            "practice": state.facts.practice or None,
            "left": list(state.facts.left),  # the seats whose person left for good
            "rematch": state.facts.rematch or None,  # the game that followed this one
            "to_act": state.to_act(),
            "changed": self.table.changed_at,  # when it last changed (seconds since the epoch)
            "winners": [state.names[s] for s in state.winners],
            "scores": self.scores.data(),
            "dice": dice_origin(state),
        }

    def summary_with_links(self, tokens: dict[int, str]) -> dict[str, Any]:
        """The summary for whoever started the game: each person's secret token and link
        (given only in this answer, never again) and the link to watch it."""
        answer = self.summary()
        for seat in answer["seats"]:
            token = tokens.get(seat["seat"])
            if token is not None:
                seat["token"] = token
                seat["link"] = f"/games/{self.id}#seat={seat['seat']}&token={token}"
        answer["watch"] = f"/games/{self.id}"
        return answer

    def board(self, at: int | None = None) -> dict[str, Any]:
        """The board after ``at`` events (now, by default); the timeline is read once."""
        timeline = self.table.timeline
        if at is None or at == timeline.seq:
            return board_view(timeline.state, timeline.seq)
        if not 1 <= at <= timeline.seq:
            raise ValueError(f"at must be 1 to {timeline.seq}, not {at}")
        return board_view(replay(self.table.game.batches(), upto=at).state, at)

    def now(self, at: int | None = None, after: int = 0) -> dict[str, Any]:
        """The game as a page draws it, the same for every spectator: the board after ``at``
        events (``state``; now, by default), and as they are now the chart's series
        (``scores``: its points after position ``after``, which whoever asks holds) and
        where the dice come from (``dice``)."""
        scores, dice = self.scores.data(after), dice_origin(self.state)
        return {"state": self.board(at), "scores": scores, "dice": dice}

    def choices(self) -> dict[str, Any]:
        """What the player to act may do now, with the seq it holds for, and which seats'
        undo would be taken now (``can_undo``, by seat: false for a bot's)."""
        with self.cond:
            timeline = self.table.timeline
            undo = [self.can_undo(seat) for seat in range(len(self.table.seats))]
        seat = timeline.state.to_act()
        # each seat's undo, which its page offers where can_undo says so
        undos = [undo_option(seat) for seat in range(len(undo))]
        offered = {"seq": timeline.seq, "can_undo": undo, "undo": undos}
        if seat is None:
            return {"seat": None, "turn": False, **offered}
        return {**choices_view(timeline.state, seat), **offered}

    def can_undo(self, seat: int) -> bool:
        """True if an undo for ``seat`` would be taken now (the page offers it only then)."""
        return self.table.can_undo(seat)

    def events_from(self, start: int, limit: int | None = None) -> list[dict[str, Any]]:
        """The event records from seq ``start`` on."""
        with self.cond:
            stop = None if limit is None else start + limit
            return list(self.records[start:stop])

    def marks_from(self, start: int, limit: int | None = None) -> list[Marks | None]:
        """What the board marks after each event from seq ``start`` on (``events_from``'s)."""
        with self.cond:
            stop = None if limit is None else start + limit
            return list(self.marks[start:stop])

    def seat_for(self, token: str | None) -> int | None:
        """The person's seat whose token this is, or None."""
        return self.table.seat_for(token)

    # -- acting --------------------------------------------------------------

    def issue(
        self,
        seat: int,
        command: Command,
        *,
        expected_seq: int | None = None,
        request: str | None = None,
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """A person's command for ``seat`` (an undo by the table's policy): the records of
        the events it caused and the game after it (``now``'s parts, the board at the end
        of the command). A refusal changes nothing.

        A ``request`` already answered (its answer lost on the way, the client asking
        again) gets that first answer again, and makes no second move.
        """
        with self.cond:
            moved = self.table.issue(seat, command, expected_seq=expected_seq, request=request)
            return self._answer(moved.first, moved.end)

    def _answer(self, first: int, end: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The answer a request got: the records of its events and the game after them (the
        board after them; the chart's series and the dice as they are now), and what may be
        done there (``choices``, as ``GET .../choices`` answers; None once the game has moved
        on, as a bot may have: the page asks then), so the page asks nothing more to play on."""
        return list(self.records[first:end]), {
            **self.now(end, after=first),
            "marks": self.marks[first:end],  # what the board marks after each of the events
            "choices": self.choices() if end == self.seq else None,
        }

    # -- the records ---------------------------------------------------------

    def _committed(self, commits: Sequence[Commit]) -> None:
        for commit in commits:
            for step in commit.steps:
                self._keep(step)

    def _keep(self, step: Step) -> None:
        record = page_record(step)
        self.marks.append(self._last_move.after(record))
        if isinstance(step.event, CommandUndone):
            # the events it strikes, as the server knows them: the page marks these
            record["undoes"] = list(self._mark_undone(step.event.seq))
        elif not isinstance(step.batch.command, Undo):
            self._batch_records[step.batch.seq] = range(step.batch.seq, step.batch.end)
        self.records.append(record)
        self.totals.append(list(step.after.totals()))
        self.scores.add(step.seq, step.event, step.after)

    def _mark_undone(self, batch_seq: int) -> range:
        undone = self._batch_records.get(batch_seq, range(0))
        for seq in undone:
            self.records[seq]["undone"] = True
        self.scores.unmark(undone)
        return undone

    def close(self) -> None:
        """Stop keeping records (the table itself is the lobby's to close)."""
        self._stop()


class LiveGames:
    """The server's live games: the lobby's tables, each with its records."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self._views: dict[str, LiveGame] = {}
        lobby.on_drop.append(self._dropped)

    def _dropped(self, table: Table) -> None:
        """A table the lobby no longer holds: its records go with it."""
        view = self._views.get(table.id)
        if view is not None and view.table is table:
            self._views.pop(table.id, None)
            view.close()

    def _view(self, table: Table) -> LiveGame:
        view = self._views.get(table.id)
        if view is None or view.table is not table:
            view = self._views[table.id] = LiveGame(table)
        return view

    def create(self, players: object, **options: Any) -> tuple[LiveGame, dict[int, str]]:
        """Start a game (``core.host.Lobby.create``'s options); returns it and the secret
        token of each person's seat."""
        table, tokens = self.lobby.create(players, **options)
        return self._view(table), tokens

    def branch(
        self, parent: bytes, at: int, luck: str, players: object, **options: Any
    ) -> tuple[LiveGame, dict[int, str]]:
        """Start a what-if branch of the log ``parent`` (``core.host.Lobby.branch``'s
        options); returns it and the secret token of each person's seat."""
        table, tokens = self.lobby.branch(parent, at, luck, players, **options)
        return self._view(table), tokens

    def get(self, game_id: str) -> LiveGame | None:
        """The live game with this id, if any."""
        table = self.lobby.get(game_id)
        return None if table is None else self._view(table)

    def all(self) -> list[LiveGame]:
        """The live games to list (``core.host.Lobby.listed``)."""
        views = [self._view(table) for table in self.lobby.listed()]
        live = {view.id for view in views}
        for game_id in [g for g in self._views if g not in live]:  # closed to make room
            self._views.pop(game_id).close()
        return views

    def close(self) -> None:
        """Stop every game (they stay in the store)."""
        self.lobby.close()
        for view in self._views.values():
            view.close()
        self._views.clear()


__all__ = ["LiveGame", "LiveGames"]
