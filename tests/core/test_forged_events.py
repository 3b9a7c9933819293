"""Events a forged log may hold though the rules never emit them: the fold refuses them
(every reader reports damage at their record), and no reader fails on them another way."""

from __future__ import annotations

import pytest

from core.bots import RandomBot, bot_rng
from core.commands import EndMagicTurn
from core.events.codec import Batch
from core.game import Game
from core.modes.multiplayer import events as ev
from core.projections.apply import fold
from core.read.views import ReplayError, walk


@pytest.mark.parametrize("case", ["take", "slide", "fill"])
def test_an_event_naming_a_slot_that_does_not_exist_is_refused_saying_so(case):
    """A forged record's slot is named in the refusal (replay reports it as damage)."""
    state = Game.new(["A", "B"], 4, hero_deal="random").state
    on = [d for d in state.mountain if d is not None]
    event = {
        "take": ev.DieTaken(0, on[-1], "1", 9, 0, ()),  # the fold's inline slot lookup
        "slide": ev.DieTaken(0, on[0], "1", 0, 0, ((on[1], 4, 7),)),
        "fill": ev.MountainFilled(((state.bag[0], 0, 12, "1"),)),
    }[case]
    with pytest.raises(ValueError, match=r"there is no slot at row \d+, column \d+"):
        fold([event], state)


def game_in_magic_phase() -> Game:
    game, bot = Game.new(["A", "B"], 3), RandomBot()
    while game.state.phase != "magic":
        rng = bot_rng(game.state, game.timeline.depth, game.to_act())
        game.issue(bot.choose(game.state, game.legal(), rng))
    return game


@pytest.mark.parametrize(("die", "hero_face"), [(None, None), (0, 1)])
def test_a_magic_spend_naming_no_source_or_two_is_refused(die, hero_face):
    """Rules name a die or a hero face; a spend of neither once made ``log show`` fail
    with a TypeError while wording it."""
    game = game_in_magic_phase()
    seat = game.to_act()
    forged = ev.MagicSpent(seat, die, hero_face, ())
    with pytest.raises(ValueError, match="names exactly one source"):
        fold([forged], game.state)
    batches = [*game.batches(), Batch(game.seq, EndMagicTurn(seat), (forged,))]
    with pytest.raises(ReplayError, match="names exactly one source"):
        list(walk(batches))
