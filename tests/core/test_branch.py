"""What-if branches (``core.branch``): a branch keeps its parent's first events byte for
byte, the same luck rolls the parent's dice at every position, fresh luck is recorded,
undo stops at the branch point, and every branch re-runs (``core.verify``)."""

from __future__ import annotations

import hashlib

import pytest
from attrs import evolve

from core.bots import make_bot
from core.bots.play import bot_command, play_game
from core.branch import branch_facts, branch_game, branch_points, kept_batches, write_branch
from core.commands import BranchGame, RevealSeed, Undo
from core.errors import BranchError, LogDamaged, RuleError
from core.events.codec import Batch, encode_batch
from core.events.game import CommandUndone
from core.game import Game
from core.host.undo import undo_depth
from core.log.framing import encode_log
from core.modes.table import events as tev
from core.projections.statehash import canonical
from core.projections.timeline import replay
from core.rng import DiceRng
from core.store import load_batches, load_batches_bytes
from core.verify import provenance, rerun
from replays.golden import SPECS

GOLDEN = {spec.name: spec for spec in SPECS}
SECRET = bytes(range(32))


def golden(name: str) -> tuple[bytes, list[Batch]]:
    with open(GOLDEN[name].log_path, "rb") as f:
        data = f.read()
    return data, load_batches_bytes(data)[1]


def safe_points(batches: list[Batch]) -> list[int]:
    """The branch points no later undo of the log reaches back across."""
    undone = [
        (e.seq, batch.seq)
        for batch in batches
        for e in batch.events
        if isinstance(e, CommandUndone)
    ]
    return [
        point
        for point in branch_points(batches)
        if not any(target < point <= at for target, at in undone)
    ]


