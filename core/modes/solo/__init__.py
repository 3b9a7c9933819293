"""The solo game (RULES.md's solo variant): its events, rules, fold, words and score."""

from core.modes.mode import Mode
from core.modes.solo import events, fold, rules, words
from core.rules.legal import listed

MODE = Mode(
    name="solo",
    words="the solo game",
    events=events.EVENTS,
    fold=fold.HANDLERS,
    describers=words.DESCRIBERS,
    rules=rules.HANDLERS,
    start=rules.start_solo,
    advance=rules.advance_solo,
    legal=listed(rules.legal_solo),  # its lists are short: built whole when asked for
)
