"""Many workers over one PostgreSQL database, each a lobby of its own (as each gunicorn
worker is): a worker holds only the games it serves, the limits are the site's, and the
database hands out each bot turn and each sweep to one worker."""

from __future__ import annotations

import time

import pytest

from core.errors import StoreUnavailable
from core.host import Lobby, LobbyFull, TooManyGames
from core.modes.table.events import GameClosed
from core.store.postgres import PostgresStore
from tests.support.polling import wait_until
from tests.support.tables import people

pytestmark = pytest.mark.usefixtures("postgres_server")


def bots(*kinds):
    return [{"name": None, "bot": kind} for kind in kinds]


@pytest.fixture
def workers(postgres_server):
    """Four lobbies ("two servers of two workers") over one fresh database, each with its
    own store object (its own pool and listener), as processes have."""
    url = postgres_server.fresh_schema()
    made: list[Lobby] = []

    def make(n: int = 4, **options) -> list[Lobby]:
        for _ in range(n):
            made.append(Lobby(PostgresStore(url), pace=0.0, **options))
        return made[-n:]

    yield make
    for lobby in made:
        lobby.close()
        lobby.store.close()


def test_a_worker_holds_only_the_games_it_served(workers):
    lobbies = workers()
    made = [lobbies[n % 4].create(people("Ada", "Brok"))[0] for n in range(40)]
    for n, lobby in enumerate(lobbies):
        assert {t.id for t in lobby.tables()} == {t.id for t in made[n::4]}
        assert lobby.taken_up == 0
    first, last = made[0], made[-1]
    server = lobbies[1]  # neither made them
    for table in (first, last):
        served = server.get(table.id)
        assert served is not None
        seat = served.state.to_act()
        served.issue(seat, served.game.legal()[0])
    assert server.taken_up == 2
    # a maker folds the move it was told of when it is next asked for the game; no other
    # worker takes anything up, nor folds anything it was not asked for
    assert third_untouched(lobbies[2], first.id)
    assert wait_until(lambda: lobbies[0].get(first.id).seq == server.get(first.id).seq, timeout=20)
    assert wait_until(lambda: lobbies[3].get(last.id).seq == server.get(last.id).seq, timeout=20)
    time.sleep(0.3)
    assert [lobby.taken_up for lobby in lobbies] == [0, 2, 0, 0]


def third_untouched(lobby: Lobby, game_id: str) -> bool:
    time.sleep(0.3)  # it hears of the appends meanwhile
    return all(t.id != game_id for t in lobby.tables()) and lobby.taken_up == 0


def test_the_limits_are_the_sites_across_workers(workers):
    lobbies = workers(limit=6, per_client=2)
    lobbies[0].create(people("Ada", "Brok"), client="10.0.0.1")
    lobbies[1].create(people("Ada", "Brok"), client="10.0.0.1")
    for lobby in lobbies:  # one client, two games in all, wherever it asks
        with pytest.raises(TooManyGames):
            lobby.create(people("Ada", "Brok"), client="10.0.0.1")
    for n in range(4):
        lobbies[n].create(people("Cira", "Dain"), client=f"10.0.1.{n}")
    with pytest.raises(LobbyFull):
        lobbies[3].create(people("Cira", "Dain"), client="10.0.2.1")
    assert lobbies[0].board.live() == 6


def test_every_bot_turn_is_played_once_by_one_worker(workers):
    lobbies = workers()
    games = [lobbies[n % 4].create(bots("greedy", "random", "greedy"))[0] for n in range(8)]
    reader = lobbies[0]
    for table in games:
        assert wait_until(lambda t=table: reader.get(t.id).state.is_over, timeout=90)
    # each place given back at its end
    assert wait_until(lambda: reader.board.live() == 0, timeout=20)
    moves = 0
    for table in games:
        held = reader.get(table.id)
        held.refresh()
        moves += sum(1 for b in held.game.batches() if getattr(b.command, "seat", None) is not None)
    played = sum(lobby.runner.played for lobby in lobbies)
    assert played == moves, "each bot move played by exactly one worker"
    assert reader.board.counts()["queued"] == 0


def test_a_turn_whose_worker_died_is_played_by_another(workers):
    first, second = workers(2)
    first.runner.close()  # a worker that dies holding nothing: its turns wait for it
    table, _ = first.create(bots("greedy", "greedy"))
    # the other worker plays them once the failover delay has passed, then on at its pace
    other = second.get(table.id)
    assert wait_until(lambda: other.state.is_over, timeout=90)
    assert second.runner.played > 0


def test_the_idle_sweep_closes_a_game_once_for_the_whole_site(workers):
    lobbies = workers(idle_close=1.0, quiet_seat=None, sweep_every=0.3)
    table, _ = lobbies[0].create(people("Ada", "Brok"))
    watcher = lobbies[2]
    assert wait_until(lambda: watcher.get(table.id).state.is_over, timeout=30)
    held = watcher.get(table.id)
    time.sleep(1.0)  # every worker has had its turns to sweep since
    held.refresh()
    closed = [e for _, e in held.game.events() if isinstance(e, GameClosed)]
    assert len(closed) == 1
    assert lobbies[0].board.live() == 0


