"""The expert's learned correction of the later rounds: its features, its effect on the
valuation, the committed weights and the script that fits them."""

import random

import pytest

from core.bots import make_bot
from core.bots.expert import ExpertBot
from core.bots.multi_value import Future, final_totals, later_rounds
from core.bots.play import bot_command
from core.bots.valuation.later import FEATURES, HERO_NAMES, KINDS, LaterRounds, features, learned
from core.bots.valuation.later_weights import WEIGHTS
from core.bots.valuation.worth import SeatWorth
from core.dice import DIE_COUNT, HEROES, KIND_OF, chests
from core.game import Game
from core.projections.state import EXCAVATION
from core.rng import DiceRng
from scripts import fit_later_rounds


def table_state(seed: int, players: int, round_: int):
    """The first excavation position of ``round_`` in a greedy game."""
    game = Game.new([f"p{s}" for s in range(players)], seed)
    bots = [make_bot("greedy")] * players
    while not (game.state.phase == EXCAVATION and game.state.round == round_):
        game.issue(bot_command(game, bots[game.state.to_act()]))
    return game.state


def test_features_count_each_seats_dice_by_kind_its_rivals_mean_its_hero_and_chests():
    state = table_state(5, 3, 2)
    found = features(state, state.troves, state.faces)
    assert len(found) == 3 and all(len(f) == len(FEATURES) for f in found)
    for s in range(3):
        own = [sum(KIND_OF[d] == kind for d in state.troves[s]) for kind in KINDS]
        assert found[s][:5] == own
        rivals = [
            sum(KIND_OF[d] == kind for t in range(3) if t != s for d in state.troves[t]) / 2
            for kind in KINDS
        ]
        assert found[s][5:10] == rivals
        hero = state.heroes[s]
        assert found[s][10:16] == [float(h == hero) for h in HERO_NAMES]
        shown = sum(chests(state.face(d)) for d in state.troves[s])
        assert found[s][16] == shown + sum(chests(f) for f in HEROES[hero])
        assert found[s][17] == 1.0


def test_a_die_whose_face_is_not_known_shows_no_chest():
    state = table_state(6, 2, 2)
    unknown = [None] * len(state.faces)
    assert [f[16] for f in features(state, state.troves, unknown)] == [
        sum(chests(f) for f in HEROES[state.heroes[s]]) for s in range(2)
    ]


def test_the_correction_is_the_weighted_features_and_only_where_weights_exist():
    state = table_state(7, 2, 1)
    weights = [0.0] * len(FEATURES)
    weights[KINDS.index("tool")] = 1.0
    weights[16] = 0.5
    weights[17] = 2.0
    later = LaterRounds({(2, 1): tuple(weights)})
    found = later.offsets(state, state.troves, state.faces)
    expected = [f[3] + 0.5 * f[16] + 2 for f in features(state, state.troves, state.faces)]
    assert found == expected
    assert LaterRounds({(4, 1): tuple(weights)}).offsets(state, state.troves, state.faces) is None
    last = table_state(7, 2, 3)
    assert later.offsets(last, last.troves, last.faces) is None


def test_seen_by_a_seat_its_own_total_takes_the_weights_and_its_rivals_the_rivals():
    state = table_state(7, 2, 1)
    mine = [0.0] * len(FEATURES)
    mine[17] = 5.0
    theirs = [0.0] * len(FEATURES)
    theirs[17] = 1.0
    later = LaterRounds({(2, 1): tuple(mine)}, {(2, 1): tuple(theirs)})
    dice, shown = state.troves, state.faces
    assert later.offsets(state, dice, shown) == [5.0, 5.0]  # no seat: every seat alike
    assert later.seen_by(0).offsets(state, dice, shown) == [5.0, 1.0]
    assert later.seen_by(1).offsets(state, dice, shown) == [1.0, 5.0]
    # a table the rivals' weights do not cover: every seat by the weights
    alone = LaterRounds({(2, 1): tuple(mine)}, {(4, 1): tuple(theirs)}).seen_by(1)
    assert alone.offsets(state, dice, shown) == [5.0, 5.0]


