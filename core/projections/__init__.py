"""Projections: the immutable state, the pure fold, undo and the states around each step.

What a frontend draws of them (the board, the choices, the words, the score so far, the
event records) is the read models' package, ``core.read``.
"""

from core.modes.multiplayer import fold as multiplayer_fold
from core.modes.solo import fold as solo_fold
from core.modes.table import fold as table_fold
from core.projections.apply import register

# Each game mode's fold, registered here by name (what they share is apply's own).
register(multiplayer_fold.HANDLERS, solo_fold.HANDLERS, table_fold.HANDLERS)
