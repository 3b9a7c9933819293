"""The table's facts, in every mode: a seat handed to a bot and back, a game closed, the
secret seed revealed, a branch begun; their events, rules, fold and words."""

from core.modes.mode import Mode
from core.modes.table import events, fold, rules, words

MODE = Mode(
    name="",  # not a game of its own: a part of every game
    words="the table",
    events=events.EVENTS,
    fold=fold.HANDLERS,
    describers=words.DESCRIBERS,
    rules=rules.HANDLERS,
    check_options=rules.check_table_options,
)
