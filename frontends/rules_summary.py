"""The game in a few lines: a multiplayer round and the solo game, for every frontend's help.

The terminal's ``?`` help prints these lines as they are (wrapped to fit its
box); the web's "How to play" panel shows them as paragraphs, one per topic.
Keeping the words here, once, means the two frontends can never tell a player
different rules. ``docs/RULES.md`` is the full reference; this is the reminder.
"""

from __future__ import annotations

import re
from typing import Final

#: A multiplayer round, topic by topic; each topic is its lines in the terminal's help.
MULTI_TOPICS: Final[tuple[tuple[str, ...], ...]] = (
    ("Excavation: take one top die a turn until the mountain is empty.",),
    (
        "Or first share a beer (b): a beer die of yours is rerolled and given",
        "to another player, then you take two dice, each a top or side die.",
    ),
    ("Magic: spend magic faces to reroll dice of your trove (never hazards).",),
    (
        "Scoring: tunnel runs from 1 up, gems (most gems double), hazards",
        "against pickaxes (cave-ins) and shields (dragons). Three rounds.",
    ),
    ("Replenish: keep as many dice as your chests hold; the rest reroll.",),
    (
        "Undo (u): your own last move, with the bots' replies, while no other",
        "person has moved; never past dice rolled since (a practice game aside).",
    ),
)

#: The solo game, topic by topic, the same way.
SOLO_TOPICS: Final[tuple[tuple[str, ...], ...]] = (
    (
        "Take top dice: a 1 opens a run, a tunnel die extends a run by one;",
        "a hazard needs a free pickaxe (cave-in) or shield (dragon); a gem may",
        "freeze on a chest for double points; a beer is wild.",
    ),
    ("Spend magic to recycle top dice; refill the mountain twice a game.",),
    ("Score: neutralized hazard symbols, gems (x2 frozen), 5 per run to 5.",),
    ("Undo (u): your last move, never past a refill (a practice game aside).",),
)

#: The terminal's lines for a multiplayer round (its help prints them one a line).
MULTI_ROUND: Final[tuple[str, ...]] = tuple(line for topic in MULTI_TOPICS for line in topic)
#: The terminal's lines for the solo game.
SOLO_GAME: Final[tuple[str, ...]] = tuple(line for topic in SOLO_TOPICS for line in topic)

#: A terminal key named in brackets before a colon, "share a beer (b):": no key on a web page.
_TERMINAL_KEY = re.compile(r" \([a-z]\)(?=:)")


def paragraphs(solo: bool) -> tuple[str, ...]:
    """The summary as one sentence group per topic, for a page that wraps text itself.

    The terminal's key hints are left out: the page has buttons, not those keys.
    """
    topics = SOLO_TOPICS if solo else MULTI_TOPICS
    return tuple(_TERMINAL_KEY.sub("", " ".join(topic)) for topic in topics)


__all__ = ["MULTI_ROUND", "MULTI_TOPICS", "SOLO_GAME", "SOLO_TOPICS", "paragraphs"]
