"""Nobody can foresee a roll: a live game's dice come from a secret its log only commits to,
revealed at the end, when anyone can check that every roll came from it."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pytest

from core.bots import make_bot
from core.bots.play import bot_command, play_game
from core.commands import CloseGame, HandSeatToBot, ReturnSeat, RevealSeed, TakeDie
from core.errors import RuleError
from core.game import Game
from core.modes.table import events as tev
from core.rng import DiceRng
from core.verify import provenance, rerun

SECRET = bytes(range(32))
OTHER = bytes(range(1, 33))


def finished(secret: bytes = SECRET, players=("Ada", "Brok"), log=None) -> Game:
    game = Game.new(list(players), secret=secret, log=log, sync=False)
    play_game(game, [make_bot("random") for _ in players])
    return game


def test_a_secret_games_log_commits_to_the_secret_and_never_holds_it_until_the_end():
    game = Game.new(["Ada", "Brok"], secret=SECRET)
    commitment = hashlib.sha256(SECRET).hexdigest()
    assert game.header["commitment"] == commitment
    assert [type(e) for e in game.batches()[0].events][:2] == [
        type(game.batches()[0].events[0]),
        tev.DiceCommitted,
    ]
    bots = [make_bot("random"), make_bot("random")]
    while not game.state.is_over:
        data = game.export()
        assert SECRET.hex().encode() not in data and SECRET not in data
        game.issue(bot_command(game, bots[game.to_act()]))
    assert game.state.facts.secret_dice  # over, but not revealed by the game itself
    revealed = game.reveal()
    assert revealed is not None and revealed.events == (tev.SeedRevealed(SECRET.hex()),)
    assert SECRET.hex().encode() in game.export()


def test_the_log_alone_cannot_roll_the_next_dice():
    """A spectator who copies the log and plays on locally is refused, and the public seed
    rolls other dice than the server's secret does."""
    game = Game.new(["Ada", "Brok"], secret=SECRET)
    bots = [make_bot("greedy"), make_bot("greedy")]
    for _ in range(6):
        game.issue(bot_command(game, bots[game.to_act()]))
    copy = Game(game.stream, game.timeline)  # the log, without the host's secret
    move = bot_command(game, bots[game.to_act()])
    with pytest.raises(RuleError) as refused:
        copy.issue(move)
    assert refused.value.code == "seed_secret"
    public = DiceRng(game.state.seed, game.timeline.depth)
    real = DiceRng.secret(SECRET, game.timeline.depth)
    assert [public.below(6) for _ in range(20)] != [real.below(6) for _ in range(20)]


def test_undo_keeps_rolling_the_same_dice_in_a_secret_game():
    game = Game.new(["Ada", "Brok"], secret=SECRET)
    bots = [make_bot("random"), make_bot("random")]
    while game.state.phase != "magic" or not [c for c in game.legal() if c.TAG == "spend"]:
        if game.state.is_over:
            pytest.skip("no magic spend in this game")
        game.issue(bot_command(game, bots[game.to_act()]))
    spend = next(c for c in game.legal() if c.TAG == "spend")
    first = game.issue(spend)
    game.undo()
    assert game.issue(spend).events == first.events


def test_the_secret_stream_is_the_same_on_every_machine():
    """Pinned words of a secret game's generator: a change here changes every secret game."""
    rng = DiceRng.secret(SECRET, 5)
    assert [rng.next_u64() for _ in range(3)] == [
        9088606007809266680,
        16061819922456619787,
        5957540402274142509,
    ]
    with pytest.raises(ValueError):
        DiceRng.secret(SECRET[:31])


