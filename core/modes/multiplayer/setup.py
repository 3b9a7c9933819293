"""Setting up a multiplayer game (the NewGame command's events): each player rolls a tunnel
die, highest starts (beer beats 5), and only the players tied for highest roll again
(rule D4). Heroes are then chosen from the first player's right going counter-clockwise,
so the first player chooses last; or dealt at random. The mountain is filled once every
hero is set (``start_multiplayer``, the mode's ``MODE.start``)."""

from __future__ import annotations

from core.commands import NewGame
from core.dice import DICE_SET, FACES, HERO_NAMES, HEROES
from core.modes.multiplayer import events as ev
from core.modes.multiplayer.flow import advance
from core.modes.table.rules import emit_table_facts
from core.rules.emitter import Emitter
from core.rules.setup import RULES_VERSION

#: The order of tunnel faces in the first-player roll: beer beats 5.
_ROLL_RANK = {face: rank for rank, face in enumerate(FACES["tunnel"])}


def start_multiplayer(out: Emitter, cmd: NewGame) -> None:
    """The roll-off for first player, the hero deal or choice, and the first filling."""
    out.emit(
        ev.GameStarted(
            cmd.game_id, cmd.seed, cmd.mode, cmd.players, DICE_SET, RULES_VERSION, cmd.hero_deal
        )
    )
    emit_table_facts(out, cmd)
    n = len(cmd.players)
    rolling = tuple(range(n))
    while True:  # rule D4: only the players tied for highest roll again
        rolls = tuple((seat, out.rng.roll(FACES["tunnel"])) for seat in rolling)
        out.emit(ev.FirstPlayerRolled(rolls))
        best = max(_ROLL_RANK[f] for _, f in rolls)
        rolling = tuple(seat for seat, f in rolls if _ROLL_RANK[f] == best)
        if len(rolling) == 1:
            break
    first = rolling[0]
    order = tuple((first - 1 - k) % n for k in range(n))  # counter-clockwise, first chooses last
    out.emit(ev.FirstPlayerChosen(first, order))
    if cmd.hero_deal == "random":
        pool = list(HERO_NAMES)
        dealt = tuple(pool.pop(out.rng.below(len(pool))) for _ in range(n))
        out.emit(ev.HeroesDealt(dealt, tuple(HEROES[hero] for hero in dealt)))
    advance(out)
