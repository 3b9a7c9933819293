"""The multiplayer game (RULES.md section 3): its events, rules, flow, fold, words and score."""

from core.modes.mode import Mode
from core.modes.multiplayer import events, fold, legal, rules, words
from core.modes.multiplayer.flow import advance
from core.modes.multiplayer.setup import start_multiplayer

MODE = Mode(
    name="multi",
    words="a game of 2 to 4 players",
    events=events.EVENTS,
    fold=fold.HANDLERS,
    describers=words.DESCRIBERS,
    rules=rules.HANDLERS,
    start=start_multiplayer,
    advance=advance,
    legal=legal.multiplayer_groups,
)
