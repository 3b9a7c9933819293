"""Read models: what a frontend draws, made from the projected state and the steps.

``choices`` (what a seat may choose now, each option with its command and its words from
``choice_words``), ``views`` (the board as JSON and text, the score so far, event records,
walking a log's steps), ``text`` (what an event did, in words; each mode's own in its
package's ``words.py``, registered here from the installed modes). The pieces' own words
(a face, a die, a slot) are ``core.words``, below the rules that word their refusals with
them. These sit above the rules and the modes: ``choices`` asks them what is legal.
"""

from core.modes import MODES, TABLE
from core.read.text import register

register(*(mode.describers for mode in (*MODES, TABLE)))
