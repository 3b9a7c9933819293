"""The PostgreSQL store beyond the contract: what the database itself guarantees.

The contract suite (``-k contract``) runs on PostgreSQL too; these tests try the
rest against the same real server: the append-only trigger, the announcements,
seating rows, the schema's migrations, a server stopped and started again under
a live store, and writers racing from threads and processes.
"""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
import threading
import time

import psycopg
import pytest

from core.errors import GameDamaged, StoreConflict, StoreError, StoreUnavailable
from core.events.codec import Batch
from core.game import Game
from core.store import Seating, SeatRecord, open_store, token_hash
from core.store.pgschema import LATEST, NOTIFY_CHANNEL, migrate
from core.store.postgres import PostgresStore, public_url
from core.verify import rerun
from tests.support.games import copy_into, played
from tests.support.pg_cluster import PostgresServer, with_schema
from tests.support.pg_workers import race, race_in_process

REFUSED = psycopg.errors.ProhibitedSqlStatementAttempted


@pytest.fixture
def url(postgres_server: PostgresServer) -> str:
    """A new, empty schema of the session's server."""
    return postgres_server.fresh_schema()


@pytest.fixture
def opened():
    """Opens store objects (``opened(url)``), closing every one after the test."""
    stores: list[PostgresStore] = []

    def open_one(url: str, **options) -> PostgresStore:
        stores.append(PostgresStore(url, **options))
        return stores[-1]

    yield open_one
    for store in stores:
        store.close()


@pytest.fixture
def store(url, opened):
    return opened(url)


def stored_game(store, seed: int = 31, commands: int = 10) -> Game:
    """A game of random bots copied into ``store``; returns the source game."""
    source = played(seed, commands, f"pg{seed}")
    copy_into(store, source)
    return source


# -- the database keeps the log append-only ------------------------------------------


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE batches SET payload = '\\x00'::bytea WHERE record = 2",
        "UPDATE batches SET crc = crc WHERE false",
        "DELETE FROM batches WHERE record = 3",
        "DELETE FROM batches",
        "TRUNCATE batches",
        "DELETE FROM games",
        "TRUNCATE games CASCADE",
        "UPDATE games SET header = '\\x80'::bytea",
        "UPDATE games SET next_seq = 1",
    ],
)
def test_the_database_refuses_to_change_or_remove_what_is_stored(store, url, opened, statement):
    """Raw SQL through psycopg (as the tables' owner, a superuser even) is refused."""
    source = stored_game(store)
    before = store.read(source.game_id).export()
    with psycopg.connect(url, autocommit=True) as conn:
        with pytest.raises(REFUSED, match="dice miner: "):
            conn.execute(statement)
        assert conn.execute("SELECT count(*) FROM batches").fetchone()[0] == len(source.batches())
    assert opened(url).read(source.game_id).export() == before


def test_each_append_is_announced_with_the_game_and_its_next_seq(store, url):
    """``LISTEN dice_miner_appends`` hears '<game id> <next seq>' as each append commits."""
    source = played(32, 6, "heard")
    *head, last = source.batches()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
        stream = store.create(source.header, head[0])
        for batch in [*head[1:], last]:
            stream.append(batch)
        heard = [n.payload for n in conn.notifies(timeout=2.0, stop_after=len(head) + 1)]
    assert heard == [f"heard {b.end}" for b in source.batches()]


def test_seating_is_one_row_per_seat_with_only_the_tokens_hash(store, url):
    """Seats are rows beside the game (the token's hash, never the token), replaced whole."""
    source = stored_game(store, 33, 2)
    secret = "a-secret-token-of-some-length"
    store.save_seating(
        source.game_id,
        Seating((SeatRecord("Ada", None, token_hash(secret)), SeatRecord("Brok", "greedy")), 0.3),
    )
    store.save_seating(
        source.game_id, Seating((SeatRecord("Ada", "random"), SeatRecord("Brok", "greedy")))
    )
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT seat, name, bot, token_hash FROM seats ORDER BY seat"
        ).fetchall()
        pace = conn.execute("SELECT pace FROM seatings").fetchall()
        dump = conn.execute("SELECT string_agg(payload::text, '') FROM batches").fetchone()[0]
    assert rows == [(0, "Ada", "random", None), (1, "Brok", "greedy", None)]
    assert pace == [(None,)]
    assert secret not in dump and token_hash(secret) not in dump


# -- damage names where it is --------------------------------------------------------


def test_damage_names_the_database_without_its_password_the_game_seq_and_record(url, opened):
    """A batch changed behind the store's back: GameDamaged names where, never the password."""
    with_password = url.replace("postgres@", "postgres:hunter2@", 1)
    store = opened(with_password)
    source = stored_game(store, 34, 8)
    third = source.batches()[2]
    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        conn.execute("SET LOCAL session_replication_role = replica")  # past the trigger
        conn.execute("UPDATE batches SET crc = crc # 1 WHERE record = 3")
    with pytest.raises(GameDamaged) as found:
        Game.resume(opened(with_password), source.game_id)
    message = str(found.value)
    assert found.value.record == 3 and "checksum" in found.value.reason
    assert f"game {source.game_id}, batch at seq {third.seq}: damaged (record 3)" in message
    assert "127.0.0.1" in message and "hunter2" not in message
    assert "hunter2" not in store.url and "postgres@127.0.0.1" in store.url


