"""Read models: what a frontend draws, made from the projected state and the steps.

``choices`` (what a seat may choose now, each option with its command and its words from
``choice_words``), ``views`` (the board as JSON and text, the score so far, event records,
walking a log's steps), ``text`` (what an event did, in words; the solo game's and the
table's own in ``core.modes``). The pieces' own words (a face, a die, a slot) are
``core.words``, below the rules that word their refusals with them. These sit above the
rules: ``choices`` asks them what is legal.
"""

from core.modes.multiplayer import words as multiplayer_words
from core.modes.solo import words as solo_words
from core.modes.table import words as table_words
from core.read.text import register

# Each game mode's words, registered here by name (what they share are text's own).
register(multiplayer_words.DESCRIBERS, solo_words.DESCRIBERS, table_words.DESCRIBERS)
