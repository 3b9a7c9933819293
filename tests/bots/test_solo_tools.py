"""The solo game's tools: bots that play it sensibly, replay's view of it, simulate's summary."""

import json
import os

import pytest

from core.bots import bot_rng, make_bot
from core.bots.play import bot_command
from core.bots.series import play_one
from core.bots.solo_eval import is_free, potential, value
from core.bots.solo_model import SoloModel, action_of
from core.bots.solo_search import Future, play_outs
from core.commands import EndSolo, Refill, SpendMagic, TakeDie
from core.game import Game
from core.modes.solo import events as sev
from core.modes.solo.scoring import RATINGS, rating, solo_score
from core.read.views import board_text, state_view
from core.rng import DiceRng
from core.rules.legal import LegalList, legal_commands
from replays.golden import SPECS
from tests.support.cli_helpers import run_cli
from tests.support.replay_shape import check_shape
from tests.support.solo_model import model_key

BANDS = [band for _, band in RATINGS]


@pytest.fixture(scope="module")
def solo_log(tmp_path_factory):
    """A whole solo game played by greedy, logged."""
    return play_one(["greedy"], 11, 0, out_dir=str(tmp_path_factory.mktemp("solo"))).path


def solo_games(bot: str, seeds, magic: int = 3):
    """Solo games played by ``bot``, yielding (game, command) before each command."""
    player = make_bot(bot)
    for seed in seeds:
        game = Game.new([bot], seed, mode="solo", starting_magic=magic)
        while not game.state.is_over:
            command = bot_command(game, player)
            yield game, command
            game.issue(command)


# -- replay's view of a solo game ----------------------------------------------------


def test_replay_json_of_a_solo_game_has_the_solo_block_and_flags(capsys, solo_log):
    code, out, _ = run_cli(capsys, "replay", solo_log, "--json")
    view = json.loads(out)
    assert code == 0
    check_shape(view)
    state = Game.load(solo_log).state
    result = solo_score(state)
    assert view["mode"] == "solo" and view["phase"] == "over"
    assert view["solo"] == {
        "score": result.score,
        "rating": result.rating,
        "refills_left": state.solo.refills_left,
    }
    trove = view["players"][0]["trove"]
    assert {d["id"] for d in trove if d.get("frozen")} == {d for d, _ in state.solo.frozen}
    assert {d["id"] for d in trove if d.get("neutralized")} == {
        d for d, _ in state.solo.neutralized
    }
    assert state.solo.frozen and state.solo.neutralized  # the flags were really tested
    assert all(d.get("frozen", True) is True and d.get("neutralized", True) is True for d in trove)


