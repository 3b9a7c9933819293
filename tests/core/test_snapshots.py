"""Seeking with ``SnapshotIndex``: every position gives exactly the fold of the log up to it."""

from __future__ import annotations

import pytest

from core.bots.play import bot_command, play_game
from core.bots.random_bot import RandomBot
from core.commands import TakeDie
from core.events.codec import Batch
from core.game import Game
from core.modes.multiplayer.events import DieTaken
from core.projections.snapshots import SnapshotIndex, UnreplayableBatch
from core.projections.state import PREGAME
from core.projections.timeline import Timeline, replay


def game_with_undos(seed: int = 3) -> Game:
    """A 3-player game between random bots, with an undo after every fifth command."""
    game = Game.new(["A", "B", "C"], seed)
    bot, issued = RandomBot(), 0
    while not game.state.is_over:
        game.issue(bot_command(game, bot))
        issued += 1
        if issued % 5 == 0 and game.timeline.can_undo():
            game.undo()
    return game


@pytest.mark.parametrize("every", [1, 4, 16, 1000])
def test_state_at_every_position_is_the_fold_of_the_log(every):
    """With undos in the log, the state after N events is replay(upto=N), for any spacing."""
    batches = game_with_undos().batches()
    index = SnapshotIndex(batches, every)
    assert index.total == batches[-1].end
    for position in range(index.total + 1):
        assert index.state_at(position) == replay(batches, upto=position).state, position
    assert index.timeline_at(index.total) == index.final == replay(batches)


def test_snapshots_are_kept_every_so_many_events():
    """A snapshot starts every run of at least ``every`` events, at a batch boundary."""
    game = Game.new(["A", "B"], 5)
    play_game(game, [RandomBot(), RandomBot()])
    batches = game.batches()
    index = SnapshotIndex(batches, 10)
    assert len(index) <= batches[-1].end // 10 + 1
    assert len(index) >= batches[-1].end // (10 + max(len(b.events) for b in batches))


def test_seek_bounds_and_spacing_are_checked():
    batches = game_with_undos().batches()
    index = SnapshotIndex(batches)
    assert index.state_at(0) is PREGAME and index.timeline_at(0) == Timeline()
    for bad in (-1, index.total + 1):
        with pytest.raises(ValueError, match="outside"):
            index.state_at(bad)
    with pytest.raises(ValueError, match="positive"):
        SnapshotIndex(batches, 0)


def test_a_batch_that_cannot_be_replayed_names_its_index():
    """A batch that passed its checksum but names a slot that does not exist is reported."""
    batches = Game.new(["A", "B"], 1).batches()
    first = batches[0]
    bad = Batch(first.end, TakeDie(0, 1), (DieTaken(0, 1, "1", 9, 9),))
    with pytest.raises(UnreplayableBatch) as raised:
        SnapshotIndex([first, bad])
    assert raised.value.index == 1 and raised.value.cause is not None
