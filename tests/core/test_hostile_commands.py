"""Hostile commands against real games: applied only if legal, otherwise refused with a
``RuleError``, and a refused command changes neither the state nor a byte of the log.

Games (multiplayer and solo) are played by bots to a random point, logging to a
file; then a stream of commands is thrown at them: the player to act's legal
commands (so the game moves on through its phases), the same commands from the
wrong player or with one field swapped for garbage (negative, 60, 10**9, strings,
None, floats, NaN, bools, lists, maps, bytes), commands of every type built from
such values (so also of the wrong phase or mode), undos at any moment from
anyone, and typed text. At the end the log must read back to the live state, so
nothing accepted was written in a form the reader refuses.
"""

from __future__ import annotations

import math

import attrs
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from core.bots import RandomBot, bot_rng
from core.commands import COMMAND_TYPES, GAME_MODES, NewGame, Undo, parse_command
from core.dice import DIE_COUNT, HERO_NAMES
from core.errors import CommandSyntaxError, RuleError
from core.game import Game

NAMES = ("Ada", "Brok", "Cira", "Dain")

#: Values that are no seat, die, face, flag or list of dice.
GARBAGE = [
    -1,
    DIE_COUNT,
    10**9,
    -(10**9),
    2**64,
    "0",
    "17",
    "",
    "beer",
    None,
    0.0,
    1.5,
    math.nan,
    math.inf,
    True,
    False,
    [],
    [1],
    (0, 1),
    ("0",),
    {},
    {"die": 1},
    b"\x01",
    "Engineer",
    object(),
]
garbage = st.sampled_from(GARBAGE)


def plausible(game: Game, name: str) -> st.SearchStrategy:
    """Values a field called ``name`` might sensibly hold now: mostly the player to act,
    dice on the mountain or in a trove (legal or not), any seat or die."""
    state, actor = game.state, game.to_act()
    seats = st.integers(-1, state.players)
    if actor is not None:
        seats = st.just(actor) | st.just(actor) | seats
    near = sorted(
        {d for d in state.mountain if d is not None} | {d for t in state.troves for d in t}
    )
    dice = st.integers(0, DIE_COUNT - 1)
    if near:
        dice = st.sampled_from(near) | st.sampled_from(near) | dice
    return {
        "seat": seats,
        "to_seat": seats,
        "die": dice,
        "hero_face": st.integers(-1, 3),
        "hero": st.sampled_from(HERO_NAMES),
        "targets": st.lists(dice, max_size=4).map(tuple),
        "dice": st.lists(dice, max_size=5).map(tuple),
        "as_face": st.none() | st.sampled_from(["1", "3", "gem2", "pickaxe", "beer"]),
        "freeze": st.booleans(),
    }.get(name, garbage)


def field_value(game: Game, name: str) -> st.SearchStrategy:
    sensible = plausible(game, name)
    return st.one_of(sensible, sensible, garbage, st.lists(garbage, max_size=3).map(tuple))


@st.composite
def hostile_command(draw, game: Game):
    """A command to throw at ``game``: legal, legal but altered, made up, or an undo."""
    legal = game.legal()
    kind = draw(st.sampled_from(["legal", "legal", "altered", "wrong player", "made up", "undo"]))
    if kind == "undo":
        return Undo(draw(st.none() | st.integers(-1, 4) | garbage))
    cls = draw(st.sampled_from(PLAYER_COMMANDS)) if kind == "made up" or not legal else None
    base = draw(st.sampled_from(legal)) if legal else None
    if cls is None and kind == "legal":
        return base
    if cls is None and kind == "wrong player":  # in a solo game: a seat that is not there
        others = [s for s in range(max(2, game.state.players)) if s != base.seat]
        return attrs.evolve(base, seat=draw(st.sampled_from(others)))
    if cls is None:  # altered: one field of a legal command swapped for something else
        fields = attrs.fields(type(base))
        name = draw(st.sampled_from([f.name for f in fields]))
        changes = {name: draw(field_value(game, name))}
        cls, values = type(base), {**attrs.asdict(base, recurse=False), **changes}
    else:
        values = {f.name: draw(field_value(game, f.name)) for f in attrs.fields(cls)}
    try:
        return cls(**values)
    except (TypeError, ValueError):  # a converter refused: no such command can exist
        return None


