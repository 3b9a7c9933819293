"""The terminal as a network client: a web table's seat (``join``) or a live game
followed read-only (``watch``), drawn by the same full-screen game as a local one.

``client`` speaks the server's HTTP API and event stream; ``choices`` reads the
server's choices into core's read model; ``table`` stands in for the game host
the play session drives; ``command`` adds ``dice-miner join`` and ``watch``.
"""
