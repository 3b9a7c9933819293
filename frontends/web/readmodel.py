"""What the browser draws: ``state_view`` plus the table's details, and the score series.

``board_view`` is ``core.read.views.state_view`` (the one JSON shape of a
state) with a ``table`` block the pictures need: seats by index, the top and side
dice of the mountain, spent hero faces, each seat's score if the round in play
ended now (as the terminal shows it), the solo score, breakdown and sequences,
and which tool die neutralizes each hazard and which chest holds each frozen treasure;
``table.status`` is the one sentence saying where the game stands (``status_sentence``).
What a seat may do now is ``core.read.choices`` in JSON
(``frontends.web.choices_json``; ``choices`` here is the same function, for the
modules that import it from here): the browser never re-derives a rule, it only
marks what it is told is selectable and sends back the commands it was given.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Iterator
from typing import Any

from core import (
    EXCAVATION,
    MAGIC,
    RATINGS,
    Batch,
    Event,
    GameState,
    RoundScored,
    Step,
    StepReader,
    TieBreakScored,
    addressed,
    event_record,
    score_so_far,
    side_slots,
    solo_score,
    state_view,
    status_sentence,
    top_slots,
)
from frontends.web.choices_json import choices_view as choices


def page_record(step: Step) -> dict[str, Any]:
    """An event as the page lists it: core's record, its words said to a person named You."""
    record = event_record(step)
    record["text"] = addressed(record["text"], step.after.names)
    return record


def board_view(state: GameState, seq: int) -> dict[str, Any]:
    """The state after ``seq`` events, as the viewer and the game page draw it."""
    view = state_view(state, seq)
    mountain = state.mountain
    table: dict[str, Any] = {
        "to_act_seat": state.to_act(),
        "start_seat": state.start_seat,
        "beer_shared": state.beer_shared,
        "picks_left": state.picks_left,
        "tiebreak": state.tiebreak,
        "contenders": list(state.contenders),
        "winner_seats": list(state.winners),
        "top": [mountain[k] for k in top_slots(mountain)],
        "side": [mountain[k] for k in side_slots(mountain)],
        "hero_spent": [sorted(spent) for spent in state.hero_spent],
    }
    if state.mode == "solo" and state.troves:
        score = solo_score(state)
        b = score.breakdown
        table["refills_left"] = state.solo.refills_left
        table["solo_score"] = {
            "score": score.score,
            "rating": score.rating,
            "bands": [[lowest, name] for lowest, name in RATINGS],
            "range": rating_range(score.rating),  # the page says it as it is
            "breakdown": {
                "hazards": b.hazards,
                "treasure": b.treasure,
                "frozen": b.frozen,
                "tunnels": b.tunnels,
            },
        }
        table["sequences"] = [list(seq) for seq in state.solo.sequences]
        # who is paired with whom, so the page can mark each pair (the flags alone cannot)
        table["neutralized"] = [[hazard, tool] for hazard, tool in state.solo.neutralized]
        table["frozen"] = [[treasure, chest] for treasure, chest in state.solo.frozen]
    else:
        now = table["round_now"] = round_now(state)
        # the round's score so far, as the card says it: the parts added up here, not in the page
        table["round_now_total"] = (
            None if now is None else [None if p is None else sum(p) for p in now]
        )
    facts = state.facts
    if facts.bot_seats:  # a bot plays a person's seat: shown at the seat, not only in the log
        table["stand_ins"] = {str(seat): kind for seat, kind in facts.bot_seats}
        table["left"] = list(facts.left)  # of those, the seats whose person left for good
    table["score_now"] = score_now(state)  # each seat's score so far: the chart's point
    table["status"] = status_sentence(state)  # the page shows it as it comes
    view["table"] = table
    return view


def rating_range(rating: str) -> str:
    """The points a solo rating stands for: 46 to 60 (an en dash between), or ``"71+"``."""
    for n, (lowest, name) in enumerate(RATINGS):
        if name == rating:
            last = f"{RATINGS[n + 1][0] - 1}" if n + 1 < len(RATINGS) else None
            return f"{lowest}\u2013{last}" if last else f"{lowest}+"
    return ""


def round_now(state: GameState) -> list[list[int] | None] | None:
    """Each seat's (tunnels, treasure, hazards) if the round in play were scored now.

    Only while dice are being dug or magic spent (None otherwise); in a tie-break
    the seats out of it are None. The scores are the engine's (``score_so_far``,
    which the terminal shows too); ``round_now_total`` in the board adds them up.
    """
    if state.phase not in (EXCAVATION, MAGIC) or not state.troves:
        return None
    return [None if b is None else [b.tunnel, b.treasure, b.hazard] for b in score_so_far(state)]


