"""Before its first event a game's state is PREGAME: the fold starts from it, only
GameStarted applies to it, and the rules refuse every command on it but NewGame."""

from __future__ import annotations

import pytest

from core.commands import ChooseHero, NewGame
from core.errors import RuleError
from core.game import Game
from core.modes.multiplayer import events as ev
from core.projections.apply import apply, fold, fold_each
from core.projections.state import NOT_STARTED, PREGAME
from core.projections.steps import Commit
from core.projections.timeline import ORIGIN, Timeline, replay
from core.read.views import walk
from core.rng import DiceRng
from core.rules import emit_command, resolve_steps
from core.rules.legal import legal_commands


def test_pregame_is_where_the_fold_and_the_timeline_start():
    assert PREGAME.phase == NOT_STARTED and not PREGAME.is_over
    assert PREGAME.players == 0 and PREGAME.to_act() is None
    assert fold([]) is PREGAME and fold_each([]) == ()
    assert Timeline().state is PREGAME and ORIGIN.state is PREGAME
    assert replay([]).state is PREGAME
    assert list(legal_commands(PREGAME)) == []


def test_only_game_started_applies_to_pregame():
    """A log must begin with GameStarted: the event-by-event apply and the fold both say so."""
    first = ev.FirstPlayerChosen(0, (1, 0))
    with pytest.raises(ValueError, match="must begin with GameStarted, not FirstPlayerChosen"):
        apply(PREGAME, first)
    with pytest.raises(ValueError, match="must begin with GameStarted, not FirstPlayerChosen"):
        fold([first])
    started = ev.GameStarted("g", 7, "multi", ("Ada", "Brok"), "2026", "2026.11")
    state = fold([started, first])
    assert state is not PREGAME and state.names == ("Ada", "Brok") and state.first_seat == 0


def test_the_rules_take_only_new_game_before_the_start_and_never_after():
    with pytest.raises(RuleError) as refused:
        emit_command(PREGAME, ChooseHero(0, "Engineer"), DiceRng(1, 0))
    assert refused.value.code == "no_game"
    game = Game.new(["Ada", "Brok"], 7)
    with pytest.raises(RuleError) as refused:
        emit_command(game.state, NewGame(("Ada", "Brok"), 7), game.rng())
    assert refused.value.code == "game_started"


def test_the_opening_commit_and_the_first_step_start_from_pregame():
    game = Game.new(["Ada", "Brok"], 7)
    opening = game.batches()[0]
    out = emit_command(PREGAME, opening.command, DiceRng(7, 0))
    assert tuple(out.events) == opening.events
    commit = Commit(opening, PREGAME, tuple(out.states))
    first = commit.steps[0]
    assert first.before is PREGAME and isinstance(first.event, ev.GameStarted)
    assert commit.after == game.state
    assert next(walk(game.batches())).before is PREGAME


def test_resolve_steps_gives_the_state_after_each_event():
    opening = Game.new(["Ada", "Brok"], 7).batches()[0]
    events, states = resolve_steps(PREGAME, opening.command, DiceRng(7, 0))
    assert events == opening.events and states == fold_each(events)
