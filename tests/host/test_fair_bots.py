"""The bots of a game with secret dice decide from the secret too: their moves cannot be
foreseen from the public log while the game is played, and each can be checked once the
game is over and the secret revealed."""

from __future__ import annotations

from core.bots import make_bot
from core.bots.play import bot_choice
from core.host import Lobby
from core.projections.timeline import Timeline
from core.store import MemoryStore
from tests.support.web_support import wait_until


def bot_moves(table):
    """Each bot move of the game: the state and depth it was decided at, and the command."""
    timeline = Timeline()
    for batch in table.game.batches():
        command = batch.command
        if not command.BY_TABLE and getattr(command, "seat", None) is not None:
            yield timeline.state, timeline.depth, command
        timeline = timeline.apply_batch(batch)


def test_bot_moves_cannot_be_foreseen_from_the_log_but_are_checked_after_the_reveal():
    lobby = Lobby(MemoryStore(), pace=0.0)
    players = [{"name": None, "bot": "random"} for _ in range(3)]
    table, _ = lobby.create(players)  # no seed chosen: the dice come from a secret
    assert wait_until(lambda: table.state.is_over and table.state.facts.revealed, timeout=60)
    secret = bytes.fromhex(table.state.facts.revealed)
    bot = make_bot("random")
    moves = list(bot_moves(table))
    foreseen = sum(bot_choice(bot, s, d) == c for s, d, c in moves)  # from the log alone
    checked = sum(bot_choice(bot, s, d, secret) == c for s, d, c in moves)
    lobby.close()
    assert len(moves) > 40
    assert checked == len(moves), "every bot move follows from the revealed secret"
    assert foreseen < 0.75 * len(moves), f"{foreseen} of {len(moves)} foreseen from the log"


def test_a_chosen_seed_game_keeps_its_bots_as_the_seed_says():
    """A game whose seed was chosen is no secret: its bots follow the seed (golden replays,
    demos and simulations stay as they were)."""
    lobby = Lobby(MemoryStore(), pace=0.0)
    players = [{"name": None, "bot": "random"} for _ in range(2)]
    table, _ = lobby.create(players, seed=11)
    assert wait_until(lambda: table.state.is_over, timeout=60)
    bot = make_bot("random")
    moves = list(bot_moves(table))
    assert all(bot_choice(bot, s, d) == c for s, d, c in moves)
    lobby.close()
