"""The expert bot: legal, deterministic, blind to the dice to come, and ahead of greedy solo."""

import pytest
from attrs import evolve

from core.bots import bot_rng, make_bot
from core.bots.expert import ExpertBot
from core.bots.expert_multi import ExpertSettings
from core.bots.expert_solo import weigh
from core.bots.montecarlo import WEIGHED_PHASES
from core.bots.multi_value import Future, later_rounds
from core.bots.play import bot_command, play_game
from core.bots.registry import DEFAULT_LEVEL, LEVELS, MEASURED, levels_help, parse_bots
from core.bots.series import lineup, play_one
from core.bots.solo_eval import FREE, solo_ranked
from core.bots.solo_model import SoloModel
from core.bots.solo_search import shortlist
from core.bots.valuation.excavation import play_out, seat_worths, tastes
from core.bots.valuation.multi import MultiJudge
from core.commands import Refill, TakeDie
from core.dice import BEER
from core.game import Game
from core.modes.solo.events import MountainRefilled
from core.mountain import remove, slide_run, top_slots
from core.projections.state import EXCAVATION, MAGIC
from core.rng import derive_seed
from core.rules.legal import LegalList, legal_commands
from frontends.cli.tui.table import default_bot
from scripts import bot_strength, expert_screen, solo_limit
from scripts.bot_strength import decision_times, timing_report
from tests.support.solo_model import model_key


def expert_solo_positions(seed: int, count: int):
    """The first ``count`` solo positions of a game where the expert has a real choice
    (not greedy's free take), with the game's depth there; the expert plays the game."""
    game, expert, found = Game.new(["x"], seed, mode="solo"), make_bot("expert"), []
    while not game.state.is_over and len(found) < count:
        state = game.state
        _, ranked = solo_ranked(state, LegalList(state))
        if ranked and ranked[0][0] != FREE:
            found.append((state, game.timeline.depth))
        game.issue(bot_command(game, expert))
    return found


def test_the_experts_solo_choices_are_legal_and_deterministic():
    for state, depth in expert_solo_positions(31, 6):
        first = make_bot("expert").choose(state, LegalList(state), bot_rng(state, depth, 0))
        again = make_bot("expert").choose(state, LegalList(state), bot_rng(state, depth, 0))
        assert first == again and first in list(legal_commands(state))


def test_the_expert_does_not_see_the_dice_to_come():
    """A seeded game's dice to come follow from its seed; the expert, given the same
    generator, chooses the same in a position alike but for the seed (other dice to come)."""
    compared = 0
    for state, depth in expert_solo_positions(32, 5):
        if not state.solo.refills_left:
            continue
        other = evolve(state, seed=state.seed ^ 0x5EED)
        mine = make_bot("expert").choose(state, LegalList(state), bot_rng(state, depth, 0))
        theirs = make_bot("expert").choose(other, LegalList(other), bot_rng(state, depth, 0))
        assert mine == theirs
        compared += 1
    assert compared >= 3


def test_successive_halving_plays_the_finalists_on_every_future():
    state, depth = expert_solo_positions(33, 1)[0]
    m, ranked = solo_ranked(state, LegalList(state))
    actions = shortlist(ranked, 10)
    weighed = weigh(m, actions, bot_rng(state, depth, 0), samples=16)
    played = sorted(n for _, n, _ in weighed)
    assert played[0] >= min(4, played[-1]) and played[-1] == (16 if state.solo.refills_left else 1)
    assert len(actions) < 3 or played[0] < played[-1] or not state.solo.refills_left


def test_the_expert_outscores_greedy_solo():
    """A smoke test over four seeded games (the measurement is scripts/bot_strength.py)."""
    expert = [play_one(["expert"], 3, i).totals[0] for i in range(4)]
    greedy = [play_one(["greedy"], 3, i).totals[0] for i in range(4)]
    assert sum(expert) > sum(greedy)


def expert_table_positions(seed: int, players: int, count: int):
    """Up to ``count`` positions of a table game where seat 0 (the expert, against
    greedy) is to act in a phase it weighs, with the game's depth there."""
    game = Game.new([f"p{s}" for s in range(players)], seed)
    bots = [make_bot("expert")] + [make_bot("greedy")] * (players - 1)
    found = []
    while not game.state.is_over and len(found) < count:
        state = game.state
        if state.to_act() == 0 and state.phase in WEIGHED_PHASES:
            found.append((state, game.timeline.depth))
        game.issue(bot_command(game, bots[state.to_act()]))
    return found


