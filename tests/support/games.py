"""Games played by bots for the tests: a random game to the end or for some moves, in
memory or on a store."""

from __future__ import annotations

from core.bots import RandomBot, bot_rng, make_bot
from core.bots.play import bot_command
from core.game import Game
from core.store import Store, Stream


def play(game: Game, steps: int | None = None) -> Game:
    """Let random bots play ``steps`` commands (to the end by default)."""
    bot = RandomBot()
    while not game.state.is_over and steps != 0:
        seat = game.to_act()
        game.issue(
            bot.choose(game.state, game.legal(), bot_rng(game.state, game.timeline.depth, seat))
        )
        steps = None if steps is None else steps - 1
    return game


def played(seed: int, commands: int, game_id: str | None = None) -> Game:
    """A game of random bots in memory after ``commands`` commands (an undo among them)."""
    game = Game.new(["Ada", "Brok", "Cira"], seed, game_id=game_id or f"g{seed}")
    bot = make_bot("random")
    for n in range(commands):
        if n == 5:
            game.undo()
        else:
            game.issue(bot_command(game, bot))
    return game


def copy_into(store: Store, game: Game) -> Stream:
    """The game's batches appended one by one to a new game of ``store``."""
    first, *rest = game.batches()
    stream = store.create(game.header, first)
    for batch in rest:
        stream.append(batch)
    return stream
