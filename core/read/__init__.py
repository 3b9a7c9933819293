"""Read models: what a frontend draws, made from the projected state and the steps.

``choices`` (what a seat may choose now, each option with its command and its words from
``choice_words``), ``views`` (the board as JSON and text, the score so far, event records,
walking a log's steps), ``text`` (what an event did, in words; the solo game's words in
``solo_text``, the table's in ``table_text``). The pieces' own words (a face, a die, a
slot) are ``core.words``, below the rules that word their refusals with them. These sit
above the rules: ``choices`` asks them what is legal.
"""

# The solo game's and the table's describers register themselves with ``text`` on import.
from core.read import solo_text, table_text  # noqa: F401
