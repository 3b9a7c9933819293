"""What the blueprints share: the replay library, the live games and their store.

Kept apart from the app factory so the blueprints can reach it without importing
the module that imports them.
"""

from __future__ import annotations

from flask import current_app

from core import Store, TakeUpReport
from frontends.web.branches import Family
from frontends.web.games import LiveGames
from frontends.web.replays import ReplayLibrary
from frontends.web.stored import StoredGames


class Services:
    """What the blueprints share: the replay library, the live games, the store's games as
    the viewer sees them, and the what-if families among them."""

    def __init__(self, library: ReplayLibrary, games: LiveGames, store: Store) -> None:
        self.library = library
        self.games = games
        self.store = store
        self.stored = StoredGames(store, games.lobby)
        self.family = Family(library, self.stored)
        self.resumed = TakeUpReport()  # what the start took up from the store


def services() -> Services:
    """The current app's services."""
    return current_app.extensions["dice_miner"]


__all__ = ["Services", "services"]
