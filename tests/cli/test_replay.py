"""``dice-miner replay``: the state after N events, as a board or in the documented JSON shape."""

import json

import pytest
from attrs import evolve

from core.dice import DIE_COUNT
from core.game import Game
from core.modes.multiplayer.events import DieTaken
from tests.support.cli_helpers import game_with_undo, recorded_game, rewrite_log, run_cli
from tests.support.replay_shape import check_shape


@pytest.fixture(scope="module")
def good_log(tmp_path_factory):
    return recorded_game(tmp_path_factory.mktemp("replay"), bots=("greedy", "greedy", "random"))


def test_replay_json_of_a_finished_game(capsys, good_log):
    code, out, _ = run_cli(capsys, "replay", good_log, "--json")
    view = json.loads(out)
    assert code == 0
    check_shape(view)
    game = Game.load(good_log)
    assert view["seq"] == game.seq and view["phase"] == "over" and view["round"] == 3
    assert view["winner"] == game.state.names[game.state.winners[0]]
    assert [len(p["round_scores"]) for p in view["players"]] == [3, 3, 3]
    assert [p["total"] for p in view["players"]] == list(game.state.totals())


def test_replay_at_every_stage_has_the_documented_shape(capsys, good_log):
    total = Game.load(good_log).seq
    for at in (1, 8, 9, 30, total // 2, total - 1):
        code, out, _ = run_cli(capsys, "replay", good_log, "--at", at, "--json")
        view = json.loads(out)
        assert code == 0 and view["seq"] == at
        check_shape(view)
    early = json.loads(run_cli(capsys, "replay", good_log, "--at", 1, "--json")[1])
    assert early["phase"] == "setup" and len(early["bag"]) == DIE_COUNT and early["winner"] is None


def test_replay_board_text(capsys, good_log):
    code, out, _ = run_cli(capsys, "replay", good_log, "--at", 20)
    assert code == 0
    assert "after 20 of" in out and "round 1, excavation" in out
    assert all(f"row {r}:" in out for r in range(5)) and "bag: 40 dice" in out
    assert out.count(" trove: ") == 3 and "*" in out  # top dice are marked


def test_replay_after_undos_matches_the_live_game(capsys, tmp_path):
    path = tmp_path / "undo.dmlog"
    game = game_with_undo(path)
    game.close()
    view = json.loads(run_cli(capsys, "replay", path, "--json")[1])
    assert [[d["id"] for d in p["trove"]] for p in view["players"]] == [
        list(t) for t in game.state.troves
    ]


@pytest.mark.parametrize("at", ["0", "100000", "-3", "x"])
def test_replay_refuses_an_impossible_point(capsys, good_log, at):
    code, out, err = run_cli(capsys, "replay", good_log, "--at", at)
    assert code == 2 and out == ""
    assert "--at" in err


def test_replay_of_events_that_do_not_fit_is_a_one_line_error(capsys, good_log, tmp_path):
    forged = tmp_path / "forged.dmlog"

    def change(batches):
        for i, batch in enumerate(batches):
            if isinstance(batch.events[0], DieTaken):
                events = (evolve(batch.events[0], row=9), *batch.events[1:])
                batches[i] = evolve(batch, events=events)
                return batches
        raise AssertionError("no DieTaken")

    rewrite_log(good_log, forged, change)
    for argv in (["replay", forged], ["log", "show", forged]):
        code, _, err = run_cli(capsys, *argv)
        assert code == 2 and "cannot be replayed" in err and len(err.strip().splitlines()) == 1


def test_replay_at_0_is_refused_by_the_argument_itself(capsys, good_log):
    """No state comes before the first event: --at counts from 1, and its check says so."""
    code, out, err = run_cli(capsys, "replay", good_log, "--at", "0")
    assert code == 2 and out == "" and "--at: must be at least 1" in err


def test_the_board_names_the_last_event_folded_as_log_show_prints_it(capsys, tmp_path):
    """--at N ends with event N-1 of ``log show``: the header says which, undone or not."""
    path = tmp_path / "undo.dmlog"
    game_with_undo(path).close()
    shown = run_cli(capsys, "log", "show", path)[1].splitlines()
    for at in (1, 9, 10, len(shown)):
        code, out, _ = run_cli(capsys, "replay", path, "--at", at)
        head, last = out.splitlines()[:2]
        assert code == 0 and head.endswith(f"after {at} of {len(shown)} events; the last of them:")
        assert last == shown[at - 1]
    assert any("(undone by event" in shown[at - 1] for at in (9, 10))