def test_at_a_table_the_expert_plays_legally_and_deterministically():
    positions = expert_table_positions(41, 2, 24) + expert_table_positions(42, 4, 8)
    phases = {state.phase for state, _ in positions}
    assert {EXCAVATION, MAGIC} <= phases
    for state, depth in positions:
        rng = bot_rng(state, depth, 0)
        first = make_bot("expert").choose(state, LegalList(state), rng)
        again = make_bot("expert").choose(state, LegalList(state), bot_rng(state, depth, 0))
        assert first == again and first in list(legal_commands(state))


def test_at_a_table_the_expert_does_not_see_the_dice_to_come():
    """Positions alike but for the seed the dice to come follow from (the bag's draws,
    every reroll): given the same generator, the expert chooses the same."""
    compared = 0
    for state, depth in expert_table_positions(43, 2, 10):
        other = evolve(state, seed=state.seed ^ 0x5EED)
        mine = make_bot("expert").choose(state, LegalList(state), bot_rng(state, depth, 0))
        theirs = make_bot("expert").choose(other, LegalList(other), bot_rng(state, depth, 0))
        assert mine == theirs
        compared += 1
    assert compared >= 8


def test_at_a_table_the_expert_is_ahead_of_greedy():
    """A smoke test over a few seeded 2-player games, seats rotating (the measurement
    is scripts/bot_strength.py)."""
    results = [play_one(["expert", "greedy"], 3, i, rotate=True) for i in range(4)]
    wins = sum(1 / len(r.winners) for r in results for s in r.winners if r.bots[s] == "expert")
    lead = sum(r.totals[r.bots.index("expert")] - r.totals[r.bots.index("greedy")] for r in results)
    assert wins >= 3 and lead > 0


def test_a_2ply_play_out_gives_the_next_seat_the_answer_weighed():
    """``play_out(reply=j)``: the next seat's first pick is its j-th best die by worth
    alone (the answers the expert's 2-ply search weighs), the rest as before."""
    checked = 0
    for state, depth in expert_table_positions(44, 2, 30):
        beer_next = any(state.faces[d] == BEER for d in state.troves[1])
        if state.phase != EXCAVATION or state.picks_left > 1 or beer_next:
            continue
        rng = bot_rng(state, depth, 0)
        futures = [Future(state, rng, later_rounds(state), magic_now=True) for _ in range(8)]
        worths = seat_worths(MultiJudge(samples=8), state, futures)
        taste = tastes(rng, state.players)
        take = next(c for c in LegalList(state) if isinstance(c, TakeDie))
        k = state.mountain.index(take.die)
        mountain = remove(state.mountain, k, slide_run(state.mountain, k))
        if not any(d is not None for d in mountain):
            continue
        ranked = sorted(top_slots(mountain), key=lambda k: (-worths[1](mountain[k]), k))
        for j in range(3):
            gains, _ = play_out(state, 0, mountain, [take.die], worths, taste, reply=j)
            assert gains[0][0] == take.die
            assert gains[1][0] == mountain[ranked[min(j, len(ranked) - 1)]]
        free, _ = play_out(state, 0, mountain, [take.die], worths, taste)
        assert sum(map(len, free.values())) == sum(map(len, gains.values()))
        checked += 1
    assert checked >= 5


def test_the_expert_with_a_2ply_search_plays_legally_deterministically_and_blind():
    expert = ExpertBot(ExpertSettings(replies=2, samples=16, variants=4))
    for state, depth in expert_table_positions(45, 2, 8):
        first = expert.choose(state, LegalList(state), bot_rng(state, depth, 0))
        again = expert.choose(state, LegalList(state), bot_rng(state, depth, 0))
        other = evolve(state, seed=state.seed ^ 0x5EED)
        blind = expert.choose(other, LegalList(other), bot_rng(state, depth, 0))
        assert first == again == blind and first in list(legal_commands(state))


# -- choosing an opponent by strength -------------------------------------------------


def test_levels_name_kinds_and_a_game_records_the_kind():
    assert parse_bots("hard,easy", 3) == ["montecarlo", "random", "montecarlo"]
    assert parse_bots("greedy,expert", 2) == ["greedy", "expert"]  # the old names still work
    assert [make_bot(level).name for level in LEVELS] == [
        "random",
        "greedy",
        "montecarlo",
        "expert",
    ]
    assert LEVELS[DEFAULT_LEVEL] == "greedy" == default_bot()  # a newcomer can beat it sometimes
    with pytest.raises(ValueError, match=r"unknown bot 'clever'; choose from easy \(random\)"):
        parse_bots("clever", 2)


