"""Projections: the immutable state, the pure fold, undo, and read models."""