def test_a_missing_record_is_damage_not_a_shorter_game(store, url, opened):
    """A batch deleted behind the store's back is reported at its record, never skipped."""
    source = stored_game(store, 35, 8)
    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        conn.execute("SET LOCAL session_replication_role = replica")
        conn.execute("DELETE FROM batches WHERE record = 4")
    with pytest.raises(GameDamaged) as found:
        list(opened(url).read(source.game_id).batches())
    assert found.value.record == 4 and "missing" in found.value.reason


@pytest.mark.parametrize(
    "bad", ["postgresql://ada:s3cret@[::1/dm", "postgresql://ada:s3cret@127.0.0.1:1/dm?bogus=1"]
)
def test_a_url_that_does_not_parse_is_refused_without_showing_its_password(bad):
    with pytest.raises(StoreError, match="not a database URL") as refused:
        PostgresStore(bad)
    assert "s3cret" not in str(refused.value)


def test_public_url_drops_the_password_wherever_it_is():
    assert public_url("postgresql://ada:s3cret@db.example:5432/dm") == (
        "postgresql://ada@db.example:5432/dm"
    )
    assert public_url("postgres://db/dm?password=s3cret&sslmode=require") == (
        "postgres://db/dm?sslmode=require"
    )


# -- the schema ----------------------------------------------------------------------


def test_migrating_an_empty_database_then_again_is_a_no_op(url):
    """The first run applies every migration, in order, once; the next applies nothing."""
    with psycopg.connect(url, autocommit=True) as conn:
        assert migrate(conn) == list(range(1, LATEST + 1))
        tables = conn.execute(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() ORDER BY 1"
        ).fetchall()
        assert migrate(conn) == []
        versions = conn.execute("SELECT version FROM schema_version").fetchall()
    assert [t for (t,) in tables] == [
        "analyses", "batches", "bot_turns", "games", "live_games", "schema_version", "seatings",
        "seats", "sweeps",
    ]  # fmt: skip
    assert versions == [(v,) for v in range(1, LATEST + 1)]


def test_stores_starting_together_migrate_once(url):
    """Several store objects made at once on an empty database: one migrates, none fails."""
    opened: list[PostgresStore] = []
    failures: list[BaseException] = []
    barrier = threading.Barrier(4)

    def start() -> None:
        barrier.wait()
        try:
            opened.append(PostgresStore(url))
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    for s in opened:
        s.close()
    assert failures == [] and len(opened) == 4
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT count(*) FROM schema_version").fetchone()[0] == LATEST


def test_a_schema_newer_than_this_program_is_refused(url, opened):
    """A database migrated by a newer dice-miner is not written by this one."""
    opened(url)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO schema_version (version, description) VALUES (999, 'future')")
    with pytest.raises(StoreError, match="upgrade dice-miner"):
        PostgresStore(url)


def test_open_store_takes_both_url_schemes(url):
    for named in (url, url.replace("postgresql://", "postgres://", 1)):
        store = open_store(named)
        try:
            assert isinstance(store, PostgresStore) and store.games() == []
        finally:
            store.close()


