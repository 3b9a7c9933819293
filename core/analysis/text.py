"""The analysis in words: per seat, how well it played and its biggest mistakes.

Reads only the report document (``report.report``), so a kept analysis reads
the same as a fresh one. Moves are worded as the board words them
(``core.analysis.words``).
"""

from __future__ import annotations

from typing import Any

from core.modes.solo.scoring import rating


def analysis_text(document: dict[str, Any], name: str) -> str:
    """The whole analysis of the log called ``name``, as lines of text."""
    log, solo = document["log"], document["log"]["mode"] == "solo"
    decisions = document["decisions"]
    game = "a solo game" if solo else f"a {len(log['players'])}-player game"
    lines = [
        f"{name}: {game}, {log['events']} events, {len(decisions)} decisions "
        f"({document['options']['samples']} futures each; analysis v{document['analysis']})",
        _result(document),
        _marks_line(document),
    ]
    for seat in document["summary"]:
        lines.append("")
        lines += _seat(document, seat, solo)
    undone = document["undone"]
    if undone:
        moves = sum(not u["undo"] for u in undone)
        lines.append("")
        lines.append(
            f"{moves} undone command{'s' if moves != 1 else ''} (and the undos) are not "
            "decisions of the final game and were not valued."
        )
    return "\n".join(lines)


def _result(document: dict[str, Any]) -> str:
    result, names = document["result"], document["log"]["players"]
    if document["log"]["mode"] == "solo":
        score = result["score"]
        state = "final score" if result["over"] else "score so far (the log stops before the end)"
        return f"{names[0]}: {state} {score} ({rating(score)})"
    totals = ", ".join(f"{n} {t}" for n, t in zip(names, result["totals"], strict=True))
    if not result["over"]:
        return f"Totals so far: {totals} (the log stops before the game's end)"
    winners = result["winners"]
    verb = "won" if len(winners) == 1 else "shared the win"
    tied = result["totals"].count(max(result["totals"])) > 1
    after = " after a tie-break" if tied else ""
    return f"{' and '.join(winners)} {verb}{after}. Totals: {totals}."


def _marks_line(document: dict[str, Any]) -> str:
    unit = _unit(document)
    marks = ", ".join(f"{name} {value:g}" for name, value in document["thresholds"].items())
    return f"Marks by the {unit} a move lost against the best move found: {marks} or more."


def _unit(document: dict[str, Any]) -> str:
    solo = document["log"]["mode"] == "solo"
    return "points of expected final score" if solo else "points of win chance"


def _figure(value: float, solo: bool) -> str:
    return f"{value:.1f}" if solo else f"{value:.1f}%"


def _seat(document: dict[str, Any], seat: dict[str, Any], solo: bool) -> list[str]:
    counts = ", ".join(
        _count(seat[key], one, key)
        for key, one in (
            ("inaccuracies", "inaccuracy"),
            ("mistakes", "mistake"),
            ("blunders", "blunder"),
        )
    )
    accuracy = "-" if seat["accuracy"] is None else f"{seat['accuracy']:.1f}"
    lines = [
        f"{seat['player']} (seat {seat['seat']}): accuracy {accuracy} over {seat['choices']} "
        f"choices; {counts}",
        "  " + _trend(document, seat["seat"], solo),
    ]
    if not seat["choices"]:
        lines.append("  no decision with a choice yet")
        return lines
    if not seat["biggest"]:
        lines.append("  no move lost anything against the best move found")
        return lines
    lines.append("  biggest losses:")
    for move in seat["biggest"]:
        mark = f"{_article(move['mark'])} {move['mark']}, " if move["mark"] else ""
        when = f"event {move['seq']}" if solo else f"event {move['seq']}, round {move['round']}"
        phase = "" if solo else f" {move['phase']}"
        lines.append(f"    {when}{phase}: {mark}{move['loss']:.1f} {_unit(document)} lost")
        lines.append(
            f"      played: {move['played']['words']} ({_figure(move['played']['value'], solo)})"
        )
        lines.append(
            f"      best:   {move['best']['words']} ({_figure(move['best']['value'], solo)})"
        )
    return lines


def _article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _trend(document: dict[str, Any], seat: int, solo: bool) -> str:
    """The seat's chances at the start of each round and at the end (solo: expected score)."""
    key = "expected_score" if solo else "win_chance"
    events = document["events"]
    points = [] if not solo else [f"{_figure(events[0][key], solo)} at the start"]
    for event in events:
        if event["type"] == "RoundBegan":
            value = event[key] if solo else event[key][seat]
            points.append(f"{_figure(value, solo)} as round {len(points) + 1} began")
    last = events[-1][key] if solo else events[-1][key][seat]
    points.append(f"{_figure(last, solo)} at the end")
    what = "expected final score" if solo else "win chance"
    return f"{what}: " + ", ".join(points)


__all__ = ["analysis_text"]
