"""The analysis as data: what ``dice-miner analyse --json`` prints and the cache keeps.

``tasks(history)`` lists the positions to weigh (every decision, and the last
position of a log that stops before the game's end); ``report`` turns their
judgements into one JSON-ready document. Numbers are rounded (win chances and
values to 0.01, accuracies to 0.1) so the document reads well and is the same
bytes for the same log and options.

A position's chances are those of the best move found there, as the mover
would play it; the chances after an event are those of the position its
command left (a command's events happen together: no one sees between them).
Once the game is over they are exact: 100 split among the winners (solo: the
final score).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.analysis import marks
from core.analysis.history import Decision, History
from core.analysis.judge import Options, Task
from core.analysis.words import move_words
from core.bots.valuation.verdict import Judgement, Valued
from core.commands import Undo
from core.events.codec import Batch
from core.modes.solo.scoring import solo_score
from core.projections.state import GameState
from core.projections.statehash import state_hash
from core.read.views import walk

#: Changes whenever the values or the document's shape change: older caches are recomputed.
#: 2: solo decisions weigh the expert's ten candidates (version 1 weighed six).
#: 3: a table's candidates are ranked by the expert's merit (``core.bots.valuation.blend``:
#: the win chance with ``montecarlo``'s opinion added); values and marks stay win chances.
#: 4: both opinions correct the later rounds by what games taught
#: (``core.bots.valuation.later``), as the expert does.
#: 5: that correction's second generation, learned from the expert's own games.
ANALYSIS_VERSION = 5
#: The biggest losses named per seat.
BIGGEST = 3


def tasks(hist: History) -> list[Task]:
    """The positions to weigh: each decision's, then an unfinished log's last one."""
    found = [Task(d.before, d.command, d.depth) for d in hist.decisions]
    final = hist.final
    if not final.is_over and final.to_act() is not None:
        last = hist.decisions[-1] if hist.decisions else hist.opening
        found.append(Task(final, None, last.depth + 1))
    return found


def report(
    hist: History,
    batches: Sequence[Batch],
    judgements: Sequence[Judgement],
    options: Options,
    log_sha256: str,
) -> dict[str, Any]:
    """The whole analysis as one JSON-ready document."""
    final = hist.final
    mode = final.mode
    decisions = [_decision(d, j, mode) for d, j in zip(hist.decisions, judgements, strict=False)]
    positions = [_position(j, mode) for j in judgements]  # after the opening, each decision
    if len(positions) == len(hist.decisions):  # no one is to act: the game is over
        positions.append(_exact(final))
    return {
        "analysis": ANALYSIS_VERSION,
        "log": {
            "sha256": log_sha256,
            "events": batches[-1].end,
            "game_id": final.game_id,
            "seed": final.seed,
            "mode": mode,
            "players": list(final.names),
        },
        "options": {"samples": options.samples, "solo_candidates": options.solo_candidates},
        "unit": "expected final score (points)" if mode == "solo" else "win chance (percent)",
        "thresholds": marks.thresholds(mode),
        "result": _result(final),
        "summary": [_summary(seat, final, decisions) for seat in range(final.players)],
        "decisions": decisions,
        "events": _events(hist, batches, positions, mode),
        "undone": [
            {"seq": u.seq, "end": u.end, "command": u.command.text(), "undo": u.undo}
            for u in hist.undone
        ],
    }


def _figure(value: float, mode: str) -> float:
    """A value as the report writes it: percent of win chance, or score points."""
    return round(value if mode == "solo" else 100 * value, 2)


def _move(state: GameState, v: Valued, mode: str) -> dict[str, Any]:
    found = {
        "command": v.command.text(),
        "words": move_words(state, v.command),
        "value": _figure(v.value, mode),
    }
    if mode != "solo":
        found["lead"] = round(v.lead, 2)
    return found


def _decision(d: Decision, j: Judgement, mode: str) -> dict[str, Any]:
    state = d.before
    seat = state.to_act()
    assert seat is not None, "a decision is a command of the seat to act (not the table's)"
    assert j.played is not None, "a decision's judgement is given the move made"
    played, best = j.candidates[j.played], j.best
    loss = max(0.0, _figure(best.value, mode) - _figure(played.value, mode))
    forced = j.legal <= 1
    return {
        "seq": d.seq,
        "depth": d.depth,
        "seat": seat,
        "player": state.names[seat],
        "round": state.round,
        "phase": state.phase,
        "position": state_hash(state),
        "legal": j.legal,
        "forced": forced,
        "played": {**_move(state, played, mode), "rank": j.rank()},
        "best": _move(state, best, mode),
        "loss": round(loss, 2),
        "mark": None if forced else marks.mark(loss, mode),
        "accuracy": None if forced else round(marks.accuracy(loss, mode), 1),
        "candidates": [_move(state, v, mode) for v in j.candidates],
    }


def _position(j: Judgement, mode: str) -> list[float]:
    """Every seat's chances (solo: the expected score) where the best move is played."""
    return [_figure(c, mode) for c in j.best.chances]


