"""Win chances of a table's candidate moves: the valuation the expert plays by and the
analysis judges by (``core.analysis`` builds its marks on it, so it lives below both)."""
