"""The game analysis: what it values, from what it may see, and that it always says the same."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from attrs import evolve
from hypothesis import given
from hypothesis import strategies as st

from core.analysis import ANALYSIS_VERSION, analyse_log
from core.analysis import cache as kept
from core.analysis.history import history
from core.analysis.marks import accuracy, mark, thresholds
from core.analysis.text import analysis_text
from core.bots.evaluate import score_faces, tally
from core.bots.play import bot_command
from core.bots.registry import make_bot
from core.bots.valuation.worth import added, counts, score
from core.commands import EndSolo, SpendMagic
from core.dice import ALL_FACES, FACES, KIND_OF
from core.game import Game
from core.projections.statehash import state_hash
from core.read.views import walk
from tests.support.cli_helpers import game_with_undo, rewrite_log

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
SAMPLES = 6  # few futures: the tests check what the analysis is, not how good it is


@pytest.fixture(scope="module")
def two(tmp_path_factory) -> str:
    """A copy of the 2-player golden game (its analysis is kept beside it)."""
    path = tmp_path_factory.mktemp("two") / "two-players.dmlog"
    shutil.copy(REPLAYS / "two-players.dmlog", path)
    return str(path)


@pytest.fixture(scope="module")
def document(two) -> dict:
    return analyse_log(two, SAMPLES, keep=False).document


def analysis(path, **options) -> dict:
    return analyse_log(str(path), SAMPLES, keep=False, **options).document


# -- what it says -------------------------------------------------------------------


def test_every_decision_of_the_game_is_valued(two, document):
    game = Game.load(two)
    commands = game.timeline.commands()[1:]  # the opening is no one's decision
    decisions = document["decisions"]
    assert [d["played"]["command"] for d in decisions] == [c.text() for c in commands]
    for d in decisions:
        values = [c["value"] for c in d["candidates"]]
        assert values == sorted(values, reverse=True)  # best first
        assert d["best"] == {k: v for k, v in d["candidates"][0].items()}
        assert d["played"]["value"] in values and d["played"]["rank"] >= 1
        assert d["loss"] == round(d["best"]["value"] - d["played"]["value"], 2) >= 0
        assert d["mark"] == (None if d["forced"] else mark(d["loss"], "multi"))
        assert d["forced"] == (d["legal"] == 1)
        assert 0 <= d["played"]["value"] <= 100


def test_each_event_has_its_states_hash_and_every_seats_chance(two, document):
    steps = list(walk(Game.load(two).batches()))
    events = document["events"]
    assert [e["seq"] for e in events] == [s.seq for s in steps]  # no undo in this game
    assert [e["hash"] for e in events] == [state_hash(s.after) for s in steps]
    for event in events:
        assert len(event["win_chance"]) == 2 and abs(sum(event["win_chance"]) - 100) < 0.05
    winner = document["log"]["players"].index(document["result"]["winners"][0])
    assert events[-1]["win_chance"][winner] == 100.0  # over: the outcome, not an estimate
    by_seq = {d["seq"]: d for d in document["decisions"]}
    first = by_seq[min(by_seq)]
    assert first["position"] == events[first["seq"] - 1]["hash"]


def test_the_summary_counts_each_seats_decisions_and_marks(document):
    for seat in document["summary"]:
        mine = [d for d in document["decisions"] if d["seat"] == seat["seat"]]
        chosen = [d for d in mine if not d["forced"]]
        assert seat["decisions"] == len(mine) and seat["choices"] == len(chosen)
        assert seat["blunders"] == sum(d["mark"] == "blunder" for d in chosen)
        assert seat["accuracy"] == round(sum(d["accuracy"] for d in chosen) / len(chosen), 1)
        losses = sorted((d["loss"] for d in chosen if d["loss"] > 0), reverse=True)
        assert [b["loss"] for b in seat["biggest"]] == losses[:3]


def test_marks_and_accuracy_follow_the_documented_thresholds():
    assert thresholds("multi") == {"inaccuracy": 4.0, "mistake": 8.0, "blunder": 15.0}
    assert thresholds("solo") == {"inaccuracy": 1.6, "mistake": 3.2, "blunder": 6.0}
    assert [mark(x, "multi") for x in (3.99, 4, 8, 14.9, 15)] == [
        None,
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
    ]
    assert mark(6, "solo") == "blunder" and mark(1.5, "solo") is None
    assert round(accuracy(0, "multi"), 1) == 100.0
    assert round(accuracy(15, "multi"), 1) == 50.5 and accuracy(200, "multi") == 0.0
    assert accuracy(2, "solo") == accuracy(5, "multi")


def test_stopping_a_solo_game_at_once_is_a_blunder(tmp_path):
    path = tmp_path / "solo.dmlog"
    game = Game.new(["Ada"], seed=3, mode="solo", log=str(path), sync=False)
    game.issue(EndSolo(0))
    game.close()
    document = analysis(path)
    (stop,) = document["decisions"]
    assert stop["played"]["words"] == "stop digging" and stop["played"]["value"] == 0
    assert stop["mark"] == "blunder" and stop["best"]["value"] > 6
    assert document["events"][-1]["expected_score"] == document["result"]["score"] == 0


def test_the_words_are_the_boards(document):
    takes = [d for d in document["decisions"] if d["played"]["command"].startswith("take")]
    assert all(d["played"]["words"].startswith("take die ") for d in takes)
    assert any("from row " in d["played"]["words"] for d in takes)
    spends = [d for d in document["decisions"] if d["played"]["command"].startswith("spend")]
    assert spends and all(" to reroll " in d["played"]["words"] for d in spends)
    heroes = [d for d in document["decisions"] if d["phase"] == "setup"]
    assert all(d["played"]["words"].startswith("choose the ") for d in heroes)


def test_the_text_names_each_seat_and_its_biggest_losses(document):
    text = analysis_text(document, "two-players.dmlog")
    assert text.startswith("two-players.dmlog: a 2-player game")
    for seat in document["summary"]:
        assert f"{seat['player']} (seat {seat['seat']}): accuracy" in text
        for move in seat["biggest"]:
            assert f"event {move['seq']}, round {move['round']}" in text
            assert f"played: {move['played']['words']}" in text
    assert "Marks by the points of win chance" in text


# -- what it may see ----------------------------------------------------------------


def test_same_log_same_options_same_bytes(two, document):
    again = analysis(two)
    assert kept.dumps(again) == kept.dumps(document)
    assert kept.dumps(analysis(two, jobs=2)) == kept.dumps(document)


def test_a_decision_is_valued_without_the_dice_that_came_after_it(two, tmp_path):
    """Two logs alike but for the dice one magic spend rolled: every decision up to that
    spend (the spend included) is valued the same; the one after it sees other dice."""
    batches = Game.load(two).batches()
    index = next(
        i
        for i, b in enumerate(batches)
        if isinstance(b.command, SpendMagic) and len(b.events) == 1 and b.events[0].rolls
    )
    spend = batches[index]
    rolls = tuple(
        (d, next(f for f in FACES[KIND_OF[d]] if f != face)) for d, face in spend.events[0].rolls
    )
    other = tmp_path / "other-rolls.dmlog"

    def reroll(found):
        found[index] = evolve(spend, events=(evolve(spend.events[0], rolls=rolls),))
        return found

    rewrite_log(two, other, reroll)
    mine, theirs = analysis(two)["decisions"], analysis(other)["decisions"]
    before = [d for d in mine if d["seq"] <= spend.seq]
    assert before and before[-1]["seq"] == spend.seq  # the spend itself is among them
    assert [d for d in theirs if d["seq"] <= spend.seq] == before
    after = next(d for d in mine if d["seq"] > spend.seq)
    changed = next(d for d in theirs if d["seq"] == after["seq"])
    assert changed["position"] != after["position"]  # the other rolls did reach the state


def test_undone_commands_are_not_decisions(tmp_path):
    """A game with two commands undone is analysed as the game its commands left."""
    undone = game_with_undo(tmp_path / "undo.dmlog")
    undone.close()
    straight = Game.new(["Ada", "Brok"], 21, log=str(tmp_path / "straight.dmlog"), sync=False)
    for command in undone.timeline.commands()[1:]:
        straight.issue(command)
    straight.close()
    with_undo = analysis(tmp_path / "undo.dmlog")
    without = analysis(tmp_path / "straight.dmlog")

    def values(document):
        return [{k: v for k, v in d.items() if k != "seq"} for d in document["decisions"]]

    assert values(with_undo) == values(without) and values(without)
    assert [u["undo"] for u in with_undo["undone"]] == [False, False, True, True]
    assert without["undone"] == []
    effective = {e["seq"] for e in with_undo["events"]}
    assert not effective & {s for u in with_undo["undone"] for s in range(u["seq"], u["end"])}


# -- kept beside the log -----------------------------------------------------------


def test_the_analysis_is_kept_read_back_and_recomputed_for_a_changed_log(tmp_path):
    path = tmp_path / "live.dmlog"
    game = Game.new(["Ada", "Brok"], 8, log=str(path), sync=False)
    bots = [make_bot("greedy"), make_bot("greedy")]
    for _ in range(6):
        game.issue(bot_command(game, bots[game.to_act()]))
    game.close()

    first = analyse_log(str(path), SAMPLES)
    assert not first.cached and Path(first.path).is_file()
    assert os.path.basename(first.path).startswith(f"live.dmlog.analysis-v{ANALYSIS_VERSION}-")
    assert json.loads(Path(first.path).read_text()) == first.document
    assert first.document["result"]["over"] is False  # a log still being played

    marked = dict(first.document, unit="read from the kept file")
    kept.store(first.path, marked)  # proof that the second look reads the file
    second = analyse_log(str(path), SAMPLES)
    assert second.cached and second.path == first.path and second.document == marked

    other = analyse_log(str(path), SAMPLES + 1)  # other options: another file
    assert not other.cached and other.path != first.path

    Path(first.path).write_text("{not json")  # a damaged kept file is computed again
    third = analyse_log(str(path), SAMPLES)
    assert not third.cached and third.document == first.document

    with Game.open(path, sync=False) as game:  # the game goes on: the log changes
        game.issue(bot_command(game, bots[game.to_act()]))
    fourth = analyse_log(str(path), SAMPLES)
    assert not fourth.cached and fourth.path != first.path
    assert len(fourth.document["decisions"]) == len(first.document["decisions"]) + 1
    assert fourth.document["decisions"][:-1] == first.document["decisions"]


def test_a_kept_file_of_another_log_is_not_believed(tmp_path, two, document):
    path = tmp_path / "copy.dmlog"
    shutil.copy(two, path)
    sha = document["log"]["sha256"]
    options = analyse_log(str(path), SAMPLES, keep=False).document["options"]
    from core.analysis.judge import Options

    where = kept.cache_path(str(path), sha, Options(**options))
    kept.store(where, dict(document, log=dict(document["log"], sha256="0" * 64)))
    outcome = analyse_log(str(path), SAMPLES)
    assert not outcome.cached and outcome.document["log"]["sha256"] == sha


def test_history_lists_the_effective_commands_in_order(two):
    hist = history(Game.load(two).batches())
    depths = [d.depth for d in hist.decisions]
    assert depths == list(range(2, 2 + len(depths)))
    assert all(d.before is not None and d.after is not None for d in hist.decisions)
    assert hist.final == Game.load(two).state and hist.opening.seq == 0


def test_the_futures_are_drawn_from_streams_no_command_rolls_from():
    """The game rolls command ``d``'s dice from stream ``d`` and a bot draws from its own;
    a future drawn from either could be the roll that came."""
    from core.analysis.sampling import ANALYSIS_STREAMS, decision_rng
    from core.bots.base import bot_rng
    from core.rng import DiceRng

    state = Game.load(REPLAYS / "two-players.dmlog").state
    for depth in (1, 2, 57, 10**6):
        ours = decision_rng(state.seed, depth).next_u64()
        assert ours != DiceRng(state.seed, depth).next_u64()
        assert all(ours != bot_rng(state, depth, seat).next_u64() for seat in range(4))
    assert ANALYSIS_STREAMS >> 61 == 3


@given(
    faces=st.lists(st.sampled_from(sorted(ALL_FACES)), max_size=25),
    extra=st.sampled_from(sorted(ALL_FACES)),
    rival=st.integers(min_value=0, max_value=12),
)
def test_the_worth_counts_score_as_the_bots_tally(faces, extra, rival):
    """``worth.score`` over counts is ``score_faces`` (plus the magic weight), face for face."""
    points, gems = tally(faces, 0.75)
    assert score(counts(faces), rival, 0.75) == (points + gems if gems > rival else points)
    assert score(counts(faces), rival, 0) == score_faces(faces, rival)
    assert score(added(counts(faces), extra), rival, 0) == score_faces([*faces, extra], rival)


# -- the table's commands ---------------------------------------------------------------


def test_the_tables_commands_are_no_ones_decisions(tmp_path):
    """A revealed secret and a branch's fact are valued by nobody; their events carry the
    chances of the position they left, which is the one before them."""
    from core.branch import branch_game, branch_points
    from core.commands import BranchGame, RevealSeed

    game = Game.new(["Ada", "Brok"], secret=bytes(range(32)))
    bots = [make_bot("greedy"), make_bot("greedy")]
    while not game.state.is_over:
        game.issue(bot_command(game, bots[game.to_act()]))
    game.reveal()
    revealed = tmp_path / "revealed.dmlog"
    revealed.write_bytes(game.export())
    at = branch_points(game.batches())[30]
    branched = tmp_path / "branched.dmlog"
    branched.write_bytes(branch_game(game.export(), at, "same").export())
    for path, table in ((revealed, RevealSeed), (branched, BranchGame)):
        document = analysis(path)
        played = [d["played"]["command"] for d in document["decisions"]]
        commands = [batch.command for batch in Game.load(path).batches()[1:]]  # no undo
        assert played == [c.text() for c in commands if not c.BY_TABLE]
        assert any(isinstance(c, table) for c in commands)
        fact = next(e for e in document["events"] if e["type"] in ("SeedRevealed", "GameBranched"))
        before = document["events"][document["events"].index(fact) - 1]
        assert fact["win_chance"] == before["win_chance"]


def test_an_analysis_kept_by_an_older_version_is_not_read_as_new(tmp_path, two, document):
    """Version 5 corrects the later rounds by what the expert's own games taught: a kept
    version 4 is stale, found neither by its own name nor planted under the new one."""
    from core.analysis.judge import Options

    assert ANALYSIS_VERSION == 5
    path = tmp_path / "old.dmlog"
    shutil.copy(two, path)
    sha = document["log"]["sha256"]
    where = kept.cache_path(str(path), sha, Options(**document["options"]))
    assert os.path.basename(where).startswith("old.dmlog.analysis-v5-")
    older = dict(document, analysis=4, unit="what version 4 said")
    kept.store(where.replace(".analysis-v5-", ".analysis-v4-"), older)
    kept.store(where, older)
    outcome = analyse_log(str(path), SAMPLES)
    assert not outcome.cached
    assert outcome.document["analysis"] == 5 and outcome.document["unit"] == "win chance (percent)"


def test_a_tables_moves_are_valued_as_the_expert_values_them(two):
    """Best first by the expert's valuation (the win chance with montecarlo's opinion,
    ``blend.on_chance_scale``), within the win chances' range; somewhere its order
    differs from the win chances' alone."""
    from core.analysis.judge import Options, Task, judge

    hist = history(Game.load(two).batches())
    differs = 0
    for d in hist.decisions[:24]:
        j = judge(Task(d.before, d.command, d.depth), Options(SAMPLES))
        seat = d.before.to_act()
        values = [v.value for v in j.candidates]
        chances = [v.chances[seat] for v in j.candidates]
        assert values == sorted(values, reverse=True)
        assert min(chances) - 1e-9 <= min(values) <= max(values) <= max(chances) + 1e-9
        differs += max(chances) > chances[0]
    assert differs > 0
