"""Solo games that reach a known situation: seed 5's lines up to a wild tunnel beer and on
to its end (both frontends replay them), and seed 26's spends that leave a forced one."""

from __future__ import annotations

from core.commands import parse_command
from core.game import Game

SEED = 5
#: Seed 5 up to a wild tunnel beer (die 21) that may open sequence 3 or extend 2 or 1.
TO_THE_BEER = ("spend 53 on 24", "take 22", "take 0", "take 12")


#: Then to the last refill, after which nothing more can be done (the game ends itself).
TO_THE_END = (
    "take 21 as 3",
    "take 20",
    "take 55",
    "spend 54 on 42 38 26",
    "take 3",
    "take 28",
    "take 32",
    "spend 55 on 39 33",
    "take 47",
    "take 36",
    "take 5",
    "refill",
)


def played(*lines: str, practice: bool = False) -> Game:
    # a practice game: its one person may undo even what the dice have shown
    game = Game.new(["You"], SEED, mode="solo", practice="You" if practice else "")
    for line in lines:
        game.issue(parse_command(line, 0))
    return game


#: Solo seed 26 after these two spends: die 52 (1 magic) can recycle only die 32 (rule D6).
FORCED_SOLO = ("spend 53 on 27 55", "spend 54 on 35 45 3")
