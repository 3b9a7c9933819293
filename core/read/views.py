"""Read models for tools and viewers: a state as JSON-ready data or as a readable board,
and a log's events one by one with the states around them.

``state_view(state, seq)`` is the shape ``dice-miner replay --json`` prints and
the web viewer reads; ``board_text(state)`` is the board ``replay`` draws and
the golden dumps record; ``walk(batches)`` is the event stream ``log show``,
``log diff`` and the dumps are made from. All are pure functions of projected state.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from typing import Any

from core.commands import NewGame, Undo
from core.dice import KIND_OF
from core.errors import DiceMinerError
from core.events.base import Event
from core.events.codec import Batch, event_to_dict
from core.events.game import GameStarted
from core.modes.multiplayer.scoring import Breakdown, score_round
from core.modes.solo.scoring import SoloScore, score_solo, solo_score
from core.mountain import SLOT_COUNT, SLOTS, is_top
from core.projections.apply import apply
from core.projections.state import EXCAVATION, GameState
from core.projections.steps import Step
from core.projections.timeline import Frame, Timeline, push, replay
from core.read.text import describe, started_text

#: Keys of ``event_record`` that an event field of the same name must not overwrite.
RECORD_KEYS = ("seq", "type", "version", "player", "text", "command", "undone")


# -- the state as data ---------------------------------------------------------------


def die_view(state: GameState, die: int, *, in_bag: bool = False) -> dict[str, Any]:
    """One die: ``{"id", "kind", "face"}``, plus flags that are true only when set."""
    view: dict[str, Any] = {
        "id": die,
        "kind": KIND_OF[die],
        "face": None if in_bag else state.faces[die],
    }
    if die in state.spent:
        view["spent"] = True  # a magic die spent this round
    if any(die in cache for cache in state.cached):
        view["cached"] = True
    if state.mode == "solo":
        if state.solo.is_frozen(die):
            view["frozen"] = True
        if state.solo.is_neutralized(die):
            view["neutralized"] = True
    return view


def player_view(state: GameState, seat: int) -> dict[str, Any]:
    """One player: name, hero, trove, the scores of the rounds scored so far, total."""
    rounds = state.round_scores[seat]
    return {
        "seat": seat,
        "name": state.names[seat],
        "hero": state.heroes[seat],
        "hero_faces": list(state.hero_faces(seat)),
        "trove": [die_view(state, d) for d in state.troves[seat]],
        "round_scores": [sum(scores) for scores in rounds],
        "breakdowns": [list(scores) for scores in rounds],
        "tiebreak_scores": [row[seat] for row in state.tiebreak_scores],
        "total": sum(sum(scores) for scores in rounds),
    }


def score_so_far(state: GameState) -> tuple[Breakdown | None, ...]:
    """Each seat's breakdown if the round in play were scored now, as the rules would.

    In a tie-break only the tied seats score (None for the others) and only they
    are compared for the gem doubling (``core.modes.multiplayer.flow``), so both frontends show
    what the round will really give; empty before the troves are rolled.
    """
    if not state.troves:
        return ()
    troves = [state.trove_faces(s) for s in range(state.players)]
    compared = state.contenders if state.tiebreak else None
    scores = score_round(troves, compared)
    return tuple(b if compared is None or s in compared else None for s, b in enumerate(scores))


def solo_result(state: GameState) -> SoloScore:
    """A solo game's score and rating as the trove stands (0 before the trove is rolled)."""
    if not state.troves:
        return score_solo({}, (), (), ())
    return solo_score(state)


def solo_view(state: GameState) -> dict[str, Any]:
    """A solo game's ``"solo"`` block: its score and rating so far, the refills left."""
    result = solo_result(state)
    return {"score": result.score, "rating": result.rating, "refills_left": state.solo.refills_left}


def state_view(state: GameState, seq: int) -> dict[str, Any]:
    """The state after the first ``seq`` events, as plain data (the ``replay --json`` shape).

    A solo game's state adds ``"solo"`` (``solo_view``); its trove dice carry
    ``"frozen"`` and ``"neutralized"`` flags (``die_view``).
    """
    to_act = state.to_act()
    winners = [state.names[s] for s in state.winners]
    view = {
        "seq": seq,
        "mode": state.mode,
        "round": state.round,
        "phase": state.phase,
        "to_act": None if to_act is None else state.names[to_act],
        "players": [player_view(state, s) for s in range(state.players)],
        "mountain": [
            {"row": SLOTS[k][0], "col": SLOTS[k][1], "die": die_view(state, die)}
            for k, die in enumerate(state.mountain)
            if die is not None
        ],
        "bag": [die_view(state, d, in_bag=True) for d in state.bag],
        "out_of_game": [die_view(state, d) for d in state.solo.out_of_game],
        "winner": winners[0] if len(winners) == 1 else None,
        "winners": winners,
    }
    if state.mode == "solo":
        view["solo"] = solo_view(state)
    return view


