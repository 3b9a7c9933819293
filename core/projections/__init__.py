"""Projections: the immutable state, the pure fold, undo and the states around each step.

What a frontend draws of them (the board, the choices, the words, the score so far, the
event records) is the read models' package, ``core.read``.
"""

# The solo game's and the table's fold handlers register themselves on import.
from core.projections import solo, table  # noqa: F401
