"""What one game mode hands the layers: the record each mode's package offers as ``MODE``.

A mode's parts stand in the layers their names say (``events.py`` among the facts,
``fold.py`` in the fold, ``rules.py`` in the rules, ``words.py`` in the read models), and
no layer imports them: ``core.modes.install`` hands each layer its part of every mode.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from attrs import frozen

from core.commands import Command, NewGame
from core.events.base import Event
from core.projections.apply import Handler as Fold
from core.projections.state import GameState
from core.rules.emitter import Emitter
from core.rules.emitter import Handler as Rule
from core.rules.legal import Group

Describer = Callable[[GameState, Event], str]


@frozen
class Mode:
    """A game mode's parts, each for the layer that uses it.

    ``name`` is what ``NewGame.mode`` says (``""`` for the table's facts, which are not a
    game of their own but a part of every game: their rules and their check of a
    NewGame's options join each mode's). ``words`` name the game for a player.
    """

    name: str
    words: str
    events: tuple[type[Event], ...]  # its facts, in the order the events page lists them
    fold: Mapping[type[Event], Fold]  # folding them onto the state
    describers: Mapping[type[Event], Describer]  # each in words
    rules: Mapping[type[Command], Rule]  # deciding its commands
    start: Callable[[Emitter, NewGame], None] | None = None  # its first events
    advance: Callable[[Emitter], None] | None = None  # what follows every command
    legal: Callable[[GameState], list[Group]] | None = None  # its legal moves, as groups
    check_options: Callable[[NewGame], None] | None = None  # its own options of a NewGame
