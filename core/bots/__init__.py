"""Bots: players that choose from the same state and legal commands a frontend sees.

A bot's choices are deterministic given the game's seed: it draws from its own
stream of the game's generator, keyed by the game's position and its seat, so
it never disturbs the dice of the game itself. ``core.bots.play`` is the loop
that lets bots play a game; ``core.bots.series`` plays many, for ``simulate``.
"""

from core.bots.base import Bot, bot_rng
from core.bots.expert import ExpertBot
from core.bots.greedy import GreedyBot
from core.bots.montecarlo import MonteCarloBot
from core.bots.random_bot import RandomBot
from core.bots.registry import BOTS, make_bot, parse_bots
from core.rules.legal import LegalList

__all__ = [
    "BOTS",
    "Bot",
    "ExpertBot",
    "GreedyBot",
    "LegalList",
    "MonteCarloBot",
    "RandomBot",
    "bot_rng",
    "make_bot",
    "parse_bots",
]