def boards_of(batches: Iterable[Batch], start: int = 1, stop: int | None = None) -> Iterator[dict]:
    """The board after each position ``start`` to ``stop`` (the last by default) of a log's
    batches, each event's state read once in order (as the timeline folds them)."""
    for step in StepReader().read(batches):
        position = step.seq + 1
        if stop is not None and position > stop:
            return
        if position >= start:
            yield board_view(step.after, position)


def pack_boards(boards: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Boards in one answer, each part sent once: ``values`` holds every distinct part, and
    each of ``boards`` names its parts by their index in it (``players`` one index per seat,
    ``table`` one per key, any other key one).

    Consecutive boards differ in a part or two (one trove, the mountain, the table's
    scores), so a whole game's 139 boards are about a tenth of their JSON apart; the page
    puts each board back together, sharing the parts, and then steps without the server.
    """
    values: list[Any] = []
    index: dict[str, int] = {}

    def part(value: Any) -> int:
        key = json.dumps(value, separators=(",", ":"))
        found = index.get(key)
        if found is None:
            found = index[key] = len(values)
            values.append(value)
        return found

    packed = []
    for board in boards:
        entry: dict[str, Any] = {}
        for key, value in board.items():
            if key == "players":
                entry[key] = [part(player) for player in value]
            elif key == "table":
                entry[key] = {name: part(item) for name, item in value.items()}
            else:
                entry[key] = part(value)
        packed.append(entry)
    return {"values": values, "boards": packed}


def unpack_boards(pack: dict[str, Any]) -> list[dict[str, Any]]:
    """The boards of a pack, whole again (what the page's ``boards.js`` does, for tests)."""
    values = pack["values"]
    boards = []
    for entry in pack["boards"]:
        board: dict[str, Any] = {}
        for key, ref in entry.items():
            if key == "players":
                board[key] = [values[i] for i in ref]
            elif key == "table":
                board[key] = {name: values[i] for name, i in ref.items()}
            else:
                board[key] = values[ref]
        boards.append(board)
    return boards


def score_now(state: GameState) -> list[int]:
    """Each seat's score so far: its total, with the round in play added as if it were
    scored now (``round_now``), so the chart moves with every die, not only at a round's end."""
    totals = list(state.totals())
    now = round_now(state)
    if now is None or state.tiebreak:  # a tie-break's round decides the tie, adds to no total
        return totals
    return [
        total + (sum(parts) if parts and len(state.round_scores[seat]) < state.round else 0)
        for seat, (total, parts) in enumerate(zip(totals, now, strict=True))
    ]  # a round just scored (the phase not yet moved on) is in the total already


class ScoreSeries:
    """Each player's score through a game, for the chart: the positions where it changes.

    ``points`` are ``(position, scores)`` with position = events folded so far and each
    seat's score so far (``score_now``: the totals, with the round in play as if it were
    scored now); ``rounds`` the positions just after each round (or tie-break) was scored.

    Scoring a position costs a round's scoring for every seat, so a live game only notes
    the states as they come (under its table's lock) and scores them when the chart is
    asked for (``data``), each once: a game nobody watches pays nothing for its chart.
    """

    def __init__(self) -> None:
        self.rounds: list[int] = []
        self._points: list[tuple[int, list[int]]] = []
        self._last: tuple[int, ...] | None = None
        self._unscored: list[tuple[int, GameState]] = []
        self._lock = threading.Lock()  # noted by the table's thread, read by requests'

    def add(self, seq: int, event: Event, after: GameState) -> None:
        """Note the state after the event at ``seq``."""
        with self._lock:
            self._unscored.append((seq, after))
        if isinstance(event, RoundScored | TieBreakScored):
            self.rounds.append(seq + 1)

    @property
    def points(self) -> list[tuple[int, list[int]]]:
        """Each position where a seat's score changed, with every seat's score there."""
        with self._lock:
            for seq, after in self._unscored:
                scores = tuple(score_now(after))
                if scores != self._last:
                    self._points.append((seq + 1, list(scores)))
                    self._last = scores
            self._unscored.clear()
            return list(self._points)

    def unmark(self, positions: range) -> None:
        """Forget the round marks of events that were undone."""
        self.rounds = [p for p in self.rounds if p - 1 not in positions]

    def data(self, after: int = 0) -> dict[str, Any]:
        """The series as JSON-ready data; with ``after``, only its points after that position
        (``after`` said in the data): the points only grow, so one who holds the series up to
        there needs only the rest (the rounds come whole: an undo unmarks some)."""
        points = self.points
        if after:
            points = [point for point in points if point[0] > after]
            return {"after": after, "points": points, "rounds": list(self.rounds)}
        return {"points": points, "rounds": list(self.rounds)}


__all__ = [
    "ScoreSeries",
    "board_view",
    "boards_of",
    "choices",
    "pack_boards",
    "round_now",
    "score_now",
    "unpack_boards",
]