def test_replay_json_of_a_solo_game_at_every_stage(capsys, solo_log):
    total = Game.load(solo_log).seq
    for at in (1, 2, 3, total // 2, total):
        code, out, _ = run_cli(capsys, "replay", solo_log, "--at", at, "--json")
        view = json.loads(out)
        assert code == 0 and view["mode"] == "solo" and view["seq"] == at
        check_shape(view)
        assert set(view["solo"]) == {"score", "rating", "refills_left"}
        assert view["solo"]["rating"] == rating(view["solo"]["score"])
    first = json.loads(run_cli(capsys, "replay", solo_log, "--at", 1, "--json")[1])
    assert first["solo"] == {"score": 0, "rating": "Disaster", "refills_left": 0}


def test_a_multiplayer_state_has_no_solo_block():
    game = Game.new(["Ada", "Brok"], 3)
    assert "solo" not in state_view(game.state, game.seq)


def test_the_solo_board_shows_score_rating_refills_and_sequences(capsys, solo_log):
    state = Game.load(solo_log).state
    result = solo_score(state)
    text = board_text(state)
    name = state.names[0]
    assert f"game over: {name} scored {result.score} ({result.rating})" in text
    b = result.breakdown
    assert (
        f"{name}: score {result.score} ({result.rating}): hazards {b.hazards}, treasure "
        f"{b.treasure}, frozen {b.frozen}, tunnels {b.tunnels}; refills left "
        f"{state.solo.refills_left}"
    ) in text
    first = state.solo.sequences[0]
    shown = "-".join(state.faces[d] for d in first) + f" (dice {' '.join(map(str, first))})"
    assert f"{name} sequences: {shown}" in text
    assert "(frozen)" in text and "(neutralized)" in text
    code, out, _ = run_cli(capsys, "replay", solo_log)
    assert code == 0 and text in out


# -- the bots' model of the solo game ------------------------------------------------


@pytest.mark.parametrize("magic", [3, 1])
def test_the_bots_model_agrees_with_the_rules(magic):
    """Its legal actions are the legal commands; a take or spend leaves what the rules leave."""
    rng, greedy, steps = DiceRng(magic), make_bot("greedy"), 0
    for seed in range(8):
        game = Game.new(["x"], seed, mode="solo", starting_magic=magic)
        while not game.state.is_over:
            model = SoloModel.from_state(game.state)
            legal = list(legal_commands(game.state))
            assert set(model.actions(distinct=False)) == {action_of(c, model) for c in legal} - {
                None
            }
            command = bot_command(game, greedy)
            if rng.below(4) == 0:  # now and then a random move, to reach other positions
                command = rng.pick([c for c in legal if not isinstance(c, EndSolo)] or legal)
            game.issue(command)
            if not isinstance(command, Refill | EndSolo):
                model.apply(action_of(command, model))
                assert model_key(model) == model_key(SoloModel.from_state(game.state))
                assert model.score == solo_score(game.state).score
                steps += 1
    assert steps > 100  # many positions were compared


def test_the_valuation_counts_what_the_trove_may_still_become():
    game = Game.new(["x"], 8, mode="solo")
    model = SoloModel.from_state(game.state)
    assert model.score == 0 and potential(model) > 0 and value(model) == potential(model)
    spent = model.copy()
    spent.spend(*_a_spend(spent))
    assert potential(spent) < potential(model)  # magic in hand is worth something
    assert model_key(model) == model_key(SoloModel.from_state(game.state))  # copies are apart


def _a_spend(model):
    action = model.spends()[0]
    return action[1], action[2]


# -- the bots play the solo game sensibly --------------------------------------------


@pytest.mark.parametrize(("bot", "seeds"), [("greedy", range(12)), ("montecarlo", range(2))])
def test_solo_bots_never_stop_while_anything_can_be_done(bot, seeds):
    kinds = set()
    for game, command in solo_games(bot, seeds):
        assert command in list(legal_commands(game.state))
        assert not isinstance(command, EndSolo), "stopped while a take, spend or refill was legal"
        kinds.add(type(command))
        if isinstance(command, TakeDie):
            kinds.add("freeze" if command.freeze else "wild" if command.as_face else "take")
    assert {SpendMagic, Refill, "freeze", "wild"} <= kinds


def test_greedy_plays_solo_well_and_the_random_bot_is_its_baseline():
    greedy = [play_one(["greedy"], 3, i).totals[0] for i in range(20)]
    randoms = [play_one(["random"], 3, i).totals[0] for i in range(20)]
    assert sum(greedy) / 20 >= 20  # falling back on the multiplayer score it made about 3
    assert sum(randoms) < sum(greedy) / 4


def test_with_nothing_random_left_montecarlo_plays_out_at_least_as_well_as_greedy():
    """After the last refill a play-out is exact, and greedy's choice is among the candidates."""
    compared = 0
    for game, command in solo_games("greedy", range(6)):
        state = game.state
        model = SoloModel.from_state(state)
        if state.solo.refills_left or is_free(model, action_of(command, model)):
            continue
        legal, rng = LegalList(state), bot_rng(state, game.timeline.depth, 0)
        mine = make_bot("montecarlo").choose(state, legal, rng)
        future = [Future(DiceRng(1), 0)]
        best = play_outs(model, action_of(mine, model), future, 7)[0]
        assert best >= play_outs(model, action_of(command, model), future, 7)[0]
        compared += 1
    assert compared >= 10


def test_solo_choices_are_deterministic():
    game = Game.new(["x"], 21, mode="solo")
    for _ in range(6):
        game.issue(bot_command(game, make_bot("greedy")))
    state, depth = game.state, game.timeline.depth
    for name in ("greedy", "montecarlo"):
        first = make_bot(name).choose(state, LegalList(state), bot_rng(state, depth, 0))
        again = make_bot(name).choose(state, LegalList(state), bot_rng(state, depth, 0))
        assert first == again and first in list(legal_commands(state))


# -- simulate --players 1 -------------------------------------------------------------

SOLO_ARGS = ("--players", "1", "--bots", "greedy", "--seed", "9", "--games", "4")


def test_simulate_solo_summarises_mean_score_and_ratings(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "simulate", *SOLO_ARGS, "--json", "--out", tmp_path)
    summary = json.loads(out)
    assert code == 0 and summary["mode"] == "solo" and summary["games_per_second"] > 0
    [row] = summary["results"]
    scores = [solo_score(Game.load(tmp_path / n).state).score for n in sorted(os.listdir(tmp_path))]
    assert row["bot"] == "greedy" and row["games"] == 4 and len(scores) == 4
    assert row["mean_score"] == pytest.approx(sum(scores) / 4)
    assert list(row["ratings"]) == BANDS
    assert row["ratings"] == {band: sum(rating(s) == band for s in scores) for band in BANDS}
    code, text, _ = run_cli(capsys, "simulate", *SOLO_ARGS)
    assert code == 0 and "4 solo games" in text and "games/s" in text
    assert f"greedy: 4 games, mean solo score {sum(scores) / 4:.1f}" in text
    assert all(band in text for band in BANDS) and "46-60" in text and "71+" in text


def test_simulate_solo_logs_are_byte_identical_with_any_number_of_jobs(capsys, tmp_path):
    summaries = []
    for out, jobs in (("a", "1"), ("b", "1"), ("c", "2")):
        code, text, _ = run_cli(
            capsys, "simulate", *SOLO_ARGS, "--json", "--jobs", jobs, "--out", tmp_path / out
        )
        assert code == 0
        summaries.append(json.loads(text)["results"])
    logs = [
        {n: (tmp_path / d / n).read_bytes() for n in sorted(os.listdir(tmp_path / d))}
        for d in "abc"
    ]
    assert len(logs[0]) == 4 and logs[0] == logs[1] == logs[2]
    assert summaries[0] == summaries[1] == summaries[2]
    assert all(Game.load(tmp_path / "a" / n).state.mode == "solo" for n in logs[0])


def test_simulate_solo_takes_one_bot(capsys):
    code, out, err = run_cli(capsys, "simulate", "--players", "1", "--bots", "greedy,random")
    assert code == 2 and out == "" and "2 bots named for 1 seats" in err


# -- the golden solo game ---------------------------------------------------------------


def test_a_golden_replay_is_a_solo_game_with_every_solo_move():
    [spec] = [s for s in SPECS if s.mode == "solo"]
    game = Game.load(spec.log_path)
    assert game.state.mode == "solo" and game.state.is_over
    events = [e for _, e in game.events()]
    kinds = {type(e) for e in events}
    assert {sev.SoloMagicSpent, sev.MountainRefilled, sev.SoloGameEnded} <= kinds
    taken = [e for e in events if isinstance(e, sev.SoloDieTaken)]
    assert any(e.wild for e in taken) and any(e.chest is not None for e in taken)
    assert any(e.tool is not None for e in taken)


def test_bot_strength_solo_report_gives_bands_and_paired_differences():
    from scripts.bot_strength import solo_report

    text = solo_report({"greedy": [10, 20, 50, 71], "montecarlo": [20, 20, 60, 71]})
    greedy_row, montecarlo_row = text.splitlines()[1:3]
    assert greedy_row.split()[:3] == ["greedy", "37.75", "±27.37"]  # 1.96 x sd / sqrt(n)
    assert greedy_row.split()[3:] == ["1", "1", "0", "1", "0", "1"]  # one game per band hit
    assert montecarlo_row.split()[3:] == ["0", "2", "0", "1", "0", "1"]
    assert "montecarlo - greedy: +5.00 ± 5.66 points a game; more in 2 games, less in 0" in text
