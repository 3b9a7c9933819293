"""The solo game's taking rules (RULES.md section 4): which top die may join the trove, how.

- magic, treasure and tool dice: always; a treasure die may be frozen on a chest
  as it is taken, for good: a tool die showing K chests holds K frozen dice.
- tunnel: a 1 always (it opens a new sequence); a value v only as the next
  number of a sequence that ends in v - 1. Each sequence holds each number once.
- hazard: only with an unassigned tool die of the matching kind (pickaxe for
  cave-ins, shield for dragons), which then neutralizes this hazard and no other.
- beer is wild: the die is turned to a chosen face of its type, and the rules
  above apply to that face (rule D9).

The assignments are canonical, since equal candidates are interchangeable (a
solo trove is never rerolled): a tunnel die extends the lowest-numbered sequence
it fits, a hazard takes the lowest-id free tool, a frozen treasure the lowest-id
chest with room. Each is recorded in the ``SoloDieTaken`` event.
"""

from __future__ import annotations

from collections.abc import Iterator

from core.dice import BEER, FACES, KIND_OF, cave_ins, chests, hazard_symbols, tunnel_value
from core.errors import RuleError
from core.modes.solo.events import SoloDieTaken
from core.mountain import SLOTS, covering, is_top
from core.projections.state import GameState
from core.rules.checks import check_die, mountain_slot
from core.words import face_words

SEAT = 0  # the solo player's seat


# -- the assignments (None when there is none) -----------------------------------


def open_sequence(state: GameState, value: int) -> int | None:
    """The sequence a tunnel ``value`` would join: a new one for a 1, else the first
    sequence ending in ``value - 1``; ``None`` if there is none."""
    if value == 1:
        return len(state.solo.sequences)
    for index, seq in enumerate(state.solo.sequences):
        if tunnel_value(state.face(seq[-1])) == value - 1:
            return index
    return None


def needed_tool(face: str) -> str:
    """The tool face that neutralizes a hazard face: pickaxe for cave-ins, shield for dragons."""
    return "pickaxe" if cave_ins(face) else "shield"


def free_tool(state: GameState, face: str) -> int | None:
    """The lowest-id tool die of the trove that can neutralize hazard ``face``, if any."""
    tool, used = needed_tool(face), {t for _, t in state.solo.neutralized}
    faces = state.faces
    free = [d for d in state.troves[SEAT] if faces[d] == tool and d not in used]
    return min(free, default=None)


def chest_room(state: GameState) -> dict[int, int]:
    """Free places for frozen treasure on each chest die of the trove."""
    room = {d: chests(state.face(d)) for d in state.troves[SEAT] if KIND_OF[d] == "tool"}
    for _, chest in state.solo.frozen:
        room[chest] -= 1
    return {d: n for d, n in room.items() if n > 0}


def free_chest(state: GameState) -> int | None:
    """The lowest-id chest die with room for one more frozen treasure, if any."""
    return min(chest_room(state), default=None)


def _assignment(state: GameState, kind: str, face: str, freeze: bool):
    """``(sequence, tool, chest)`` for taking a die of ``kind`` showing ``face``,
    or ``None`` if the taking rules refuse it."""
    if kind == "tunnel":
        seq = open_sequence(state, tunnel_value(face))
        return None if seq is None else (seq, None, None)
    if kind == "hazard":
        tool = free_tool(state, face)
        return None if tool is None else (None, tool, None)
    if kind == "treasure" and freeze:
        chest = free_chest(state)
        return None if chest is None else (None, None, chest)
    return (None, None, None)


# -- deciding a take ------------------------------------------------------------


def take_event(state: GameState, die: object, as_face: object, freeze: object) -> SoloDieTaken:
    """The event of taking ``die`` (turned to ``as_face`` if it shows beer), or a RuleError."""
    die = check_die(die)
    k = mountain_slot(state, die)
    if not is_top(state.mountain, k):
        above = " and ".join(f"die {d}" for d in covering(state.mountain, k))
        raise RuleError(
            "die_covered",
            f"die {die} is covered by {above}; in the solo game only top dice can be taken",
        )
    kind, shown = KIND_OF[die], state.face(die)
    face = _chosen_face(state, die, as_face)
    if type(freeze) is not bool:  # 0 or 1 would be logged as ints the reader refuses
        raise RuleError("bad_freeze", "freeze is yes or no")
    if freeze and kind != "treasure":
        raise RuleError(
            "freeze_not_treasure", f"only treasure dice can be frozen; die {die} is a {kind} die"
        )
    assigned = _assignment(state, kind, face, freeze)
    if assigned is None:
        raise _refusal(state, die, kind, face)
    row, col = SLOTS[k]
    return SoloDieTaken(die, face, row, col, shown == BEER, *assigned)


