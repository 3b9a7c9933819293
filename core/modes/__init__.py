"""The game modes, one package each: the multiplayer game's rules stand in the layers'
own packages (``core.rules``, ``core.projections``, ``core.events.game``); the solo game
(``core.modes.solo``) and the table's facts (``core.modes.table``) keep their parts
together, each part named by its layer:

- ``events.py``: the mode's facts (frozen, past tense, a tag and a version each);
- ``rules.py`` (and ``take.py``): deciding its commands, the ``HANDLERS`` that
  ``core.rules`` registers for the mode;
- ``fold.py``: folding its events onto the state (``core.projections.apply``);
- ``words.py``: its events in words (``core.read.text.describe``);
- ``scoring.py``: its score.

A part imports only the layers at and below its own (``tests/test_front_door.py``).
"""
