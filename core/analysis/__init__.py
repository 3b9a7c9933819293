"""The bot's eye on every move: a game's decisions valued on sampled futures.

For every decision of a game's final history (``history``) the analysis weighs
the mover's candidate moves as the Monte Carlo bot does (``judge``: ``multi``,
``excavation`` and ``worth`` for multiplayer games, ``solo`` for the solo
game), from the state the mover saw and on futures drawn from the analysis's
own streams (``sampling``): never from the dice the log says came next.
``verdict`` holds what a position's candidates are worth, ``marks`` names a
move by what it lost against the best move found, ``report`` makes the JSON
document, ``text`` the words (``words`` for the moves), ``cache`` keeps it
beside the log, ``run`` spreads the work over processes, and
``analyse.analyse_log`` does it all for a file.
"""

from core.analysis.analyse import Outcome, analyse_log, read_game
from core.analysis.judge import DEFAULT_SAMPLES, DEFAULT_SOLO_SAMPLES, Options
from core.analysis.report import ANALYSIS_VERSION

__all__ = [
    "ANALYSIS_VERSION",
    "DEFAULT_SAMPLES",
    "DEFAULT_SOLO_SAMPLES",
    "Options",
    "Outcome",
    "analyse_log",
    "read_game",
]