def _exact(state: GameState) -> list[float]:
    """The finished game's outcome: 100 split among the winners, or the solo score."""
    if state.mode == "solo":
        return [float(solo_score(state).score)]
    share = round(100 / len(state.winners), 2)
    return [share if s in state.winners else 0.0 for s in range(state.players)]


def _result(state: GameState) -> dict[str, Any]:
    if state.mode == "solo":
        return {"over": state.is_over, "score": solo_score(state).score}
    return {
        "over": state.is_over,
        "totals": list(state.totals()),
        "winners": [state.names[s] for s in state.winners],
    }


def _events(hist: History, batches, positions: list[list[float]], mode: str) -> list[dict]:
    """Each effective event: its seq, type, the state's hash after it, the chances then."""
    index = {hist.opening.seq: 0}
    index.update({d.seq: k + 1 for k, d in enumerate(hist.decisions)})
    key = "expected_score" if mode == "solo" else "win_chance"
    found, at = [], 0
    for step in walk(batches):
        if step.undone or isinstance(step.batch.command, Undo):
            continue
        at = index.get(step.batch.seq, at)  # a table's fact leaves the position as it was
        chances = positions[at]
        found.append(
            {
                "seq": step.seq,
                "type": type(step.event).TAG,
                "hash": state_hash(step.after),
                key: chances[0] if mode == "solo" else chances,
            }
        )
    return found


def _summary(seat: int, final: GameState, decisions: list[dict]) -> dict[str, Any]:
    mine = [d for d in decisions if d["seat"] == seat]
    chosen = [d for d in mine if not d["forced"]]
    counted = {name: sum(d["mark"] == name for d in chosen) for name in _MARK_KEYS}
    biggest = sorted((d for d in chosen if d["loss"] > 0), key=lambda d: (-d["loss"], d["seq"]))
    return {
        "seat": seat,
        "player": final.names[seat],
        "decisions": len(mine),
        "choices": len(chosen),
        "accuracy": round(sum(d["accuracy"] for d in chosen) / len(chosen), 1) if chosen else None,
        "loss": round(sum(d["loss"] for d in chosen), 2),
        **{_MARK_KEYS[name]: count for name, count in counted.items()},
        "biggest": [
            {
                "seq": d["seq"],
                "round": d["round"],
                "phase": d["phase"],
                "loss": d["loss"],
                "mark": d["mark"],
                "played": d["played"],
                "best": d["best"],
            }
            for d in biggest[:BIGGEST]
        ],
    }


_MARK_KEYS = {
    marks.INACCURACY: "inaccuracies",
    marks.MISTAKE: "mistakes",
    marks.BLUNDER: "blunders",
}


__all__ = ["ANALYSIS_VERSION", "BIGGEST", "report", "tasks"]
