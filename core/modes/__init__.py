"""The game modes, one package each: the multiplayer game (``core.modes.multiplayer``), the
solo game (``core.modes.solo``) and the table's facts (``core.modes.table``) keep their
parts together, each part named by its layer:

- ``events.py``: the mode's facts (frozen, past tense, a tag and a version each; the
  multiplayer game's stay in ``core.events.game``, beside those every mode shares);
- ``rules.py`` (and ``take.py``, ``flow.py``, ``magic.py``, ``cache.py``, ``setup.py``):
  deciding its commands, the ``HANDLERS`` that ``core.rules`` registers for the mode;
- ``legal.py``: its legal moves, as groups ``core.rules.legal`` walks and counts;
- ``fold.py``: folding its events onto the state (``core.projections.apply``);
- ``words.py``: its events in words (``core.read.text.describe``);
- ``scoring.py``: its score.

What every mode shares stays in its layer's package. A part imports only the layers at
and below its own (``tests/core/test_front_door.py``).
"""

# The layers first: each registers the modes' parts by name, so a part reached before its
# layer (``from core.modes.solo.take import ...`` in a fresh process) would meet its own
# module half-made. Loading the layers here, before any part runs, loads every part through
# its layer, in the layers' order.
import core.events
import core.projections
import core.read
import core.rules  # noqa: F401