def spread(points: list[int], count: int = 4) -> list[int]:
    """``count`` points from the first to the last but one, evenly spread."""
    usable = points[:-1]
    return sorted({usable[i * (len(usable) - 1) // (count - 1)] for i in range(count)})


def shifted(batches: list[Batch], at: int) -> list[tuple]:
    """The events of ``batches`` as a branch at ``at`` logs them: an undo names the seq of
    the command it undid, one later there when it is after the branch's fact."""
    return [
        tuple(
            CommandUndone(e.seq + 1) if isinstance(e, CommandUndone) and e.seq >= at else e
            for e in batch.events
        )
        for batch in batches
    ]


def replay_commands(game: Game, batches: list[Batch]) -> list[Batch]:
    """Issue the commands of ``batches`` to ``game`` (undos as undos); the batches made."""
    made = []
    for batch in batches:
        command = batch.command
        commit = game.undo(command.seat) if isinstance(command, Undo) else game.issue(command)
        made.append(commit.batch)
    return made


# -- the same luck reproduces the original ----------------------------------------


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_the_same_luck_reproduces_the_original_when_the_same_moves_are_played(name):
    """Branched at several points of each golden game, replaying the original's commands
    gives the original's events exactly, undos included, and the branch re-runs."""
    data, batches = golden(name)
    for at in spread(safe_points(batches)):
        game = branch_game(data, at, "same")
        kept = kept_batches(batches, at, name)
        made = replay_commands(game, batches[kept:])
        assert [b.events for b in made] == shifted(batches[kept:], at), at
        assert [b.command for b in made] == [b.command for b in batches[kept:]]
        assert without_branch(game.state) == final_state(batches)
        assert rerun(game.batches()) is None


def without_branch(state):
    """``state`` with no branch facts: the state the parent reached the same way."""
    return state.replace(facts=evolve(state.facts, branches=(), branch_seed=None, branch_secret=""))


def final_state(batches: list[Batch]):
    return replay(batches).state


@pytest.mark.parametrize("name", ["tie-break", "four-players"])
def test_the_same_bots_play_a_same_luck_branch_as_they_played_the_original(name):
    """Bots decide with the seed, the depth and the seat: a branch whose fact is no step of
    the game gives them the generators they had, so they play the original again."""
    spec = GOLDEN[name]
    data, batches = golden(name)
    at = spread(branch_points(batches))[2]
    game = branch_game(data, at, "same")
    play_game(game, [make_bot(bot) for bot in spec.bots])
    kept = kept_batches(batches, at, name)
    branch = game.batches()[kept + 1 :]
    assert [b.command for b in branch] == [b.command for b in batches[kept:]]
    assert [b.events for b in branch] == [b.events for b in batches[kept:]]


def test_a_branch_keeps_the_parents_records_byte_for_byte(tmp_path):
    data, batches = golden("four-players-undo")
    parent = tmp_path / "parent.dmlog"
    parent.write_bytes(data)
    for at in spread(branch_points(batches), 5):
        out = tmp_path / f"branch-{at}.dmlog"
        made = write_branch(parent, out, at, "same", sync=False)
        kept = kept_batches(batches, at, "parent")
        scan, _ = load_batches(parent)
        mine, mine_batches = load_batches(out)
        written = out.read_bytes()
        assert made.records == kept and made.parent == hashlib.sha256(data).hexdigest()
        # the batch records' frames, byte for byte (checksums included)
        first, end = scan.offsets[0], scan.offsets[kept] if kept < len(scan.offsets) else scan.end
        assert written[mine.offsets[0] : mine.offsets[kept]] == data[first:end]
        assert mine.header == {**scan.header, "branch": {"parent": made.parent, "at": at}}
        assert len(mine_batches) == kept + 1
        assert isinstance(mine_batches[-1].command, BranchGame)
        assert mine_batches[-1].events == (tev.GameBranched(made.parent, at, "same", 44),)
        assert rerun(mine_batches) is None


def test_a_same_luck_branch_rolls_from_the_parents_stream_at_each_depth():
    data, batches = golden("two-players")
    at = branch_points(batches)[10]
    game = branch_game(data, at, "same")
    parent = replay(batches[: kept_batches(batches, at, "x")])
    assert game.timeline.depth == parent.depth  # the fact is no step of the game
    assert game.rng().next_u64() == DiceRng(parent.state.seed, parent.depth).next_u64()


# -- fresh luck ---------------------------------------------------------------------


def test_fresh_luck_is_recorded_and_rolls_other_dice():
    data, batches = golden("four-players")
    at = spread(branch_points(batches))[1]
    kept = kept_batches(batches, at, "x")
    game = branch_game(data, at, "fresh", seed=5)
    fact = game.batches()[-1]
    assert fact.command == BranchGame(hashlib.sha256(data).hexdigest(), at, "fresh", 5)
    assert fact.events == (tev.GameBranched(fact.command.parent, at, "fresh", 5),)
    assert game.state.facts.branch_seed == 5
    same = branch_game(data, at, "same")
    assert game.rng().next_u64() != same.rng().next_u64()
    differs = False
    for batch in batches[kept:]:
        try:
            commit = game.issue(batch.command)
        except RuleError:  # the fresh dice made the original's move impossible
            differs = True
            break
        if commit.events != batch.events:
            differs = True
            break
    assert differs
    play_game(game, [make_bot("greedy") for _ in range(4)])
    assert rerun(game.batches()) is None
    assert provenance(game.batches()).kind == "seed"


def test_fresh_luck_needs_a_seed():
    data, batches = golden("two-players")
    with pytest.raises(BranchError, match="fresh luck is a new seed"):
        branch_game(data, branch_points(batches)[3], "fresh")
    with pytest.raises(BranchError, match="takes no seed"):
        branch_game(data, branch_points(batches)[3], "same", seed=3)
    with pytest.raises(BranchError, match="'same' or 'fresh'"):
        branch_game(data, branch_points(batches)[3], "lucky")


# -- undo stops at the branch point -----------------------------------------------------


def test_undo_goes_no_further_back_than_the_branch_point():
    data, batches = golden("two-players")
    at = branch_points(batches)[12]
    game = branch_game(data, at, "same")
    with pytest.raises(RuleError) as refused:
        game.undo()
    assert refused.value.code == "branch_point"
    assert not game.timeline.can_undo()
    seat = game.to_act()
    assert game.undo_turn(seat) == []  # the seat's moves before the point are the parent's
    assert [type(c) for c in game.timeline.commands()] == [BranchGame]
    with pytest.raises(RuleError):  # a table's undo policy finds nothing of the seat's
        undo_depth(game.timeline.commands(), seat, lambda s: True)
    game.issue(game.legal()[0])
    assert len(game.undo_turn(seat)) == 1
    with pytest.raises(RuleError) as again:
        game.issue(Undo(seat))
    assert again.value.code == "branch_point"


def test_a_logged_undo_of_the_branch_fact_is_damage(tmp_path):
    data, batches = golden("two-players")
    game = branch_game(data, branch_points(batches)[12], "same")
    fact = game.batches()[-1]
    crafted = Batch(fact.end, Undo(), (CommandUndone(fact.seq),))
    scan = load_batches_bytes(game.export())[0]
    path = tmp_path / "crafted.dmlog"
    path.write_bytes(encode_log(dict(scan.header), [*scan.payloads, encode_batch(crafted)]))
    with pytest.raises(LogDamaged, match="does not undo the last command"):
        Game.load(path)


def test_a_branch_fact_whose_dice_come_from_nowhere_is_damage(tmp_path):
    data, batches = golden("two-players")
    game = branch_game(data, branch_points(batches)[12], "same")
    fact = game.batches()[-1]
    hollow = Batch(fact.seq, fact.command, (tev.GameBranched(fact.command.parent, 1, "same"),))
    scan = load_batches_bytes(game.export())[0]
    path = tmp_path / "crafted.dmlog"
    path.write_bytes(encode_log(dict(scan.header), [*scan.payloads[:-1], encode_batch(hollow)]))
    with pytest.raises(LogDamaged, match="a seed or from a 64-hex-digit secret"):
        Game.load(path)


# -- refusals ---------------------------------------------------------------------------


def test_a_branch_point_inside_a_batch_is_refused_naming_the_nearest_ones():
    _, batches = golden("two-players")
    batch = next(b for b in batches[1:] if len(b.events) > 1)
    inside = batch.seq + 1
    with pytest.raises(BranchError) as refused:
        kept_batches(batches, inside, "game.dmlog")
    assert str(refused.value) == (
        f"game.dmlog: event {inside} is inside the batch of events {batch.seq} to "
        f"{batch.end - 1} ('{batch.command.text()}'): the nearest branch points are "
        f"{batch.seq} and {batch.end}"
    )
    with pytest.raises(BranchError, match="at least the game's opening"):
        kept_batches(batches, 0, "game.dmlog")
    end = batches[-1].end
    with pytest.raises(BranchError, match=f"holds {end} events: {end + 1} is beyond its end"):
        kept_batches(batches, end + 1, "game.dmlog")


def test_a_finished_game_is_not_branched_at_its_end():
    data, batches = golden("two-players")
    with pytest.raises(BranchError) as refused:
        branch_game(data, batches[-1].end, "same")
    assert refused.value.code == "game_over"


def test_a_damaged_parent_is_refused():
    data, batches = golden("two-players")
    damaged = bytearray(data)
    damaged[-20] ^= 1
    with pytest.raises(LogDamaged):
        branch_game(bytes(damaged), branch_points(batches)[5], "same")


# -- games with a secret seed -------------------------------------------------------


def secret_game(moves: int | None = None) -> Game:
    game = Game.new(["Ada", "Brok"], secret=SECRET)
    bots = [make_bot("greedy"), make_bot("greedy")]
    if moves is None:
        play_game(game, bots)
        game.reveal()
    else:
        for _ in range(moves):
            game.issue(bot_command(game, bots[game.to_act()]))
    return game


def test_a_revealed_secret_game_branches_with_the_same_luck_from_its_secret():
    parent = secret_game()
    data, batches = parent.export(), parent.batches()
    at = branch_points(batches)[20]
    game = branch_game(data, at, "same")
    fact = game.batches()[-1].events[0]
    assert fact == tev.GameBranched(fact.parent, at, "same", None, SECRET.hex())
    assert not game.state.facts.secret_dice
    kept = kept_batches(batches, at, "x")
    played = [b for b in batches[kept:] if not isinstance(b.command, RevealSeed)]
    made = replay_commands(game, played)
    assert [b.events for b in made] == [b.events for b in played]
    assert provenance(game.batches()).kind == "revealed"
    assert rerun(game.batches()) is None
    assert game.reveal() is None  # nothing secret left to reveal


def test_a_secret_not_revealed_refuses_the_same_luck_but_not_a_fresh_one():
    parent = secret_game(moves=20)
    data, batches = parent.export(), parent.batches()
    at = branch_points(batches)[10]
    with pytest.raises(BranchError) as refused:
        branch_game(data, at, "same")
    assert refused.value.code == "seed_secret"
    assert "secret seed not revealed yet" in str(refused.value)
    game = branch_game(data, at, "fresh", seed=11)
    assert not game.state.facts.secret_dice
    play_game(game, [make_bot("greedy"), make_bot("greedy")])  # no secret needed
    origin = provenance(game.batches())
    assert (origin.kind, origin.fresh_seed) == ("secret_then_fresh", 11)
    assert origin.fresh_from == game.batches()[kept_batches(batches, at, "x")].seq
    assert rerun(game.batches()) is None


def test_verify_decides_a_fresh_branch_of_a_secret_game_again_from_its_fact():
    """Its rolls before the fact cannot be re-derived, but the fact and all after it are."""
    parent = secret_game(moves=20)
    data, batches = parent.export(), parent.batches()
    game = branch_game(data, branch_points(batches)[10], "fresh", seed=11)
    logged = game.batches()
    kept = kept_batches(batches, branch_points(batches)[10], "x")
    fact = logged[kept]
    forged = Batch(fact.seq, fact.command, (evolve(fact.events[0], seed=12),))
    found = rerun([*logged[:kept], forged])
    assert found is not None and found.seq == fact.seq
    assert found.rerun == fact.events[0]


# -- a branch of a branch ---------------------------------------------------------------


def test_a_branch_of_a_branch_names_its_own_parent(tmp_path):
    data, batches = golden("three-players")
    first = tmp_path / "first.dmlog"
    (tmp_path / "parent.dmlog").write_bytes(data)
    points = branch_points(batches)
    write_branch(tmp_path / "parent.dmlog", first, points[30], "fresh", seed=3, sync=False)
    first_sha = hashlib.sha256(first.read_bytes()).hexdigest()
    with Game.open(first, sync=False) as game:
        play_game(game, [make_bot("greedy") for _ in range(3)])
    first_sha = hashlib.sha256(first.read_bytes()).hexdigest()
    _, first_batches = load_batches(first)
    later = branch_points(first_batches)[40]  # after the first branch's fact
    earlier = points[10]  # before it: the grandparent's events only
    second = write_branch(first, tmp_path / "second.dmlog", later, "same", sync=False)
    third = write_branch(first, tmp_path / "third.dmlog", earlier, "same", sync=False)
    assert second.parent == third.parent == first_sha
    scan, second_batches = load_batches(tmp_path / "second.dmlog")
    assert scan.header["branch"] == {"parent": first_sha, "at": later}
    facts = [fact for _, fact in branch_facts(second_batches)]
    assert [f.parent for f in facts] == [hashlib.sha256(data).hexdigest(), first_sha]
    assert facts[-1].seed == 3  # the same luck as its parent's: the first branch's seed
    assert rerun(second_batches) is None
    scan, third_batches = load_batches(tmp_path / "third.dmlog")
    assert [f.parent for _, f in branch_facts(third_batches)] == [first_sha]
    assert rerun(third_batches) is None


# -- hashes and other games ---------------------------------------------------------------


def test_games_without_a_branch_keep_their_state_hashes():
    """The facts fields a branch added are written only when set (docs/reference/state-hash.md)."""
    game = secret_game(moves=4)
    facts = canonical(game.state)["facts"]
    assert sorted(facts) == ["bot_seats", "closed", "commitment", "revealed", "seed_chosen_by"]
    data, batches = golden("two-players")
    at = branch_points(batches)[4]
    branched = canonical(branch_game(data, at, "same").state)["facts"]
    assert branched["branches"] == [[hashlib.sha256(data).hexdigest(), at, "same"]]
    assert branched["branch_seed"] == 2 and "branch_secret" not in branched
