"""Projections: the immutable state, the pure fold, undo, and read models."""

# The solo game's and the table's handlers and describers register themselves on import.
from core.projections import solo, solo_text, table, table_text  # noqa: F401
