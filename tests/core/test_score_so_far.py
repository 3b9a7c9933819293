"""The round's score so far (``score_so_far``), one read model for the terminal and the web.

In a three-player tie-break the untied player neither scores nor counts for the
gem doubling, so both frontends must show the tied players what the tie-break
will really give them, not a doubling won by the player who is out of it.
"""

from __future__ import annotations

from core.commands import EndMagicTurn
from core.modes.multiplayer import events as ev
from core.modes.multiplayer.scoring import Breakdown
from core.projections.state import MAGIC
from core.read.views import score_so_far
from frontends.cli.tui import panels
from frontends.cli.tui.table import Seat
from frontends.web.readmodel import round_now
from tests.support.builders import ScriptedRng, dice_of, make_state, when

T, G, M = dice_of("tunnel"), dice_of("treasure"), dice_of("magic")


def three_player_tie_break():
    """Ada and Brok tied after round 3, in their tie-break's magic phase (Ada's magic die
    waits); Cira, out of it, shows 6 gems (test_rules_replenish's three-player tie-break)."""
    state = make_state(
        players=3,
        phase=MAGIC,
        pending=(2,),
        round=3,
        troves={
            0: [(T[0], "1"), (G[0], "gem1"), (M[1], "magic1")],
            1: [(T[1], "1"), (G[1], "gem1")],
            2: [(G[2], "gem3"), (G[3], "gem3"), (M[0], "magic1")],
        },
        round_scores=(((3, 0, 0), (0, 0, 0)), ((3, 0, 0), (0, 0, 0)), ((0, 0, -20), (0, 0, 0))),
    )
    rolls = ["1", "1", "gem1", "gem2", "magic1"]  # the tied troves by die: T0 T1 G0 G1 M1
    events, after = when(state, EndMagicTurn(2), ScriptedRng(rolls))
    assert isinstance(events[-1], ev.MagicPhaseBegan) and after.tiebreak == 1
    return after


class _Watching:
    """What ``panels.scores`` reads of a terminal session: the state, the seats."""

    def __init__(self, state) -> None:
        self.state = state
        self.seats = tuple(Seat(name) for name in state.names)

    def is_human(self, seat: int | None) -> bool:
        return True


def test_in_a_tie_break_only_the_tied_score_and_only_they_are_compared_for_the_doubling():
    """Brok's 2 gems double (as TieBreakScored will say: treasure 4) although Cira shows 6."""
    state = three_player_tie_break()
    assert score_so_far(state) == (Breakdown(1, 1, 0), Breakdown(1, 4, 0), None)
    assert round_now(state) == [[1, 1, 0], [1, 4, 0], None]


def test_the_terminal_scores_show_the_tie_break_as_the_rules_score_it():
    """The terminal's 'now' columns: Brok's treasure is 4, Cira's row is dots, not 12 gems."""
    text = "".join(part[1] for part in panels.scores(_Watching(three_player_tie_break()), 60))

    def now(name: str) -> list[str]:
        row = next(line for line in text.split("\n") if name in line)
        return row.split("│")[1].split()

    assert (now("Ada"), now("Brok"), now("Cira")) == (["1", "1", "0"], ["1", "4", "0"], ["·"] * 3)