def wild_faces(kind: str) -> tuple[str, ...]:
    """The faces a wild beer die of ``kind`` may be turned to, each once, in table order."""
    return tuple(dict.fromkeys(f for f in FACES[kind] if f != BEER))


def _chosen_face(state: GameState, die: int, as_face: object) -> str:
    kind, shown = KIND_OF[die], state.face(die)
    if shown != BEER:
        if as_face is not None:
            raise RuleError(
                "not_wild",
                f"die {die} shows {face_words(shown)}; only a die showing beer is wild "
                "and can be turned to another face",
            )
        return shown
    choices = wild_faces(kind)
    if as_face is None or as_face not in choices:
        takeable = tuple(dict.fromkeys(f for f, _ in take_options(state, die)))
        raise _no_face(die, kind, as_face, takeable)
    return as_face


def _no_face(die: int, kind: str, as_face: object, takeable: tuple[str | None, ...]) -> RuleError:
    """A wild beer taken without a face, or with one its die does not have: the faces it
    may be taken as now, in words, and the typed form (``take 21 as 3``)."""
    if as_face is None:
        code, lead = "choose_face", f"die {die} shows beer, which is wild: choose its face"
    else:
        code, lead = "bad_face", f"a {kind} die cannot be turned to {as_face!r}"
    if not takeable:  # rule D9: a wild hazard still needs its tool
        return RuleError(
            code,
            f"{lead}; but none of its faces can be taken now: a cave-in needs an unassigned "
            "pickaxe and a dragon an unassigned shield in your trove",
        )
    words = [face_words(f) for f in takeable]
    listed = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
    return RuleError(code, f"{lead}, e.g. 'take {die} as {words[0]}' (it can be taken as {listed})")


def _refusal(state: GameState, die: int, kind: str, face: str) -> RuleError:
    """Why the taking rules refuse this face (for a wild beer, the chosen face: rule D9)."""
    wild = f"die {die} as {face_words(face)}: " if state.faces[die] == BEER else ""
    if kind == "tunnel":
        return RuleError("no_sequence", wild + _sequence_reason(state, tunnel_value(face)))
    if kind == "hazard":
        return RuleError("no_free_tool", wild + _tool_reason(state, face))
    have = sum(chests(state.face(d)) for d in state.troves[SEAT] if KIND_OF[d] == "tool")
    detail = "you have no chest" if not have else f"your {have} chest places are all taken"
    return RuleError("no_free_chest", f"no free chest to freeze die {die} on; {detail}")


def _sequence_reason(state: GameState, value: int) -> str:
    needed = ", ".join(str(v) for v in range(1, value))
    text = f"a {value} needs a sequence {needed} to extend; you have none"
    if state.solo.sequences:
        yours = "; ".join(
            "-".join(str(tunnel_value(state.face(d))) for d in seq) for seq in state.solo.sequences
        )
        text += f" (your sequences: {yours})"
    return text


def _tool_reason(state: GameState, face: str) -> str:
    count = hazard_symbols(face)
    what = "cave-in" if cave_ins(face) else "dragon"
    tool = needed_tool(face)
    text = f"a {count}-{what} hazard needs an unassigned {tool} in your trove"
    busy = [(h, t) for h, t in state.solo.neutralized if state.faces[t] == tool]
    if busy:
        taken = ", ".join(f"die {t} neutralizes die {h}" for h, t in busy)
        return f"{text}; every {tool} is assigned ({taken})"
    return f"{text}; you have no {tool}"


# -- what can be taken ----------------------------------------------------------


def take_options(state: GameState, die: int) -> Iterator[tuple[str | None, bool]]:
    """Every legal ``(as_face, freeze)`` for taking top die ``die``, in a stable order."""
    kind, shown = KIND_OF[die], state.face(die)
    faces = wild_faces(kind) if shown == BEER else (shown,)
    can_freeze = kind == "treasure" and free_chest(state) is not None
    for face in faces:
        as_face = face if shown == BEER else None
        for freeze in (False, True) if can_freeze else (False,):
            if _assignment(state, kind, face, freeze) is not None:
                yield as_face, freeze


def can_take(state: GameState, die: int) -> bool:
    """True if top die ``die`` can be taken in some way."""
    return next(take_options(state, die), None) is not None
