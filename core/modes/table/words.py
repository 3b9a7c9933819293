"""The table's facts in words, for ``core.read.text.describe``
(``DESCRIBERS``, the table's ``MODE.describers``)."""

from __future__ import annotations

from collections.abc import Callable

from core.events.base import Event, event_table
from core.modes.table import events as tev
from core.projections.state import GameState

#: This mode's events in words: the table's ``MODE.describers``.
DESCRIBERS: dict[type[Event], Callable[[GameState, Event], str]] = {}
describes = event_table(DESCRIBERS)

#: How much of a commitment or a secret the words show (the event keeps it whole).
_SHOWN = 16


@describes(tev.DiceCommitted)
def _committed(state, e: tev.DiceCommitted) -> str:
    # a solo game has no bots: "only steers the bots" told its player nothing
    seed = (
        "the seed named above rolls none of them"
        if state.mode == "solo"
        else "the game's seed only steers the bots"
    )
    return (
        f"The dice come from a secret seed (SHA-256 {e.commitment[:_SHOWN]}...), "
        f"revealed when the game ends; {seed}"
    )


@describes(tev.SeedChosen)
def _chosen(state, e: tev.SeedChosen) -> str:
    return f"The seed was chosen by {e.by}: it is no secret, so the rolls could be foreseen"


@describes(tev.SeedRevealed)
def _revealed(state, e: tev.SeedRevealed) -> str:
    return (
        f"The secret seed is revealed ({e.secret[:_SHOWN]}...): "
        "every roll can now be checked against it (dice-miner log verify)"
    )


@describes(tev.GameClosed)
def _closed(state, e: tev.GameClosed) -> str:
    return f"The game was closed without a winner: {e.reason}"


@describes(tev.PracticeChosen)
def _practice(state, e: tev.PracticeChosen) -> str:
    return (
        f"A practice game for {e.by}: they may undo even what the dice have shown, "
        "so its scores are practice"
    )


@describes(tev.SeatHandedToBot)
def _handed(state, e: tev.SeatHandedToBot) -> str:
    return f"A {e.bot} bot plays for {state.names[e.seat]} from now on: {e.reason}"


@describes(tev.SeatReturned)
def _returned(state, e: tev.SeatReturned) -> str:
    return f"{state.names[e.seat]} is back and plays again"


@describes(tev.SeatLeft)
def _left(state, e: tev.SeatLeft) -> str:
    return f"{state.names[e.seat]} left the game: a {e.bot} bot plays their seat to the end"


@describes(tev.RematchStarted)
def _rematch(state, e: tev.RematchStarted) -> str:
    return f"A rematch was started with the same seats: game {e.game_id}"


@describes(tev.GameBranched)
def _branched(state, e: tev.GameBranched) -> str:
    parent = (
        f"Branched from another game (its log's SHA-256 {e.parent[:_SHOWN]}...) "
        f"after its first {e.at} events"
    )
    if e.luck == "same":
        return f"{parent}, with the same luck: each position rolls the dice that game rolled there"
    return f"{parent}, with fresh luck: the dice come from seed {e.seed} from here on"
