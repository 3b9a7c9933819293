"""Leaving and the rematch over one PostgreSQL database shared by workers: a person who
leaves a game they made frees its place site-wide, whichever worker they ask, and a
finished game's rematch is logged in it from any worker."""

from __future__ import annotations

import pytest

from core.host import Lobby, TooManyGames
from core.store.postgres import PostgresStore

pytestmark = pytest.mark.usefixtures("postgres_server")


def people(*names):
    return [{"name": name, "bot": None} for name in names]


@pytest.fixture
def workers(postgres_server):
    url = postgres_server.fresh_schema()
    made = [Lobby(PostgresStore(url), pace=0.0, per_client=1) for _ in range(2)]
    yield made
    for lobby in made:
        lobby.close()
        lobby.store.close()


def test_leaving_through_another_worker_frees_the_makers_place(workers):
    maker, other = workers
    table, _ = maker.create(people("Ada", "Brok"), client="10.0.0.1")
    with pytest.raises(TooManyGames):
        other.create(people("Ada", "Brok"), client="10.0.0.1")
    served = other.get(table.id)
    assert served is not None
    other.leave(served, 0, client="10.0.0.2")  # not its maker: the place stays held
    with pytest.raises(TooManyGames):
        other.create(people("Ada", "Brok"), client="10.0.0.1")
    other.leave(served, 1, client="10.0.0.1")  # its maker: closed, as no person is left
    assert served.state.is_over
    again, _ = other.create(people("Cira", "Dain"), client="10.0.0.1")
    other.leave(other.get(again.id), 1, client="10.0.0.1")  # Cira plays on alone
    assert not other.get(again.id).state.is_over
    other.create(people("Eda", "Fro"), client="10.0.0.1")  # the maker's place is free


def test_a_rematch_is_logged_in_the_finished_game_from_any_worker(workers):
    maker, other = workers
    table, tokens = maker.create(people("Ada", "Brok"), client="10.0.0.1")
    table.close_game("over for the test")
    watched = other.get(table.id)
    assert watched is not None and watched.state.is_over
    new = other.rematch(watched, client="10.0.0.1")
    assert new.seat_for(tokens[0]) == 0 and new.seat_for(tokens[1]) == 1
    held = maker.get(table.id)
    held.refresh()
    assert held.state.facts.rematch == new.id
