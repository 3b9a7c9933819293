"""What the board marks after each event: what the last move touched, sent with its record.

The board marks the dice a move took, shared, rerolled or cached, the slots its dice left on
the mountain and the hero face it spent. A command's follow-on events (the excavation
ending, a round scored) come after its move with no player of their own: the marks stay on
the move for up to ``FOLLOW_ON`` events; an undo clears them. The marks are read from the
records' own fields (``die``, ``row``, ``col``, ``rolls``, ...), never worked out from the
rules, and sent as each record's ``marks`` so that the game page and the viewer draw them
as they are (once, on the server, for every spectator).
"""

from __future__ import annotations

from typing import Any

#: How many events a move's marks last through events no player made (the move's own included).
FOLLOW_ON = 8

Marks = dict[str, list[Any]]


def move_marks(record: dict[str, Any]) -> Marks | None:
    """The marks of one move's record, or None when it has nothing to mark on the board:
    ``{"dice": [die id], "left": [[row, col]], "hero_faces": [[seat, index]]}``."""
    dice: list[int] = []
    left: list[list[int]] = []
    hero_faces: list[list[int]] = []
    kind = record["type"]
    if kind in ("DieTaken", "SoloDieTaken"):
        dice.append(record["die"])
        left.append([record["row"], record["col"]])
    elif kind == "BeerShared":
        dice.append(record["die"])
    elif kind == "MagicSpent":
        if isinstance(record.get("die"), int):
            dice.append(record["die"])
        elif isinstance(record.get("hero_face"), int):
            hero_faces.append([record["seat"], record["hero_face"]])
        dice.extend(roll[0] for roll in record.get("rolls") or () if roll[0] not in dice)
    elif kind == "SoloMagicSpent":
        left.extend([row, col] for _die, row, col, *_ in record.get("recycled") or ())
    elif kind == "DiceCached":
        dice.extend(record.get("dice") or ())
    else:
        return None
    return {"dice": dice, "left": left, "hero_faces": hero_faces}


class LastMove:
    """Fed a game's records in order, it says what the board marks after each."""

    def __init__(self) -> None:
        self._marks: Marks | None = None
        self._since = FOLLOW_ON  # events since the move whose marks these are

    def after(self, record: dict[str, Any]) -> Marks | None:
        """The marks of the board after ``record``'s event (the next record in order)."""
        if record["type"] == "CommandUndone":
            self._marks, self._since = None, FOLLOW_ON
        elif record["player"] is not None:  # a move: its marks, or none
            self._marks, self._since = move_marks(record), 1
        else:
            self._since += 1
        return self._marks if self._since <= FOLLOW_ON else None


__all__ = ["FOLLOW_ON", "LastMove", "move_marks"]