#: What a player may send (and a new game, refused once one is started); the table's own
#: commands are tested with the table (tests/test_host_table.py).
PLAYER_COMMANDS = sorted(
    (c for c in COMMAND_TYPES.values() if not c.BY_TABLE or c is NewGame), key=lambda c: c.TAG
)


@st.composite
def started_games(draw, tmp_path_factory):
    """A logged game, multiplayer or solo, played by bots for a random number of commands."""
    modes = ["multi", "multi", "solo"] if "solo" in GAME_MODES else ["multi"]
    mode = draw(st.sampled_from(modes))
    players = 1 if mode == "solo" else draw(st.integers(2, 4))
    seed = draw(st.integers(0, 2**64 - 1))
    path = tmp_path_factory.mktemp("hostile") / "game.dmlog"
    game = Game.new(NAMES[:players], seed=seed, mode=mode, log=path, sync=False)
    bot = RandomBot()
    for _ in range(draw(st.integers(0, 150))):
        if game.state.is_over:
            break
        seat = game.to_act()
        rng = bot_rng(game.state, game.timeline.depth, seat)
        game.issue(bot.choose(game.state, game.legal(), rng))
    return game, path


def as_choice(command) -> str:
    """A command with its dice as a set: the rules accept the dice of a reroll or a
    cache in any order, and the legal list offers each set once."""
    for name in ("targets", "dice"):
        if isinstance(getattr(command, name, None), tuple):
            command = attrs.evolve(command, **{name: tuple(sorted(getattr(command, name)))})
    return repr(command)


def check_refused_or_applied(game: Game, path, issue, command) -> str:
    """Issue ``command`` via ``issue()``: refused, changing nothing, or legal and logged.

    ``command`` None means it must be refused (text that does not parse).
    """
    state, timeline, log = game.state, game.timeline, path.read_bytes()
    legal = {as_choice(c) for c in game.legal()}
    try:
        issue()
    except (RuleError, CommandSyntaxError) as refused:
        assert refused.code and str(refused), refused
        assert game.timeline is timeline and game.state == state, f"{command!r} changed state"
        assert path.read_bytes() == log, f"refused {command!r} changed the log"
        return refused.code
    assert command is not None, "accepted text that does not parse"
    accepted_legal = isinstance(command, Undo) or as_choice(command) in legal
    assert accepted_legal, f"accepted illegal {command!r}"
    after = path.read_bytes()
    assert after.startswith(log) and len(after) > len(log)
    return "applied"


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_hostile_command_streams_are_refused_without_a_trace(tmp_path_factory, data) -> None:
    game, path = data.draw(started_games(tmp_path_factory))
    with game:
        for _ in range(25):
            command = data.draw(hostile_command(game))
            if command is None:
                continue
            outcome = check_refused_or_applied(game, path, lambda c=command: game.issue(c), command)
            event(outcome)  # which refusals the streams reach: --hypothesis-show-statistics
        live = game.state
    assert Game.load(path).state == live  # everything accepted reads back


words = st.sampled_from(
    ["take", "hero", "beer", "spend", "end", "cache", "undo", "refill", "stop", "as", "to",
     "on", "freeze", "h0", "h9", "-3", "0", "17", "59", "60", "9" * 5000, "1_0", "١٢",
     "Engineer", "dragon", "slayer", "beer", "3", "gem2", "", "\x00", "TAKE", "x"]
)  # fmt: skip
texts = st.lists(words, max_size=6).map(" ".join) | st.text(max_size=40)


