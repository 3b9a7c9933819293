"""The golden replays still replay, event for event and state for state.

Each recorded game in ``replays/`` is (1) folded and dumped, and the dump must
equal the stored one; (2) re-run from its seed and commands through the rules,
which must give the same log byte for byte. A change to the rules, the events,
the log format or the projections that alters old games fails here; an
intended one is re-recorded with ``python -m replays.record`` and a line in
CHANGELOG.md.
"""

import difflib
import os

import pytest
from attrs import evolve

from core.bots.series import log_bytes
from core.commands import Undo
from core.game import Game
from core.modes.multiplayer.events import CommandUndone, DieTaken, TieBreakBegan, TieBreakScored
from core.store import load_batches
from core.verify import rerun
from replays.golden import HERE, SPECS, dump

RERECORD = "re-record with `python -m replays.record` if the change is intended"


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_the_dump_of_each_golden_log_is_unchanged(spec):
    _, batches = load_batches(spec.log_path)
    fresh = dump(batches, title=os.path.basename(spec.log_path))
    with open(spec.dump_path, encoding="utf-8") as f:
        stored = f.read()
    if fresh != stored:
        diff = difflib.unified_diff(
            stored.splitlines(), fresh.splitlines(), "stored dump", "replayed now", lineterm=""
        )
        pytest.fail(f"{spec.name} replays differently ({RERECORD}):\n" + "\n".join(list(diff)[:40]))


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_each_golden_game_re_runs_to_the_same_log(spec):
    _, batches = load_batches(spec.log_path)
    divergence = rerun(batches)
    assert divergence is None, f"{divergence} ({RERECORD})"
    game = Game.load(spec.log_path)
    replayed = Game.new(game.state.names, game.state.seed, mode=game.state.mode)
    for batch in batches[1:]:
        if isinstance(batch.command, Undo):
            replayed.undo(batch.command.seat)
        else:
            replayed.issue(batch.command)
    with open(spec.log_path, "rb") as f:
        assert log_bytes(replayed) == f.read(), f"the log's bytes changed ({RERECORD})"


def test_the_golden_games_cover_tables_undo_and_a_tie_break():
    games = {spec.name: Game.load(spec.log_path) for spec in SPECS}
    assert {g.state.players for g in games.values()} >= {2, 3, 4}
    assert all(g.state.is_over for g in games.values())
    kinds = {type(e) for g in games.values() for _, e in g.events()}
    assert {CommandUndone, TieBreakBegan, TieBreakScored} <= kinds


def test_the_replays_folder_holds_exactly_the_golden_games():
    expected = {os.path.basename(p) for s in SPECS for p in (s.log_path, s.dump_path)}
    found = {n for n in os.listdir(HERE) if n.endswith((".dmlog", ".dump.txt"))}
    assert found == expected


def test_a_change_to_the_game_would_be_caught(tmp_path):
    """The dump shows every state: altering one event's face changes the dump."""
    _, batches = load_batches(SPECS[0].log_path)
    for i, batch in enumerate(batches):
        if isinstance(batch.events[0], DieTaken):
            event = batch.events[0]
            changed = evolve(event, face="beer" if event.face != "beer" else "1")
            batches[i] = evolve(batch, events=(changed, *batch.events[1:]))
            break
    assert dump(batches, "x") != dump(load_batches(SPECS[0].log_path)[1], "x")
    assert rerun(batches) is not None
