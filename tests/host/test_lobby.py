"""The lobby: a server's tables over one store, their places, their seats and their bots."""

from __future__ import annotations

import threading
import time

import pytest

from core.errors import SetupError, StoreUnavailable
from core.game import Game
from core.host import Lobby, LobbyFull
from core.host import lobby as lobby_module
from core.store import FileStore, MemoryStore


def people(*names):
    return [{"name": name, "bot": None} for name in names]


def wait_until(check, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.01)
    return check()


def test_two_tables_made_at_once_cannot_share_the_last_place(monkeypatch):
    """The place is held from the check until the table is added, not checked twice."""
    lobby = Lobby(MemoryStore(), limit=1)
    inside, go_on = threading.Event(), threading.Event()
    real_new = Game.new

    def slow_new(*args, **kwargs):  # the first create stops half way, holding its place
        inside.set()
        go_on.wait(10)
        return real_new(*args, **kwargs)

    monkeypatch.setattr(lobby_module.Game, "new", slow_new)
    first = threading.Thread(target=lobby.create, args=(people("Ada", "Brok"),))
    first.start()
    assert inside.wait(10)
    with pytest.raises(LobbyFull, match="already runs 1 games"):
        lobby.create(people("Cira", "Dain"))
    go_on.set()
    first.join(10)
    assert len(lobby.tables()) == 1
    lobby.close()


def test_a_failed_create_gives_its_place_back(monkeypatch):
    lobby = Lobby(MemoryStore(), limit=1)

    def failing_new(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(lobby_module.Game, "new", failing_new)
    with pytest.raises(StoreUnavailable, match="disk full"):
        lobby.create(people("Eli", "Fen"))
    monkeypatch.undo()
    lobby.create(people("Eli", "Fen"))
    assert len(lobby.tables()) == 1
    lobby.close()


def test_the_tokens_are_handed_out_once_and_kept_only_hashed(tmp_path):
    store = FileStore(tmp_path, prefix="web-")
    lobby = Lobby(store)
    table, tokens = lobby.create(people("Ada", "Brok"), seed=3)
    assert sorted(tokens) == [0, 1]
    assert table.seat_for(tokens[0]) == 0 and table.seat_for(tokens[1]) == 1
    assert table.seat_for("not-a-token") is None and table.seat_for(None) is None
    stored = (tmp_path / f"web-{table.id}.seats.json").read_text()
    log = (tmp_path / f"web-{table.id}.dmlog").read_bytes()
    for token in tokens.values():
        assert token not in stored and token.encode() not in log
    lobby.close()


@pytest.mark.parametrize(
    ("players", "options", "fragment"),
    [
        ([], {}, "1 to 4 seats"),
        (people("Ada"), {}, "2 to 4 players"),
        (people("Ada", "Ada"), {}, "name of its own"),
        (people("Ada", "Brok"), {"mode": "chess"}, "mode must be"),
        (people("Ada", "Brok"), {"seed": -1}, "seed must be"),
        (people("Ada", "Brok"), {"seed": True}, "seed must be"),
        (people("Ada", "Brok"), {"pace": 11}, "pace must be"),
        ([{"name": "Ada", "bot": "chess"}, {"name": "B"}], {}, "unknown bot"),
        (people("x" * 25, "Brok"), {}, "1 to 24 printable"),
        (people("Ada", "Brok"), {"mode": "solo"}, "exactly one seat"),
    ],
)
def test_a_bad_setup_is_refused_saying_why_and_takes_no_place(players, options, fragment):
    lobby = Lobby(MemoryStore(), limit=1)
    with pytest.raises(SetupError, match=fragment):
        lobby.create(players, **options)
    assert lobby.tables() == []
    lobby.create(people("Ada", "Brok"))
    lobby.close()


def test_the_bots_of_every_table_play_at_their_pace_on_a_few_threads():
    lobby = Lobby(MemoryStore(), pace=0.0)
    bots = [{"name": None, "bot": "random"}, {"name": None, "bot": "random"}]
    tables = [lobby.create(bots, seed=seed)[0] for seed in range(6)]
    assert wait_until(lambda: all(t.state.is_over for t in tables), timeout=60)
    threads = [t.name for t in threading.enumerate() if t.name.startswith("bots")]
    assert 1 <= len(threads) <= 2
    lobby.close()


def test_a_table_taken_up_from_the_store_plays_on_with_the_same_tokens(tmp_path):
    store = FileStore(tmp_path, prefix="web-")
    first = Lobby(store, pace=0.0)
    table, tokens = first.create(
        [{"name": "Ann", "bot": None}, {"name": None, "bot": "greedy"}], seed=9
    )
    seat = table.state.to_act()
    if seat == 0:
        table.issue(0, table.game.legal()[0])
    assert wait_until(lambda: table.state.to_act() == 0)
    seq = table.seq
    first.close()
    again = Lobby(FileStore(tmp_path, prefix="web-"), pace=0.0)
    report = again.take_up()
    assert report.resumed == [table.id] and report.skipped == []
    resumed = again.get(table.id)
    assert resumed is not None and resumed.seq == seq
    assert resumed.seat_for(tokens[0]) == 0
    resumed.issue(0, resumed.game.legal()[0])
    assert wait_until(lambda: resumed.state.to_act() == 0 or resumed.state.is_over)
    again.close()


class _Shared(MemoryStore):
    """A memory store that tells of appends as a shared one does, and may be away."""

    def __init__(self) -> None:
        super().__init__()
        self.told: list = []
        self.away = False
        self.refused = 0

    def on_append(self, callback):
        self.told.append(callback)
        return lambda: None

    def seating(self, game_id):
        if self.away:
            from core.errors import StoreUnavailable

            self.refused += 1
            raise StoreUnavailable("the database cannot be reached")
        return super().seating(game_id)


def test_the_lobby_folds_only_the_appends_of_games_it_holds():
    """An append another process announces is folded if this lobby holds the game, and
    costs a look-up otherwise: nothing read, nothing taken up (a game is taken up when it
    is asked for). The following thread goes on after an announcement it cannot use."""
    store = _Shared()
    other = Lobby(MemoryStore(store.backing), pace=0.0)  # "another process" sharing the games
    lobby = Lobby(store, pace=0.0)
    [tell] = store.told
    mine, _ = other.create(people("Ada", "Brok"))
    theirs, _ = other.create(people("Cira", "Dain"))
    held = lobby.get(mine.id)  # asked for: taken up
    assert held is not None and lobby.taken_up == 1
    store.away = True
    tell(theirs.id, theirs.seq + 1)  # not held here: no seating read, nothing taken up
    tell("no-such-game", 5)
    seat = mine.state.to_act()
    mine.issue(seat, mine.game.legal()[0])
    tell(mine.id, mine.seq)
    assert wait_until(lambda: held.behind)  # folded when it is next asked for
    assert lobby.get(mine.id) is held and held.seq == mine.seq and not held.behind
    assert store.refused == 0 and [t.id for t in lobby.tables()] == [mine.id]
    assert lobby.taken_up == 1
    lobby.close()
    other.close()
