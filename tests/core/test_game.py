"""The Python API: logs on disk, undo, determinism, and a refused command changing nothing."""

import pytest

from core.commands import TakeDie
from core.errors import LogLocked, RuleError
from core.events.game import CommandUndone
from core.game import Game
from core.projections.timeline import replay
from core.store import load_batches
from tests.support.games import play


def test_two_runs_with_the_same_seed_and_commands_write_byte_identical_logs(tmp_path):
    a, b = tmp_path / "a.dmlog", tmp_path / "b.dmlog"
    for path in (a, b):
        with Game.new(["Ada", "Brok", "Cira"], seed=99, log=path) as game:
            play(game)
    assert a.read_bytes() == b.read_bytes()


def test_different_seeds_give_different_games():
    a = play(Game.new(["Ada", "Brok"], seed=1))
    b = play(Game.new(["Ada", "Brok"], seed=2))
    assert a.batches() != b.batches()


def test_a_logged_game_reloads_to_the_same_state(tmp_path):
    path = tmp_path / "g.dmlog"
    with Game.new(["Ada", "Brok", "Cira", "Dain"], seed=3, log=path) as game:
        play(game)
        live = game.state
    assert Game.load(path).state == live
    _, batches = load_batches(path)
    assert replay(batches).state == live


def test_a_game_continues_from_its_log(tmp_path):
    path = tmp_path / "g.dmlog"
    with Game.new(["Ada", "Brok"], seed=4, log=path) as game:
        play(game, 30)
        halfway = game.state
    with Game.open(path) as game:
        assert game.state == halfway
        play(game)
        assert game.state.is_over
    assert Game.load(path).state.is_over


def test_only_one_writer_at_a_time(tmp_path):
    path = tmp_path / "g.dmlog"
    with Game.new(["Ada", "Brok"], seed=4, log=path), pytest.raises(LogLocked):
        Game.open(path)


def test_a_refused_command_changes_neither_state_nor_log(tmp_path):
    path = tmp_path / "g.dmlog"
    with Game.new(["Ada", "Brok"], seed=5, log=path) as game:
        play(game, 5)
        before, size = game.state, path.read_bytes()
        with pytest.raises(RuleError):
            game.issue(TakeDie(game.to_act(), game.state.mountain[1]))
        assert game.state == before and path.read_bytes() == size


def test_undo_is_an_event_and_steps_back_one_command_at_a_time():
    game = play(Game.new(["Ada", "Brok"], seed=6), 10)
    states = []
    for _ in range(3):
        states.append(game.state)
        play(game, 1)
    for expected in reversed(states):
        game.undo()
        assert game.state == expected
    assert isinstance(game.events()[-1][1], CommandUndone)
    assert replay(game.batches()).state == game.state


def test_undo_reaches_back_to_the_start_and_no_further():
    game = play(Game.new(["Ada", "Brok"], seed=6), 8)
    start = replay(game.batches()[:1]).state
    while game.timeline.can_undo():
        game.undo()
    assert game.state == start
    with pytest.raises(RuleError) as refused:
        game.undo()
    assert refused.value.code == "nothing_to_undo"


def test_undoing_and_reissuing_a_command_rolls_the_same_dice():
    """Undo cannot be used to fish for better luck."""
    game = play(Game.new(["Ada", "Brok", "Cira"], seed=8), 3)  # heroes chosen: filling next
    while game.state.phase != "magic" or not any(
        type(c).__name__ == "SpendMagic" for c in game.legal()
    ):
        play(game, 1)
        if game.state.is_over:
            pytest.skip("no magic spend in this game")
    spend = next(c for c in game.legal() if type(c).__name__ == "SpendMagic")
    first = game.issue(spend)
    game.undo()
    assert game.issue(spend).events == first.events


def test_undo_turn_takes_back_my_move_and_the_bots_replies():
    game = play(Game.new(["Ada", "Brok", "Cira"], seed=10), 8)
    me = game.to_act()
    mine = game.state
    play(game, 3)  # my move, then two bots
    assert len(game.undo_turn(me)) == 3
    assert game.state == mine


def test_legal_commands_are_all_accepted():
    game = play(Game.new(["Ada", "Brok", "Cira", "Dain"], seed=11), 40)
    from core.rules import decide

    for command in game.legal():
        decide(game.state, command, game.rng())


def test_a_new_log_is_created_with_its_opening_batch_in_one_atomic_step(tmp_path, monkeypatch):
    """Kill the writer while it creates a log: there is either no log or the whole opening."""
    import core.log.file as log_file
    from core.log import read_log

    def die_on_append(writer, payload):  # the process dies at its first append
        raise KeyboardInterrupt

    monkeypatch.setattr(log_file.LogWriter, "append", die_on_append)
    path = tmp_path / "game.dmlog"
    game = Game.new(["Ada", "Brok"], seed=5, log=path)  # no append: created whole
    with pytest.raises(KeyboardInterrupt):
        play(game, steps=1)
    game.close()
    assert read_log(path).records == 1  # the header and the opening batch
    assert Game.load(path).state == Game.new(["Ada", "Brok"], seed=5).state

    def crash_half_way(fd, data):  # the process dies inside the create's write
        log_file.os.write(fd, data[: len(data) // 2])
        raise KeyboardInterrupt

    monkeypatch.setattr(log_file, "_write_all", crash_half_way)
    other = tmp_path / "other.dmlog"
    with pytest.raises(KeyboardInterrupt):
        Game.new(["Ada", "Brok"], seed=5, log=other)
    assert not other.exists()  # never a log holding a header and no game


def test_a_log_that_ends_after_its_header_is_reported_as_damage_not_opened(tmp_path):
    from core.errors import LogDamaged
    from core.log.file import LogWriter

    path = tmp_path / "cut.dmlog"
    LogWriter.create(path, {"seed": 1, "players": ["Ada", "Brok"], "mode": "multi"}).close()
    for opener in (Game.load, Game.open, Game.open):  # and open released the writer's lock
        with pytest.raises(LogDamaged, match=r"at byte \d+ \(record 1\).*holds no game"):
            opener(path)
