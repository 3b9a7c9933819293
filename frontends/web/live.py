"""Live spectating: a game's events as Server-Sent Events, resumable by seq.

``GET /api/games/<id>/stream?from=SEQ`` sends each event from ``SEQ`` on as

    id: <seq>
    event: step
    data: {"event": RECORD, "marks": MARKS, "totals": [TOTAL, ...],
           "state": BOARD-or-null, "scores": SERIES-or-null, "dice": DICE-or-null}

where the last event of each burst carries the board after it, the chart's series
(``ScoreSeries.data``: each seat's score so far where it changed after the burst's first
position, which the spectator holds, and the rounds) and
where the dice come from (``dice_origin``: a secret seed is shown once revealed): the
page draws them as they come and works none of them out from the events. Each event
comes with what the board marks after it (``marks``, frontends/web/lastmove.py). Nothing in
a message is any one seat's: a seat's choices are its own request. A browser that
reconnects sends ``Last-Event-ID`` and gets the events after it, nothing twice.
The stream stays bounded: a comment every ``SSE_HEARTBEAT`` seconds (a gone
client fails the write and ends it), an ``end`` event once the game is over and
everything is sent, a ``stopped`` event (``{"seq", "reason"}``) if the game stopped
because its store could not keep a move, and a close after ``SSE_MAX_SECONDS``
(the browser resumes).
"""

from __future__ import annotations

import json
import time
from weakref import WeakKeyDictionary

from flask import Blueprint, Response, current_app, request

from core import StoreUnavailable
from frontends.web.errors import ApiError
from frontends.web.games import LiveGame
from frontends.web.lookup import int_arg, live_game
from frontends.web.metrics import stream_closed, stream_opened

bp = Blueprint("live", __name__, url_prefix="/api")

#: How long the browser waits before reconnecting a dropped stream, in milliseconds.
RETRY_MS = 1500


def _resume_from(live: LiveGame) -> int:
    """The first seq to send: after ``Last-Event-ID`` if the browser resumes, else ``?from``."""
    last = request.headers.get("Last-Event-ID")
    if last:
        try:
            seq = int(last)
        except ValueError:
            message = f"Last-Event-ID must be a seq, not {last!r}"
            raise ApiError(400, "bad_argument", message) from None
        return min(max(seq + 1, 0), live.seq)
    return int_arg("from", 0, 0, live.seq)


#: The game after an event, on every message but a burst's last.
NOTHING_NOW = {"state": None, "scores": None, "dice": None}


def message(record: dict, totals: list[int], parts: dict) -> str:
    """One event as an SSE message (its seq is the message id) with ``parts``: ``marks``,
    what the board marks after it, and on a burst's last message the game after it
    (``state``, ``scores``, ``dice``; null on the others)."""
    fields = {"event": record, "marks": None, "totals": totals, **NOTHING_NOW, **parts}
    data = json.dumps(fields, separators=(",", ":"))
    return f"id: {record['seq']}\nevent: step\ndata: {data}\n\n"


def _finished(live: LiveGame) -> bool:
    """True once the game is over and, if its dice came from a secret, that is revealed:
    the reveal is the last event a stream sends."""
    state = live.state
    return state.is_over and (not state.facts.secret_dice or not live.table.playable)


#: Each game's latest burst: ``((start, end), text)``. Every spectator at the same place
#: is sent the same text, made once: with thousands watching one game, the board and the
#: JSON of a move would otherwise be made once per spectator.
_bursts: WeakKeyDictionary[LiveGame, tuple[tuple[int, int], bytes]] = WeakKeyDictionary()


def _burst(live: LiveGame, start: int) -> tuple[bytes, int]:
    """The messages of the events from ``start`` on, the board after the last, and the seq
    after them (b'' if there are none). Called with ``live.cond`` held: the records up to
    ``end`` never change, so the text made for ``(start, end)`` is the same for everyone."""
    end = len(live.records)
    if end <= start:
        return b"", start
    cached = _bursts.get(live)
    if cached is not None and cached[0] == (start, end):
        return cached[1], end
    records, marks = live.records[start:end], live.marks[start:end]
    totals = live.totals[start:end]
    now, last = live.now(after=start), len(records) - 1  # the chart's points of these events
    text = "".join(
        message(record, total, {"marks": mark, **(now if i == last else {})})
        for i, (record, mark, total) in enumerate(zip(records, marks, totals, strict=True))
    ).encode()  # bytes: sent as they are, not encoded again for each spectator
    _bursts[live] = ((start, end), text)
    return text, end


def event_stream(live: LiveGame, start: int, heartbeat: float, max_seconds: float):
    """The messages of a stream from seq ``start``: events, keep-alives, then the end."""
    with live.table.in_use():  # a table streamed from is never dropped meanwhile
        yield from _event_stream(live, start, heartbeat, max_seconds)


def _event_stream(live: LiveGame, start: int, heartbeat: float, max_seconds: float):
    deadline = time.monotonic() + max_seconds
    stream_opened()
    try:
        yield f"retry: {RETRY_MS}\n\n"
        yield from _events(live, start, heartbeat, deadline)
    finally:
        stream_closed()


def _events(live: LiveGame, start: int, heartbeat: float, deadline: float):
    """The stream's events from ``start`` as the table folds them, until its end."""
    next_seq = start
    while True:
        with live.cond:
            while (
                len(live.records) <= next_seq
                and not live.closed
                and not _finished(live)
                and live.table.stopped is None
            ):
                left = deadline - time.monotonic()
                if left <= 0 or not live.cond.wait(timeout=min(heartbeat, left)):
                    break
            burst, end = _burst(live, next_seq)
            over, closed, stopped = _finished(live), live.closed, live.table.stopped
        if burst:
            yield burst
            next_seq = end
            continue
        if over:
            yield f"event: end\ndata: {json.dumps({'seq': next_seq})}\n\n"
            return
        if stopped is not None:  # the store failed: say why, and end the stream
            yield f"event: stopped\ndata: {json.dumps({'seq': next_seq, 'reason': stopped})}\n\n"
            return
        if closed or time.monotonic() >= deadline:
            return
        yield ": keep-alive\n\n"


@bp.get("/games/<game_id>/stream")
def stream(game_id: str):
    """The game's events from ``from`` (or after ``Last-Event-ID``) as they happen."""
    live = live_game(game_id)
    try:  # another server's moves not folded here yet: the resume must know them
        live.table.refresh()
    except StoreUnavailable as exc:
        raise ApiError(503, "store_unavailable", str(exc)) from None
    start = _resume_from(live)
    config = current_app.config
    body = event_stream(live, start, config["SSE_HEARTBEAT"], config["SSE_MAX_SECONDS"])
    return Response(
        body,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