def test_the_help_names_each_level_with_what_it_was_measured_to_do():
    text = levels_help()
    for level, kind in LEVELS.items():
        assert level in text and MEASURED[kind] in text
    assert "%" not in text  # argparse help would read it as a format


# -- the model's refill, which the expert imagines, agrees with the rules -------------


def test_the_models_refill_places_what_the_rules_place():
    """Given the dice the game drew (in order) and their faces, the model's refill leaves
    the position the rules leave: the expert's imagined refills are refills by the rules."""
    compared, greedy = 0, make_bot("greedy")
    for seed in range(8):
        game = Game.new(["x"], seed, mode="solo")
        while not game.state.is_over:
            command = bot_command(game, greedy)
            if not isinstance(command, Refill):
                game.issue(command)
                continue
            model = SoloModel.from_state(game.state)
            commit = game.issue(command)
            (placed,) = [e.placements for e in commit.events if isinstance(e, MountainRefilled)]
            drawn = [die for die, _, _, _ in placed]
            faces = list(model.faces)
            for die, _, _, face in placed:
                faces[die] = face
            model.refill(lambda bag, drawn=drawn: drawn + [d for d in bag if d not in drawn], faces)
            assert model_key(model) == model_key(SoloModel.from_state(game.state))
            compared += 1
    assert compared >= 8


# -- the measurement tools ------------------------------------------------------------


def test_bot_strength_times_every_decision_of_each_kind():
    times = decision_times(["greedy", "random"], 5, 2)
    commands = 0
    for i in range(2):
        bots = [make_bot(kind) for kind in lineup(["greedy", "random"], i, rotate=True)]
        game = Game.new(["p0", "p1"], derive_seed(5, i))
        play_game(game, bots)
        commands += game.timeline.depth - 1  # the first command set the game up
    assert all(min(times[kind]) >= 0 for kind in ("greedy", "random"))
    assert len(times["greedy"]) + len(times["random"]) == commands
    lines = timing_report(times, 2).splitlines()
    assert lines[1].split() == ["bot", "decisions", "median", "mean", "p95"]
    assert lines[2].split()[:2] == ["greedy", str(len(times["greedy"]))]


def test_bot_strength_prints_the_three_tables_with_intervals_and_times(capsys):
    assert bot_strength.main(["--tables", "greedy", "--games", "2", "--timing", "1"]) == 0
    out = capsys.readouterr().out
    assert "2 solo games per bot" in out
    assert "2 games of 2 players (greedy, montecarlo)" in out
    assert "2 games of 4 players (greedy, montecarlo, montecarlo, montecarlo)" in out
    assert out.count("95% interval") == 2 and out.count("median") == 3


def test_solo_limit_sets_the_expert_beside_a_clairvoyant_and_the_dices_ceiling(capsys):
    assert solo_limit.main(["--games", "2", "--seed", "4", "--width", "6"]) == 0
    out = capsys.readouterr().out
    means = {line.split()[0]: float(line.split()[1]) for line in out.splitlines()[2:5]}
    assert list(means) == ["greedy", "expert", "clairvoyant"]
    assert "expert / clairvoyant:" in out and "the dice's ceiling:" in out
    ceilings = [solo_limit.ceiling(derive_seed(4, i)) for i in range(2)]
    assert sum(ceilings) / 2 >= max(means.values())  # the dice hold more than anyone took


def test_the_expert_screen_reads_settings_and_pairs_the_games(tmp_path):
    assert expert_screen.settings("base") == ExpertSettings()
    assert expert_screen.settings("replies=3,blend=0.5") == ExpertSettings(replies=3, blend=0.5)
    with pytest.raises(ValueError, match="no setting 'width'"):
        expert_screen.settings("width=3")
    found = {
        "base": {0: (1.0, 5, [10.0]), 1: (0.0, -3, [12.0]), 2: (0.5, 0, [11.0])},
        "replies=2": {0: (1.0, 7, [20.0]), 1: (1.0, 2, [22.0]), 2: (0.0, -1, [21.0])},
    }
    lines = expert_screen.report(found).splitlines()
    assert lines[1].split()[:3] == ["base", "3", "50.0%"] and lines[1].split()[-1] == "11.0"
    assert lines[2].split()[:3] == ["replies=2", "3", "66.7%"]
    assert lines[3].startswith("replies=2 - base: wins +16.7 ± ")
    assert "(won where the other lost 1, the reverse 1); margin +2.00 ± " in lines[3]