# -- the state as text ---------------------------------------------------------------

_CELL = 11  # "17:dragon4*" at most


def _die_text(state: GameState, die: int) -> str:
    text = f"{die}:{state.faces[die]}"
    if die in state.spent:
        text += "(spent)"
    if any(die in cache for cache in state.cached):
        text += "(cached)"
    if state.mode == "solo" and state.solo.is_frozen(die):
        text += "(frozen)"
    if state.mode == "solo" and state.solo.is_neutralized(die):
        text += "(neutralized)"
    return text


def _status(state: GameState) -> str:
    if state.mode == "solo":
        return _solo_status(state)
    if state.is_over:
        names = " and ".join(state.names[s] for s in state.winners) or "nobody"
        return f"game over: {names} {'wins' if len(state.winners) == 1 else 'share the win'}"
    seat = state.to_act()
    text = f"round {state.round}, {state.phase}"
    if state.tiebreak:
        text += f" (tie-break {state.tiebreak})"
    if seat is not None:
        text += f", {state.names[seat]} to act"
    if state.phase == EXCAVATION and state.beer_shared:
        picks = "1 pick" if state.picks_left == 1 else f"{state.picks_left} picks"
        text += f" ({picks} left after sharing a beer)"
    return text


def _solo_status(state: GameState) -> str:
    if state.is_over:
        result = solo_result(state)
        return f"game over: {state.names[0]} scored {result.score} ({result.rating})"
    seat = state.to_act()
    return "solo game" + (f", {state.names[seat]} to act" if seat is not None else "")


def _solo_lines(state: GameState) -> list[str]:
    """The solo player's score, refills and tunnel sequences."""
    name, result = state.names[0], solo_result(state)
    b = result.breakdown
    faces = state.faces
    sequences = "; ".join(
        "-".join(str(faces[d]) for d in seq) + f" (dice {' '.join(str(d) for d in seq)})"
        for seq in state.solo.sequences
    )
    return [
        f"{name}: score {result.score} ({result.rating}): hazards {b.hazards}, treasure "
        f"{b.treasure}, frozen {b.frozen}, tunnels {b.tunnels}; "
        f"refills left {state.solo.refills_left}",
        f"{name} trove: {_trove_text(state, 0) if state.troves else 'empty'}",
        f"{name} sequences: {sequences or 'none'}",
    ]


