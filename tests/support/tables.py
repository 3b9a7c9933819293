"""Tables of the host layer for the tests: the players a lobby seats, what a table logged."""

from __future__ import annotations


def people(*names: str) -> list[dict]:
    """The players of a game of people only, as ``Lobby.create`` takes them."""
    return [{"name": name, "bot": None} for name in names]


def events_of(table, kind) -> list:
    """The events of ``kind`` in the table's game, in order."""
    return [e for _, e in table.game.events() if isinstance(e, kind)]