def test_a_dies_worth_to_a_seat_takes_that_seats_weights():
    """The play-outs' sense of a die (``die_bonus``) follows ``seen_by`` as the totals do."""
    state = table_state(7, 2, 1)
    mine = [0.0] * len(FEATURES)
    mine[KINDS.index("tunnel")] = 3.0
    theirs = [0.0] * len(FEATURES)
    theirs[KINDS.index("tunnel")] = 1.0
    later = LaterRounds({(2, 1): tuple(mine)}, {(2, 1): tuple(theirs)})
    tunnel = next(d for d in range(DIE_COUNT) if KIND_OF[d] == "tunnel")
    assert later.die_bonus(state, 1, tunnel, "3") == 3.0  # no seat: every seat alike
    assert later.seen_by(0).die_bonus(state, 0, tunnel, "3") == 3.0
    assert later.seen_by(0).die_bonus(state, 1, tunnel, "3") == 1.0


def test_the_correction_moves_every_future_of_a_seat_alike():
    """It is no luck: each seat's final total shifts by its offset in every future, by the
    dice it ends the round with (the move's gains, a die given away)."""
    state = table_state(8, 2, 1)
    rng = DiceRng(1, 2)
    futures = [Future(state, rng, later_rounds(state), magic_now=True) for _ in range(6)]
    take = next(d for d in state.mountain if d is not None)
    gains = {0: [take], 1: []}
    later = learned()
    plain = final_totals(state, 0, futures, gains, magic_weight=0.75, magic_now=True)
    moved = final_totals(state, 0, futures, gains, magic_weight=0.75, magic_now=True, later=later)
    ends = [[*state.troves[0], take], list(state.troves[1])]
    offsets = later.offsets(state, ends, state.faces)
    assert offsets is not None and any(offsets)
    for a, b in zip(plain, moved, strict=True):
        assert b == pytest.approx([x + o for x, o in zip(a, offsets, strict=True)])


def test_the_committed_weights_cover_every_table_and_round_but_the_last():
    assert set(WEIGHTS) == {(p, r) for p in (2, 3, 4) for r in (1, 2)}
    assert all(len(w) == len(FEATURES) for w in WEIGHTS.values())


def test_the_fit_collects_one_sample_per_seat_and_round_and_recovers_known_weights():
    samples = fit_later_rounds.game_samples(2, 3, 0, futures=4)
    assert [s[:2] for s in samples] == [(2, 1), (2, 1), (2, 2), (2, 2)]
    assert all(len(s[2]) == len(FEATURES) for s in samples)
    assert {s[4] for s in samples} == {"montecarlo"}
    # a known linear rule, with noise, comes back from the least squares
    pick = random.Random(9)
    truth = [pick.uniform(-2, 2) for _ in FEATURES]
    made = []
    for _ in range(400):
        f = [float(pick.randint(0, 8)) for _ in FEATURES]
        made.append(
            (2, 1, f, sum(a * b for a, b in zip(truth, f, strict=True)) + pick.gauss(0, 0.1), "x")
        )
    fitted = fit_later_rounds.fit(made, ridge=0.0)[2, 1]
    assert fitted == pytest.approx(truth, abs=0.01)


def test_a_split_fit_learns_the_bots_seats_apart_from_its_rivals_where_both_played():
    pick = random.Random(4)

    def seats(players, bot, extra):
        return [
            (players, 1, [float(pick.randint(0, 5)) for _ in FEATURES[:-1]] + [1.0], extra, bot)
            for _ in range(60)
        ]

    samples = seats(2, "expert", 9.0) + seats(2, "montecarlo", 3.0) + seats(3, "montecarlo", 4.0)
    own, weights, others, rivals = fit_later_rounds.split_fit(samples, 0.0, "expert")
    assert {s[4] for s in own if s[0] == 2} == {"expert"}
    assert {s[4] for s in others} == {"montecarlo"} and {s[0] for s in others} == {2}
    assert weights[2, 1][-1] == pytest.approx(9.0) and rivals[2, 1][-1] == pytest.approx(3.0)
    assert weights[3, 1][-1] == pytest.approx(4.0) and (3, 1) not in rivals
    only_three = fit_later_rounds.split_fit(samples, 0.0, "expert", tables=[3])
    assert only_three[3] == {} and only_three[1] == fit_later_rounds.fit(samples, 0.0)
    unsplit = fit_later_rounds.split_fit(samples, 0.0, None)
    assert unsplit[3] == {} and unsplit[1] == fit_later_rounds.fit(samples, 0.0)