def _mountain_lines(state: GameState) -> list[str]:
    lines = []
    for row in range(4, -1, -1):
        cells = []
        for k in range(SLOT_COUNT):
            if SLOTS[k][0] != row:
                continue
            die = state.mountain[k]
            if die is None:
                cells.append(".".center(_CELL))
            else:
                mark = "*" if is_top(state.mountain, k) else ""
                cells.append(f"{die}:{state.faces[die]}{mark}".center(_CELL))
        lines.append(f"row {row}: " + " " * (row * (_CELL + 1) // 2) + " ".join(cells).rstrip())
    return lines


def _trove_text(state: GameState, seat: int) -> str:
    groups: dict[str, list[str]] = {}
    for die in state.troves[seat]:
        groups.setdefault(KIND_OF[die], []).append(_die_text(state, die))
    return " | ".join(f"{kind} {' '.join(dice)}" for kind, dice in groups.items()) or "empty"


def board_lines(state: GameState) -> list[str]:
    """The board as labelled lines; a game always has the same labels in the same order."""
    lines = [f"game: {_status(state)}"]
    lines += _mountain_lines(state)
    extra = f", out of the game {len(state.solo.out_of_game)}" if state.mode == "solo" else ""
    lines.append(f"bag: {len(state.bag)} dice{extra}")
    if state.mode == "solo":
        return lines + _solo_lines(state)
    for seat, name in enumerate(state.names):
        hero = state.heroes[seat]
        faces = ", ".join(state.hero_faces(seat))
        rounds = ", ".join(str(sum(s)) for s in state.round_scores[seat]) or "none"
        total = sum(sum(s) for s in state.round_scores[seat])
        head = f"{name}: {hero or 'no hero'}" + (f" ({faces})" if faces else "")
        breaks = "".join(f"; tie-break {row[seat]}" for row in state.tiebreak_scores)
        lines.append(f"{head}; rounds {rounds}; total {total}{breaks}")
        lines.append(f"{name} trove: {_trove_text(state, seat)}")
    return lines


def board_text(state: GameState) -> str:
    """The state drawn as a readable board (``*`` marks the top dice of the mountain)."""
    return "\n".join(board_lines(state)) + "\n"


# -- a log's events, one by one ------------------------------------------------------


class ReplayError(DiceMinerError):
    """A log whose checksums are good but whose events cannot be folded into a game."""

    code = "bad_replay"


def replay_batches(batches: Iterable[Batch], upto: int | None = None) -> Timeline:
    """``core.projections.timeline.replay``, with a failure reported as a ReplayError."""
    try:
        return replay(batches, upto)
    except Exception as exc:
        raise ReplayError(f"the log's events cannot be replayed: {exc}") from exc


def walk(batches: Iterable[Batch]) -> Iterator[Step]:
    """Every event in log order, with the effective state before and after it.

    An undo's event leads back to the state before the undone command; the
    undone command's events are flagged ``undone``.
    """
    batches = list(batches)
    timeline = replay_batches(batches)
    standing: set[int] = set()
    frame: Frame | None = timeline.top
    while frame is not None:
        standing.add(frame.batch_seq)
        frame = frame.below
    yield from StepReader(standing).read(batches)


class StepReader:
    """``walk`` for a log still growing: each batch read gives its events' steps, with
    the effective state before and after each, from where the last read stopped.

    Whatever shows events as they are logged (the terminal's event lines, the web's
    live games, the demo) reads through one, so every event is worded from the state
    just before it.
    With ``standing`` (the batch seqs that stand at the log's end, known only for a
    finished read) the events of the other commands are flagged ``undone``.
    """

    def __init__(self, standing: Collection[int] | None = None) -> None:
        self.timeline = Timeline()  # the effective history as far as it has read
        self._standing = standing

    def read(self, batches: Iterable[Batch]) -> Iterator[Step]:
        """The steps of ``batches``, the log's next ones, in order."""
        for batch in batches:
            if isinstance(batch.command, Undo):
                before = self.timeline.state
                self.timeline = self.timeline.apply_batch(batch)
                for i, event in enumerate(batch.events):
                    yield Step(batch.seq + i, event, batch, before, self.timeline.state, False)
                continue
            state = self.timeline.state
            undone = self._standing is not None and batch.seq not in self._standing
            for i, event in enumerate(batch.events):
                before, state = state, _apply(state, event, batch.seq + i)
                yield Step(batch.seq + i, event, batch, before, state, undone)
            self.timeline = push(self.timeline, batch, state)


def _apply(state: GameState, event: Event, seq: int) -> GameState:
    try:
        return apply(state, event)
    except Exception as exc:  # a log whose events do not fit together (forged, or a bug)
        raise ReplayError(f"event {seq} ({type(event).TAG}) cannot be replayed: {exc}") from exc


def _player(step: Step) -> str | None:
    seat = getattr(step.event, "seat", None)
    if seat is None and step.seq == step.batch.seq:  # a command's own first event: its player
        seat = getattr(step.batch.command, "seat", None)  # (who undid, who refilled, ...)
    state = step.after
    if isinstance(seat, int) and 0 <= seat < state.players:
        return state.names[seat]
    return None


def event_text(step: Step) -> str:
    """What the event did, in words (from the state before it). The first line of a game
    whose dice come from a secret seed says so (its command commits to it; the state
    learns it only at the next event), so it never names the game's seed as the dice's."""
    if isinstance(step.event, GameStarted) and isinstance(step.batch.command, NewGame):
        return started_text(step.event, bool(step.batch.command.commitment))
    return describe(step.before, step.event)


def event_record(step: Step) -> dict[str, Any]:
    """The event as one JSON-ready object: seq, type, player, text, then its own fields.

    A field named like one of ``RECORD_KEYS`` (CommandUndone's ``seq``) is written
    with an ``event_`` prefix, so it never hides the record's own key.
    """
    fields = event_to_dict(step.event)
    version = fields.pop("v")
    fields.pop("t")
    record: dict[str, Any] = {
        "seq": step.seq,
        "type": type(step.event).TAG,
        "version": version,
        "player": _player(step),
        "text": event_text(step),
        "command": step.batch.command.text(),
        "undone": step.undone,
    }
    for key, value in fields.items():
        record[f"event_{key}" if key in RECORD_KEYS else key] = value
    return record


def event_line(step: Step, *, player_width: int = 12) -> str:
    """The event as one line: seq, type, player (padded to ``player_width``) and what changed."""
    mark = "  (undone)" if step.undone else ""
    tag = type(step.event).TAG
    player = _player(step) or "-"
    return f"{step.seq:5d}  {tag:<18} {player:<{player_width}} {event_text(step)}{mark}"


__all__ = [
    "RECORD_KEYS",
    "ReplayError",
    "Step",
    "StepReader",
    "board_lines",
    "board_text",
    "die_view",
    "event_line",
    "event_record",
    "event_text",
    "player_view",
    "replay_batches",
    "score_so_far",
    "solo_result",
    "solo_view",
    "state_view",
    "walk",
]