def test_a_place_whose_maker_died_before_storing_is_freed(workers, monkeypatch):
    [lobby] = workers(1, sweep_every=0.2)
    from core.store import pgwork

    monkeypatch.setattr(pgwork.WorkBoard, "release", lambda self, game_id: None)  # dies
    monkeypatch.setattr(
        lobby.store, "create", lambda *a, **k: (_ for _ in ()).throw(StoreUnavailable("gone"))
    )
    with pytest.raises(StoreUnavailable):
        lobby.create(people("Ada", "Brok"))
    monkeypatch.undo()
    assert lobby.board.live() == 1
    # after the stale delay the sweep frees it (STALE_AFTER seconds)
    assert wait_until(lambda: lobby.board.live() == 0, timeout=15)


def test_one_request_id_sent_to_two_workers_at_once_is_one_effect_and_one_answer(workers):
    """The same request (an undo, then a move, without a seq) sent at once to two workers:
    played once, both answered alike, never an error (100 trials each)."""
    from concurrent.futures import ThreadPoolExecutor

    from core.commands import Undo
    from frontends.web.games import LiveGames

    first, second = workers(2)
    sites = [LiveGames(first), LiveGames(second)]
    live, _ = sites[0].create(people("Ada", "Brok"))
    views = [live, sites[1].get(live.id)]
    pool = ThreadPoolExecutor(2)

    def both(command, request):
        futures = [
            pool.submit(view.issue, seat, command, request=request)
            for view in views  # at once, no seq: only the request id can tell
        ]
        return [f.result(timeout=30) for f in futures]

    seat = views[0].state.to_act()
    for trial in range(100):
        views[0].table.refresh()
        assert views[0].state.to_act() == seat
        move = views[0].table.game.legal()[0]
        before = views[0].seq
        (records_a, board_a), (records_b, board_b) = both(move, f"move-{trial}")
        assert records_a == records_b and board_a == board_b
        views[0].table.refresh()
        after_move = views[0].seq
        assert after_move == before + len(records_a), "the move played once"
        (records_a, board_a), (records_b, board_b) = both(Undo(seat), f"undo-{trial}")
        assert records_a == records_b and board_a == board_b
        views[0].table.refresh()
        assert views[0].seq == after_move + len(records_a), "the undo played once"
    pool.shutdown()


def test_a_game_ended_while_its_reveal_could_not_be_kept_is_revealed_by_the_sweep(
    workers, monkeypatch
):
    """The database away at the very end: the last move stands and is told, the game is
    over, and the site's sweep reveals its secret once the database is back."""
    from core.errors import StoreUnavailable
    from core.game import Game

    [lobby] = workers(1, sweep_every=0.2)
    real = Game.reveal
    failed = []

    def away_once(game):
        if not failed:
            failed.append(game.game_id)
            raise StoreUnavailable("the database cannot be reached")
        return real(game)

    monkeypatch.setattr(Game, "reveal", away_once)
    table, _ = lobby.create(bots("greedy", "random"))
    assert wait_until(lambda: table.state.is_over, timeout=90)
    assert failed == [table.id] and table.stopped is None
    assert wait_until(lambda: table.state.facts.revealed, timeout=20), "revealed by the sweep"
    assert wait_until(lambda: lobby.board.live() == 0, timeout=20)


def test_a_crowd_refreshing_one_game_at_once_costs_one_read_and_misses_no_move(workers):
    """Thirty spectators open streams to a game at once, each asking its worker to fold
    what the others appended: the reads run one at a time, and whoever waited through a
    read begun after it asked takes that read's fold instead of reading again. A refresh
    asked after a move elsewhere always sees it."""
    import threading

    first, second = workers(2)
    table, _ = first.create(people("Ada", "Brok"))
    other = second.get(table.id)
    game = table.game
    reads = []
    read = game.catch_up

    def slow_read():  # a database under load: each read takes a while
        reads.append(1)
        time.sleep(0.05)
        return read()

    game.catch_up = slow_read  # type: ignore[method-assign]
    for _ in range(3):
        seat = other.state.to_act()
        other.issue(seat, other.game.legal()[0])
        expected = other.seq
        reads.clear()
        start = threading.Barrier(30)
        seen: list[int] = []

        def spectator(start: threading.Barrier = start, seen: list[int] = seen) -> None:
            start.wait()
            table.refresh()
            seen.append(table.seq)  # what this spectator's stream would resume from

        crowd = [threading.Thread(target=spectator) for _ in range(30)]
        for thread in crowd:
            thread.start()
        for thread in crowd:
            thread.join(10)
        assert seen == [expected] * 30, "every refresh that returned had the move folded"
        assert 1 <= len(reads) <= 3, len(reads)  # one, or a few where asks straddled a read
    reads.clear()
    for _ in range(3):  # one after another, nobody waits: each asks the store itself
        table.refresh()
    assert len(reads) == 3
