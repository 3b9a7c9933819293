"""The analysis in the terminal, without a terminal: the hint key's best moves and the review
of a finished game, checked against ``core.analysis`` (``tests/cli/tmux/test_analysis.py`` drives
both on a real screen)."""

from __future__ import annotations

import asyncio

import pytest

from core.analysis.judge import Options, Task, judge
from core.analysis.words import move_words
from core.commands import TakeDie
from core.game import Game
from core.projections.statehash import state_hash
from frontends.cli.tui import analysis_view
from frontends.cli.tui.hints import hint_moves
from frontends.cli.tui.review import Review, Stopped, analyse
from frontends.cli.tui.session import Session
from frontends.cli.tui.table import Seat, bot_seat
from tests.support.games import play
from tests.support.tui import SEATS, advance, running, session_for, step, until

SAMPLES = 8  # few futures: quick, and the values are still the analysis's own


def text_of(fragments) -> str:
    return "".join(f[1] for f in fragments)


def taking(seed: int = 5, **options) -> Session:
    session = Session(Game.new([s.name for s in SEATS], seed), SEATS, **options)
    assert advance(session, lambda s: s.chooser.mode() == "take")
    return session


# -- the hint --------------------------------------------------------------------------


def test_a_hint_is_the_analysis_of_the_position_best_first():
    session = taking(samples=SAMPLES)
    hint = session.ask_hint()
    assert hint is not None and hint.moves is None  # thinking
    assert "thinking" in text_of(analysis_view.hint(session, 100))
    moves = hint_moves(hint.state, hint.depth, session.names, SAMPLES)
    assert session.hint_done(hint, moves)
    judged = judge(Task(session.state, None, session.game.timeline.depth + 1), Options(SAMPLES))
    assert [m.words for m in moves] == [
        move_words(session.state, v.command) for v in judged.candidates[:3]
    ]
    assert [m.value for m in moves] == [
        f"{100 * v.value:.0f}% to win" for v in judged.candidates[:3]
    ]
    legal = session.legal()
    assert all(session.parse(m.typed) in legal for m in moves)  # each can be typed as shown
    shown = text_of(analysis_view.hint(session, 100))
    assert "your best moves" in shown and f"1. {moves[0].words}" in shown
    assert f"(:{moves[0].typed})" in shown
    session.ask_hint()  # t again hides it
    assert session.hint is None and analysis_view.hint(session, 100) == []


def test_a_move_made_while_the_hint_is_thought_out_drops_it():
    session = taking(samples=SAMPLES)
    hint = session.ask_hint()
    session.chooser.choose()  # the person moves first
    assert session.hint is None
    assert not session.hint_done(hint, hint_moves(hint.state, hint.depth, session.names, SAMPLES))
    assert session.hint is None


def test_the_hint_gives_the_values_the_review_gives_that_decision():
    """The same futures (the analysis's stream for that place in the history): the value of
    the move played, hinted before it, is the one the review gives it."""
    session = taking(seed=7, samples=SAMPLES)
    hint = session.ask_hint()
    moves = hint_moves(hint.state, hint.depth, session.names, SAMPLES)
    best = session.parse(moves[0].typed)
    session.issue(best)
    document = analyse(session.game, None, SAMPLES, Review())
    decision = next(d for d in document["decisions"] if d["position"] == state_hash(hint.state))
    assert decision["played"]["words"] == moves[0].words
    assert f"{decision['played']['value']:.0f}% to win" == moves[0].value


def test_hints_are_off_at_one_keyboard_unless_asked_for():
    people = (Seat("Ada"), Seat("Bo"), bot_seat("Cira", "random"))
    names = [s.name for s in people]
    session = Session(Game.new(names, 3), people)
    assert advance(session, lambda s: True)  # a person's turn, the keyboard handed over
    assert session.ask_hint() is None and session.status_kind == "error"
    assert session.status == "Hints are off when people share the keyboard (play --hints)."
    asked = Session(Game.new(names, 3), people, hints=True)
    assert advance(asked, lambda s: True)
    assert asked.ask_hint() is not None


def test_a_hint_is_for_the_persons_own_turn():
    session = session_for(5)
    assert session.bot_to_act() is not None or session.human_to_act() is not None
    while session.bot_to_act() is None:
        step(session)
    assert session.ask_hint() is None and session.status.startswith("A hint is for your turn")


