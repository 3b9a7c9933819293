"""The full-screen terminal game (``dice-miner play``), built on prompt-toolkit.

The package is thin by design: ``session`` sends commands to ``core.game`` and
keeps only what the screen needs (cursor, picked dice, messages); the view
modules draw projected state; no rule lives here. The core choices read model
(``core.read.choices``) says what can be selected and in what words,
and the engine's RuleError says why something was refused. ``typed`` is how a
player types commands here (ids as ``#17``, seats by name); ``hints`` and
``review`` bring the game analysis (``core.analysis``) to the screen, drawn by
``analysis_view``.
"""