def test_verify_checks_the_commitment_and_rederives_every_roll(tmp_path):
    path = tmp_path / "fair.dmlog"
    game = finished(log=path)
    game.reveal()
    game.close()
    done = subprocess.run(
        [sys.executable, "-m", "frontends.cli", "log", "verify", str(path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "commitment checked" in done.stdout and "every roll came from it" in done.stdout
    assert provenance(Game.load(path).batches()).kind == "revealed"


def test_verify_before_the_end_says_the_rolls_cannot_be_rederived_yet(tmp_path):
    path = tmp_path / "running.dmlog"
    game = Game.new(["Ada", "Brok"], secret=SECRET, log=path, sync=False)
    game.issue(bot_command(game, make_bot("random")))
    game.close()
    done = subprocess.run(
        [sys.executable, "-m", "frontends.cli", "log", "verify", str(path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and "not revealed yet" in done.stdout


def test_a_forged_reveal_is_caught_by_verify():
    """A log whose revealed secret is not the one committed to fails the re-run."""
    game = finished()
    game.reveal()
    batches = game.batches()
    last = batches[-1]
    forged = [
        *batches[:-1],
        type(last)(last.seq, RevealSeed(OTHER.hex()), (tev.SeedRevealed(OTHER.hex()),)),
    ]
    found = rerun(forged)
    assert found is not None and "commitment" in found.reason
    assert rerun(batches) is None


def test_the_secret_is_revealed_once_and_only_if_it_is_the_committed_one():
    game = Game.new(["Ada", "Brok"], secret=SECRET)
    with pytest.raises(RuleError) as early:
        game.issue(RevealSeed(SECRET.hex()))
    assert early.value.code == "game_not_over"
    play_game(game, [make_bot("random"), make_bot("random")])
    for wrong in (OTHER.hex(), "xyz", SECRET.hex().upper()):
        with pytest.raises(RuleError) as refused:
            game.issue(RevealSeed(wrong))
        assert refused.value.code == "bad_secret"
    game.reveal()
    with pytest.raises(RuleError) as twice:
        game.issue(RevealSeed(SECRET.hex()))
    assert twice.value.code == "already_revealed"
    plain = Game.new(["Ada", "Brok"], seed=3)
    with pytest.raises(RuleError) as none:
        plain.issue(RevealSeed(SECRET.hex()))
    assert none.value.code == "no_secret"


def test_nothing_is_undone_once_the_secret_is_out():
    game = finished()
    game.reveal()
    with pytest.raises(RuleError) as refused:
        game.undo()
    assert refused.value.code == "seed_revealed"


def test_a_table_decision_is_not_undone():
    game = Game.new(["Ada", "Brok"], seed=4)
    game.issue(HandSeatToBot(1, "greedy", "Brok was quiet"))
    with pytest.raises(RuleError) as refused:
        game.undo()
    assert refused.value.code == "table_decision"
    assert game.state.facts.bot_seats == ((1, "greedy"),)
    with pytest.raises(RuleError) as again:
        game.issue(HandSeatToBot(1, "random", "again"))
    assert again.value.code == "already_a_bot"
    with pytest.raises(RuleError) as nobody:
        game.issue(HandSeatToBot(7, "random", "no such seat"))
    assert nobody.value.code == "bad_seat"
    game.issue(ReturnSeat(1))
    assert game.state.facts.bot_seats == ()
    with pytest.raises(RuleError) as back:
        game.issue(ReturnSeat(1))
    assert back.value.code == "not_a_bot_seat"


def test_a_closed_game_is_over_without_a_winner_and_says_why():
    game = Game.new(["Ada", "Brok"], secret=SECRET)
    game.issue(CloseGame("nobody moved for an hour"))
    assert game.state.is_over and game.state.winners == ()
    assert game.state.facts.closed == "nobody moved for an hour"
    assert game.reveal() is not None  # closed is ended: the secret comes out
    with pytest.raises(RuleError) as refused:
        game.issue(TakeDie(0, 0))
    assert refused.value.code == "game_over"


def test_a_chosen_seed_is_marked_as_no_secret():
    game = Game.new(["Ada", "Brok"], seed=42, seed_chosen_by="Ada")
    assert game.state.facts.seed_chosen_by == "Ada"
    assert any(isinstance(e, tev.SeedChosen) for e in game.batches()[0].events)
    origin = provenance(game.batches())
    assert (origin.kind, origin.seed, origin.chosen_by) == ("chosen", 42, "Ada")
    assert json.dumps(game.header["seed_chosen_by"]) == '"Ada"'


def test_the_commitments_words_name_no_bots_in_a_solo_game():
    from core.read.text import describe

    def words(game: Game) -> str:
        opening = game.batches()[0].events
        committed = next(e for e in opening if isinstance(e, tev.DiceCommitted))
        return describe(game.state, committed)

    assert words(Game.new(["Ada", "Brok"], secret=SECRET)).endswith(
        "the game's seed only steers the bots"
    )
    solo = words(Game.new(["Ada"], mode="solo", secret=SECRET))
    assert "bots" not in solo and solo.endswith("the seed named above rolls none of them")