# -- the review ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def finished():
    """A finished 3-player game (random bots at every seat, the person's too) and its analysis."""
    game = play(Game.new([s.name for s in SEATS], 11))
    return game, analyse(game, None, SAMPLES, Review())


def test_the_review_walks_each_seats_biggest_mistakes_on_the_board(finished):
    game, document = finished
    session = Session(game, SEATS, samples=SAMPLES)
    assert session.overlay == "over"
    review = session.open_review()
    assert review is not None and session.overlay == "review" and review.items is None
    assert "analysing the game" in text_of(analysis_view.review(session, 100))
    session.review_ready(review, document)
    decisions = {d["seq"]: d for d in document["decisions"]}
    expected = [(s["seat"], m["seq"]) for s in document["summary"] for m in s["biggest"]]
    assert expected and [i.seat for i in review.items] == [seat for seat, _ in expected]
    for n, (seat, seq) in enumerate(expected):
        assert review.index == n
        item = review.item
        decision = decisions[seq]
        # the board shows the position the move was made from
        assert state_hash(session.state) == decision["position"]
        assert session.state.to_act() == seat
        assert item.loss == decision["loss"] and item.mark == decision["mark"]
        shown = text_of(analysis_view.review(session, 200))
        assert f"played: {decision['played']['words']}" in shown
        assert f"best:   {decision['best']['words']}" in shown
        assert f"{decision['loss']:.1f} points of win chance lost" in shown
        assert f"{session.names[seat]}: accuracy" in shown
        marks = session.review_marks()
        if isinstance(item.best, TakeDie):
            assert marks[item.best.die] == "best"
        if isinstance(item.played, TakeDie):
            assert marks[item.played.die] == "played"
        session.review_step(1)
    assert review.index == len(expected) - 1  # the last step stays the last
    session.review_step(-100)
    assert review.index == 0
    session.back()  # Esc
    assert session.review is None and session.overlay == "over"
    assert session.state is game.state and session.review_marks() == {}
    assert session.open_review() is None and session.review is review  # kept, not analysed again


def test_the_review_opens_only_once_the_game_is_over():
    session = taking()
    assert session.open_review() is None and session.review is None
    assert session.status == "The review opens once the game is over."


def test_closing_the_review_stops_the_analysis_at_the_next_position():
    game = play(Game.new([s.name for s in SEATS], 11))
    review = Review()
    review.stop()
    with pytest.raises(Stopped):
        analyse(game, None, SAMPLES, review)
    assert review.progress[0] == 0 and review.progress[1] > 50


def test_the_screen_keeps_answering_keys_while_a_hint_is_thought_out(tmp_path):
    """With many futures a hint takes seconds (the hero choice, 4,096 futures: about 2 s):
    the cursor still moves meanwhile, and a move made then drops the hint unshown."""

    async def scenario():
        path = tmp_path / "game.dmlog"
        game = Game.new([s.name for s in SEATS], 7, log=path, sync=False)
        session = Session(game, SEATS, path, samples=4096)
        async with running(session) as player:
            await until(lambda: session.chooser.mode() == "hero")
            player.pipe.send_text("t")
            await until(lambda: session.hint is not None)
            hint = session.hint
            assert hint.moves is None  # thinking
            cursor = session.chooser.cursor
            await player.press("j")
            assert session.chooser.cursor != cursor  # the key was answered meanwhile
            assert session.hint is hint and hint.moves is None  # still thinking
            await player.press("3")  # choose the Engineer
            assert session.hint is None and session.state.heroes[0] == "Engineer"
        return session

    session = asyncio.run(scenario())
    assert session.hint is None  # the result that came later was dropped
    session.game.close()


def test_a_solo_hint_values_moves_by_the_expected_final_score():
    session = Session(Game.new(["You"], 5, mode="solo"), (Seat("You"),), samples=SAMPLES)
    hint = session.ask_hint()
    moves = hint_moves(hint.state, hint.depth, session.names, SAMPLES)
    assert moves and all(m.value.endswith(" points expected") for m in moves)
    values = [float(m.value.split()[0]) for m in moves]
    assert values == sorted(values, reverse=True)
