"""The game host: live games at tables, for every frontend.

``Table`` (``core.host.table``) is one live game with its seats, whose turn it
is, the undo policy (``core.host.undo``), its bots' moves and its subscribers;
``BotRunner`` (``core.host.bots``) plays the bots of many tables at their pace;
``Lobby`` (``core.host.lobby``) is a server's tables over one store, what a
new table may be (``core.host.setups``), the store's games taken up at a start
(``core.host.takeup``) and when idle games close (``core.host.idle``) decided
beside it. The terminal and the web only translate between their users and these.
"""

from core.host.bots import BotRunner
from core.host.lobby import Lobby, LobbyFull, TakeUpReport, TooManyGames
from core.host.seats import parse_seats, seat_for_token, seating_for, seating_from_names
from core.host.table import BotMove, Table
from core.host.undo import can_undo, undo_depth

__all__ = [
    "BotMove",
    "BotRunner",
    "Lobby",
    "LobbyFull",
    "Table",
    "TakeUpReport",
    "TooManyGames",
    "can_undo",
    "parse_seats",
    "seat_for_token",
    "seating_for",
    "seating_from_names",
    "undo_depth",
]
