"""The golden games: how each is recorded, and the dump each log is checked against.

A game is recorded by bots from a fixed seed (``core.bots.play``), so the same
spec always gives the same log. A spec may undo: after the bots have issued
``at`` commands, ``count`` commands are undone and the next command is chosen by
the random bot, so the game continues differently from how it went before.

The dump has one block per event: its seq, type, player and description, then
the board lines (``core.read.views.board_lines``) that the event changed.
The first block shows every line, and the final board closes the dump, so the
dump pins down every state of the game while staying small.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from attrs import field, frozen

from core.bots import make_bot
from core.bots.play import bot_command
from core.bots.random_bot import RandomBot
from core.bots.series import player_names, write_log
from core.events.codec import Batch
from core.game import Game
from core.read.views import board_lines, event_line, walk

HERE = os.path.dirname(os.path.abspath(__file__))


@frozen
class Spec:
    """One golden game: its file name, the bots by seat, the seed, any undos, the mode."""

    name: str
    bots: tuple[str, ...] = field(converter=tuple)
    seed: int
    undos: tuple[tuple[int, int], ...] = field(default=(), converter=tuple)  # (at, count)
    mode: str = "multi"  # "solo": one bot plays the solo game

    @property
    def log_path(self) -> str:
        return os.path.join(HERE, f"{self.name}.dmlog")

    @property
    def dump_path(self) -> str:
        return os.path.join(HERE, f"{self.name}.dump.txt")


#: The golden games. A new or changed entry needs ``python -m replays.record``.
SPECS: tuple[Spec, ...] = (
    Spec("two-players", ("montecarlo", "greedy"), seed=2),
    Spec("three-players", ("greedy", "montecarlo", "random"), seed=3),
    Spec("four-players", ("montecarlo", "greedy", "random", "greedy"), seed=4),
    Spec("four-players-undo", ("greedy",) * 4, seed=44, undos=((9, 1), (40, 2), (95, 1))),
    Spec("tie-break", ("greedy", "greedy"), seed=64),
    Spec("solo", ("montecarlo",), seed=3, mode="solo"),
)


def record(spec: Spec) -> Game:
    """Play the spec's game in memory, exactly as it was recorded."""
    game = Game.new(player_names(spec.bots), spec.seed, mode=spec.mode)
    bots = [make_bot(name) for name in spec.bots]
    undos = dict(spec.undos)
    issued, swerve = 0, False
    while not game.state.is_over:
        if issued in undos and not swerve:
            for _ in range(undos.pop(issued)):
                game.undo()
            swerve = True  # the next command is the random bot's: the game goes another way
            continue
        bot = RandomBot() if swerve else bots[game.to_act()]
        game.issue(bot_command(game, bot))
        issued, swerve = issued + 1, False
    return game


def save(spec: Spec, game: Game) -> None:
    """Write the spec's log and dump, replacing any earlier recording."""
    if os.path.exists(spec.log_path):
        os.remove(spec.log_path)
    write_log(game, spec.log_path)
    with open(spec.dump_path, "w", encoding="utf-8") as f:
        f.write(dump(game.batches(), title=os.path.basename(spec.log_path)))


def dump(batches: Iterable[Batch], title: str) -> str:
    """The readable dump of a log: every event and the board lines it changed."""
    out = [
        f"# {title}: every event and the board lines it changed.",
        "# Regenerate with: python -m replays.record  (and say why in CHANGELOG.md)",
    ]
    shown: list[str] = []
    last = None
    for step in walk(batches):
        out.append(event_line(step).rstrip())
        lines = board_lines(step.after)
        if len(lines) != len(shown):
            changed = lines
        else:
            changed = [new for new, old in zip(lines, shown, strict=True) if new != old]
        out += [f"        {line.rstrip()}" for line in changed]
        shown, last = lines, step.after
    out.append("")
    out.append("# The final board:")
    out += [line.rstrip() for line in board_lines(last)] if last is not None else []
    return "\n".join(out) + "\n"


__all__ = ["HERE", "SPECS", "Spec", "dump", "record", "save"]
