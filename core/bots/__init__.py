"""Bots: players that choose from the same state and legal commands a frontend sees.

A bot's choices are deterministic given the game's seed: it draws from its own
stream of the game's generator, keyed by the game's position and its seat, so
it never disturbs the dice of the game itself.
"""

from core.bots.base import Bot, bot_rng
from core.bots.random_bot import RandomBot
from core.bots.registry import BOTS, make_bot

__all__ = ["BOTS", "Bot", "RandomBot", "bot_rng", "make_bot"]
