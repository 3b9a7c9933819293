"""Reading a growing log step by step gives what walking the whole log gives."""

from __future__ import annotations

import attrs

from core.game import Game
from core.read.views import StepReader, walk
from replays.golden import SPECS


def test_reading_a_log_in_pieces_gives_the_steps_of_walking_it_whole():
    for spec in SPECS:  # undos, a tie-break, the solo game
        batches = Game.load(spec.log_path).batches()
        whole = [attrs.evolve(step, undone=False) for step in walk(batches)]
        reader, pieces = StepReader(), []
        for start in range(0, len(batches), 7):  # as a live game logs them, a few at a time
            pieces.extend(reader.read(batches[start : start + 7]))
        assert pieces == whole, spec.name
        assert reader.timeline.state == Game.load(spec.log_path).state