def test_only_the_postgres_store_imports_psycopg():
    """The engine, the stores' package and the command line start without loading psycopg."""
    code = (
        "import sys, core.game, core.store, frontends.cli.main; "
        "print(sorted(m for m in sys.modules if m.startswith('psycopg')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


# -- a server that goes away ---------------------------------------------------------


def test_a_stopped_server_is_unavailable_and_the_same_store_works_once_it_is_back(
    postgres_server, url, opened
):
    """Every call while the server is down is StoreUnavailable (a plain message); after a
    restart the same store object goes on, every acknowledged append still there, and a
    follower waiting through it all sees the next append."""
    if not postgres_server.throwaway:
        pytest.skip("stopping the server needs the tests' own cluster")
    source = played(36, 12, "downtime")
    batches = source.batches()
    store = opened(url, timeout=0.3)
    watcher = opened(url, timeout=0.3)
    stream = store.create(source.header, batches[0])
    for batch in batches[1:8]:
        stream.append(batch)
    follower = watcher.read(source.game_id)
    followed: list[list[Batch]] = []
    waiting = threading.Thread(target=lambda: followed.append(follower.follow(batches[8].seq, 30)))
    waiting.start()
    time.sleep(0.3)
    postgres_server.stop_now()
    try:
        calls = {
            "append": lambda: stream.append(batches[8]),
            "next_seq": stream.next_seq,
            "batches": lambda: list(store.read(source.game_id).batches()),
            "games": store.games,
            "create": lambda: store.create({"game_id": "other"}, batches[0]),
            "seating": lambda: store.seating(source.game_id),
        }
        for name, call in calls.items():
            with pytest.raises(StoreUnavailable) as down:
                call()
            message = str(down.value)
            assert "cannot be reached" in message and "try again later" in message, name
            assert down.value.__cause__ is None and "Traceback" not in message
    finally:
        postgres_server.start_again()
    deadline = time.monotonic() + 15
    while True:  # the pool connects again by itself
        try:
            assert stream.next_seq() == batches[8].seq
            break
        except StoreUnavailable:
            assert time.monotonic() < deadline, "the store never came back"
            time.sleep(0.1)
    for batch in batches[8:]:
        stream.append(batch)
    waiting.join(15)
    assert followed and followed[0][0] == batches[8]  # woken, though notices were lost
    assert list(opened(url).read(source.game_id).batches()) == batches


# -- many followers, one connection --------------------------------------------------


def test_hundreds_of_followers_share_one_listening_connection(store, url, opened):
    """200 followers of 4 games on one store object: one LISTEN connection, a few pooled
    ones, and each follower woken by its own game's append."""
    games = [played(40 + n, 6, f"watched{n}") for n in range(4)]
    writers = []
    for game in games:
        *head, _last = game.batches()
        stream = store.create(game.header, head[0])
        for batch in head[1:]:
            stream.append(batch)
        writers.append(stream)
    watchers = opened(url)
    results: dict[int, list[Batch]] = {}
    followers = [watchers.read(g.game_id) for g in games]

    def follow(n: int) -> None:
        game = games[n % 4]
        results[n] = followers[n % 4].follow(game.batches()[-1].seq, 20.0)

    threads = [threading.Thread(target=follow, args=(n,)) for n in range(200)]
    for t in threads:
        t.start()
    time.sleep(1.0)
    with psycopg.connect(url) as conn:
        listening, connections = conn.execute(
            "SELECT count(*) FILTER (WHERE query LIKE 'LISTEN%%'), count(*) "
            "FROM pg_stat_activity WHERE backend_type = 'client backend'"
        ).fetchone()
    started = time.monotonic()
    for game, stream in zip(games, writers, strict=True):
        stream.append(game.batches()[-1])
    for t in threads:
        t.join(20)
    took = time.monotonic() - started
    watchers.close()  # its listener and its pool go with it (the server sees it at once)
    with psycopg.connect(url, autocommit=True) as conn:
        for _ in range(50):
            still = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'LISTEN%%'"
            ).fetchone()[0]
            if still == 0:
                break
            time.sleep(0.05)
    assert listening == 1 and still == 0
    assert connections <= 2 * 10 + 2  # two pools and one listener, never one per follower
    assert len(results) == 200 and took < 5.0
    for n, got in results.items():
        assert got == games[n % 4].batches()[-1:]


# -- writers racing ------------------------------------------------------------------


def test_writers_racing_from_threads_and_processes_never_interleave_or_lose_an_append(store, url):
    """Three processes and three threads, each with its own store object, append to one game:
    every acknowledged batch is stored at its seq, nothing else is, and the log re-runs."""
    game = Game.new(["Ada", "Brok", "Cira"], 37, game_id="raced", store=store)
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    processes = [
        context.Process(target=race_in_process, args=(url, "raced", 12, queue)) for _ in range(3)
    ]
    for p in processes:
        p.start()
    outcomes: list[tuple[list[tuple[int, bytes]], int]] = []
    threads = [
        threading.Thread(target=lambda: outcomes.append(race(url, "raced", 12))) for _ in range(3)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    outcomes += [queue.get(timeout=60) for _ in processes]
    for p in processes:
        p.join(30)
        assert p.exitcode == 0
    acknowledged = [ack for made, _conflicts in outcomes for ack in made]
    assert len(outcomes) == 6 and len(acknowledged) == 6 * 12
    stored = store.read(game.game_id)
    batches = list(stored.batches())
    by_seq = dict(zip((b.seq for b in batches), stored.payloads(), strict=True))
    assert len(batches) == 1 + len(acknowledged)  # the opening batch, then each acknowledged
    for seq, payload in acknowledged:
        assert by_seq[seq] == payload
    assert rerun(batches) is None  # each batch decided on the state before it: none interleaved
    assert sum(conflicts for _made, conflicts in outcomes) > 0  # they did race


def test_a_conflict_names_the_game_and_both_seqs(store):
    source = stored_game(store, 38, 4)
    last = source.batches()[-1]
    with pytest.raises(StoreConflict) as refused:
        store.open(source.game_id).append(Batch(last.seq, last.command, last.events))
    assert refused.value.expected == last.seq and refused.value.actual == source.seq
    assert "pg38" in str(refused.value)


def test_schema_urls_keep_each_test_apart(postgres_server):
    """The helper's fresh schemas are empty and distinct (what every test here relies on)."""
    a, b = postgres_server.fresh_schema(), postgres_server.fresh_schema()
    assert a != b and with_schema("postgresql://h/db", "s").endswith("options=-csearch_path%3Ds")
