"""What undo means at a table: a person takes back their own last move, with the bots'
replies after it, only while no other person has moved since, and never past dice
that have been shown.

At a table with bots, "undo" never means the last command (usually a bot's
reply): it means *my* move, and everything the bots did because of it. Another
person's move is theirs, so once one stands after mine, my move is no longer
mine alone to take back. The terminal and the web both ask this one policy;
its refusals carry stable codes:

* ``nothing_to_undo``: the seat has no move standing in the game;
* ``undo_blocked``: another person has moved since the seat's last move, or the
  table has decided something since (a seat handed to a bot, or given back);
* ``dice_shown``: what would be undone showed dice (a reroll, a beer's reroll, the
  replenish's reroll, a refill, a round's new mountain). The dice come from one
  stream per position, so one look tells what any die would roll there: taking the
  move back would let a player fish for luck. Only a practice game (its one person
  asked for it, and its log says so: ``PracticeChosen``) undoes past them.

(The game itself, ``core.game.Game.undo``, undoes one command at a time for
tools and tests; a table only ever undoes through this policy.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from core.commands import Command, NewGame
from core.errors import RuleError

#: What a refusal for shown dice says, and what it adds where a practice game would allow it.
DICE_SHOWN = (
    "the dice have rolled since your last move began (a reroll, a beer, the replenish, "
    "a refill or a new mountain): what they showed is never taken back"
)
PRACTICE_HINT = "; only a practice game undoes past them"


def undo_depth(
    commands: Sequence[Command],
    seat: int,
    is_person: Callable[[int], bool],
    names: Sequence[str] = (),
    *,
    shown: Callable[[int], bool] | None = None,
    practice: bool = False,
    alone: bool = False,
) -> int:
    """How many of the effective history's last ``commands`` an undo for ``seat`` takes
    back: its last move and every command after it. RuleError if it may not (the
    refusal names the person who moved since, from ``names``). ``shown(k)`` says if the
    k-th command from the end showed dice: undo goes past none unless ``practice``
    (``alone``: one person plays, so the refusal says a practice game would allow it)."""
    steps = _depth(commands, seat, is_person, names)
    if shown is not None and not practice and any(shown(k) for k in range(1, steps + 1)):
        raise RuleError("dice_shown", DICE_SHOWN + (PRACTICE_HINT if alone else ""))
    return steps


def _depth(
    commands: Sequence[Command],
    seat: int,
    is_person: Callable[[int], bool],
    names: Sequence[str],
) -> int:
    for steps, command in enumerate(reversed(commands), start=1):
        if isinstance(command, NewGame):
            break  # the game's start: nothing of the seat's stands before it
        if command.BY_TABLE:
            raise RuleError(
                "undo_blocked",
                "the table has changed since your last move (a seat handed to a bot or given "
                "back): what it decided is not undone",
            )
        other = getattr(command, "seat", None)
        if other == seat:
            return steps
        if other is not None and is_person(other):
            who = names[other] if 0 <= other < len(names) else "another person"
            raise RuleError(
                "undo_blocked",
                f"{who} has moved since your last move; "
                "you can only undo while no other person has played",
            )
    raise RuleError("nothing_to_undo", "you have no move to undo")


def can_undo(
    commands: Sequence[Command],
    seat: int,
    is_person: Callable[[int], bool],
    *,
    shown: Callable[[int], bool] | None = None,
    practice: bool = False,
) -> bool:
    """True if an undo for ``seat`` would be accepted now (for showing the control)."""
    try:
        undo_depth(commands, seat, is_person, shown=shown, practice=practice)
    except RuleError:
        return False
    return True


__all__ = ["DICE_SHOWN", "PRACTICE_HINT", "can_undo", "undo_depth"]
