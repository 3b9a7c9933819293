"""Projections: the immutable state, the pure fold, undo and the states around each step.

The fold of what every mode shares is ``core.projections.apply``'s own; each mode's fold
is handed to it when the modes are installed (``core.modes.install``). What a frontend
draws of the state (the board, the choices, the words, the score so far, the event
records) is the read models' package, ``core.read``.
"""