@settings(max_examples=300, deadline=None)
@given(text=texts, seat=st.integers(-1, 4) | garbage)
def test_any_text_parses_to_a_command_or_a_syntax_error(text: str, seat) -> None:
    try:
        command = parse_command(text, seat)
    except CommandSyntaxError as err:
        assert str(err)
        return
    assert type(command) in COMMAND_TYPES.values()


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_typed_commands_are_refused_without_a_trace(tmp_path_factory, data) -> None:
    game, path = data.draw(started_games(tmp_path_factory))
    with game:
        for _ in range(20):
            text = data.draw(texts)
            seat = data.draw(st.none() | st.integers(-1, 4) | garbage)
            try:
                command = parse_command(text, game.to_act() if seat is None else seat)
            except CommandSyntaxError:
                command = None
            check_refused_or_applied(
                game, path, lambda t=text, s=seat: game.issue_text(t, s), command
            )
        live = game.state
    assert Game.load(path).state == live


def garbage_id(value) -> str:
    """The value's repr, but one that is the same in every process (``object()``'s holds an
    address: pytest-xdist's workers must collect the same test names)."""
    return "object()" if type(value) is object else repr(value)


@pytest.mark.parametrize("value", GARBAGE, ids=garbage_id)
def test_each_garbage_value_in_each_field_of_each_command_is_refused(tmp_path, value) -> None:
    """Exhaustively, from a multiplayer game waiting for its first die: every field of
    every command type set to every garbage value, the rest taken from a legal command
    (refused, or applied if the value happens to be a legal one, like ``False``)."""
    path = tmp_path / "game.dmlog"
    with Game.new(NAMES[:3], seed=11, log=path, sync=False) as game:
        bot = RandomBot()
        while game.state.phase == "setup":
            seat = game.to_act()
            game.issue(bot.choose(game.state, game.legal(), bot_rng(game.state, game.seq, seat)))
        template = game.legal()[0]
        for cls in PLAYER_COMMANDS:
            for field in attrs.fields(cls):
                values = {
                    f.name: getattr(template, f.name, 0 if f.name != "players" else ("A", "B"))
                    for f in attrs.fields(cls)
                }
                values[field.name] = value
                try:
                    command = cls(**values)
                except (TypeError, ValueError):
                    continue
                check_refused_or_applied(game, path, lambda c=command: game.issue(c), command)


def test_an_undo_naming_no_player_is_refused_and_the_log_stays_readable(tmp_path) -> None:
    """Regression: ``Undo(seat="x")`` used to be accepted and logged, and the log could
    then never be read again (its command did not decode)."""
    path = tmp_path / "game.dmlog"
    with Game.new(NAMES[:2], seed=5, log=path) as game:
        game.issue(game.legal()[0])
        for seat in ("x", 7, -1, 1.0, True, [0]):
            check_refused_or_applied(game, path, lambda s=seat: game.issue(Undo(s)), None)
        game.issue(Undo(game.to_act()))
        live = game.state
    assert Game.load(path).state == live


@pytest.mark.parametrize("option", ["seed", "game_id", "mode", "hero_deal", "starting_magic"])
def test_new_game_options_are_refused_or_read_back(tmp_path, option) -> None:
    """Every garbage value of every option (and garbage player names): refused before a
    log exists, or the log reads back to the same game."""
    for n, value in enumerate([*GARBAGE, "solo", "\ud800", 2**64 - 1]):
        path = tmp_path / f"game-{n}.dmlog"
        players = ["Ada"] if value == "solo" else ["Ada", "Brok"]
        try:
            game = Game.new(players, log=path, sync=False, **{"seed": 3, option: value})
        except RuleError as refused:
            assert refused.code == "bad_option" and not path.exists()
            continue
        with game:
            live = game.state
        assert Game.load(path).state == live, (option, value)
    for name in [g for g in GARBAGE if not isinstance(g, str)] + ["", " ", "x" * 41, "\udc00"]:
        with pytest.raises(RuleError):
            Game.new(["Ada", name], seed=3, log=tmp_path / "names.dmlog")
    assert not (tmp_path / "names.dmlog").exists()