def test_a_lineup_is_filled_with_its_last_bot_and_rotates_a_seat_a_game():
    assert fit_later_rounds.seated(["expert", "montecarlo"], 4, 0) == (
        "expert",
        "montecarlo",
        "montecarlo",
        "montecarlo",
    )
    assert fit_later_rounds.seated(["expert", "montecarlo"], 4, 1)[1] == "expert"
    assert fit_later_rounds.seated(["greedy"], 2, 5) == ("greedy", "greedy")


def test_kept_samples_are_streamed_and_read_back_with_the_seats_bot(tmp_path):
    kept = tmp_path / "samples.jsonl"
    found = fit_later_rounds.collect([2], 1, 3, 4, 1, ("greedy", "montecarlo"), kept)
    assert {s[4] for s in found} == {"greedy", "montecarlo"}
    assert fit_later_rounds.read_samples(kept) == [(*s[:2], list(s[2]), s[3], s[4]) for s in found]
    assert fit_later_rounds.made_by(kept) == ""
    old = tmp_path / "old.jsonl"
    old.write_text("[2, 1, [1.0], 2.5]\n")
    assert fit_later_rounds.read_samples(old) == [(2, 1, [1.0], 2.5, "montecarlo")]


def test_an_expert_in_a_lineup_may_play_with_the_weights_of_a_file(tmp_path):
    weights = {(2, 1): tuple(float(i) for i in range(len(FEATURES)))}
    path = tmp_path / "weights.py"
    fit_later_rounds.write(weights, ["a test"], path)
    bot = fit_later_rounds.seat_bot(f"expert@{path}")
    assert isinstance(bot, ExpertBot)
    assert bot.correction is not None and bot.correction.weights == weights
    assert fit_later_rounds.seat_bot("expert").correction is None
    with pytest.raises(ValueError, match="only the expert"):
        fit_later_rounds.seat_bot(f"greedy@{path}")
    samples = fit_later_rounds.game_samples(2, 3, 0, 4, (f"expert@{path}", "greedy"))
    assert {s[4] for s in samples} == {"expert", "greedy"}


def test_the_fit_writes_a_weights_module_the_correction_reads(tmp_path):
    weights = {(2, 1): tuple(float(i) for i in range(len(FEATURES)))}
    path = tmp_path / "weights.py"
    rivals = {(2, 1): tuple(-float(i) for i in range(len(FEATURES)))}
    fit_later_rounds.write(weights, ["a test " * 20], path, rivals)
    space: dict = {}
    exec(path.read_text(), space)
    assert space["WEIGHTS"] == weights and space["RIVALS"] == rivals
    read = fit_later_rounds.correction_from(str(path))
    assert read.weights == weights and read.rivals == rivals
    plain = tmp_path / "plain.py"  # (a path is read once: correction_from is cached)
    fit_later_rounds.write(weights, ["no rivals"], plain)
    assert fit_later_rounds.correction_from(str(plain)).rivals == {}


def test_a_dies_worth_in_the_play_outs_gains_its_kind_and_chests_weights():
    state = table_state(9, 2, 1)
    rng = DiceRng(3, 4)
    futures = [Future(state, rng, later_rounds(state)) for _ in range(4)]
    weights = [0.0] * len(FEATURES)
    weights[KINDS.index("tool")] = 2.0
    weights[16] = 0.5
    later = LaterRounds({(2, 1): tuple(weights)})
    plain = SeatWorth(state, 0, futures, 0.75)
    bonus = SeatWorth(state, 0, futures, 0.75, later)
    for die in (d for d in state.mountain if d is not None):
        face = state.face(die)
        extra = (2.0 if KIND_OF[die] == "tool" else 0.0) + 0.5 * chests(face)
        assert bonus(die) == pytest.approx(plain(die) + extra)
