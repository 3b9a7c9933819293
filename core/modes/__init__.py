"""The game modes, one package each: the multiplayer game (``core.modes.multiplayer``), the
solo game (``core.modes.solo``) and the table's facts (``core.modes.table``), which are a
part of every game. Each keeps its parts together, each part named by its layer:

- ``events.py``: the mode's facts (frozen, past tense, a tag and a version each; those
  every game has are ``core.events.game``'s);
- ``rules.py`` (and ``take.py``, ``flow.py``, ``magic.py``, ``cache.py``, ``setup.py``):
  deciding its commands;
- ``legal.py``: its legal moves, as groups ``core.rules.legal`` walks and counts;
- ``fold.py``: folding its events onto the state;
- ``words.py``: its events in words;
- ``scoring.py``: its score.

Each package's face offers its parts as one record, ``MODE`` (``core.modes.mode.Mode``).
No layer imports a mode: ``install`` hands each layer its part of every mode, and is
called once, here, so importing ``core.modes`` is what makes the modes playable. The
layers above that decode, fold or decide (``core.store``, ``core.game``, ``core.read``)
import it; a new mode is one more package and one more line in ``MODES``.
"""

from core.events import game as every_game
from core.events.base import register_events
from core.modes import multiplayer, solo, table
from core.modes.mode import Mode
from core.projections.apply import register as register_fold
from core.rules import register_mode
from core.rules.setup import OPTION_CHECKS

#: The games one can play, by ``NewGame.mode``.
MODES: tuple[Mode, ...] = (multiplayer.MODE, solo.MODE)
#: The table's facts: a part of every game.
TABLE: Mode = table.MODE


def install() -> None:
    """Hand each layer its part of every mode: the events to the codec's table (those every
    game has first, then each mode's: the events page's order), the folds to the
    projection, the rules (with the table's) to ``core.rules``, the table's check of a
    NewGame's options to the setup. Installing again changes nothing."""
    register_events(*every_game.EVENTS, *(cls for mode in (*MODES, TABLE) for cls in mode.events))
    register_fold(*(mode.fold for mode in (*MODES, TABLE)))
    for mode in MODES:
        assert mode.start and mode.advance and mode.legal, mode.name
        rules = {**mode.rules, **TABLE.rules}
        register_mode(mode.name, mode.words, rules, mode.start, mode.advance, mode.legal)
    if TABLE.check_options and TABLE.check_options not in OPTION_CHECKS:
        OPTION_CHECKS.append(TABLE.check_options)


install()

__all__ = ["MODES", "TABLE", "Mode", "install"]
