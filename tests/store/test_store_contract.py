"""The store contract: what every backend must do, run unchanged over each (``-k contract``).

``tests/support/store_backends.py`` lists the backends; a new one passes these tests or
is not a store. The games stored are real ones (random bots in memory), so the
batches are what a live game appends.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from core.bots import make_bot
from core.bots.play import bot_command
from core.errors import GameBusy, GameDamaged, GameExists, GameNotFound, StoreConflict
from core.events.codec import Batch, encode_batch
from core.game import Game
from core.log import read_log_bytes
from core.store import Seating, SeatRecord, Stream, load_batches_bytes, token_hash
from core.store.file import decode_scan
from tests.support.games import copy_into, played
from tests.support.store_backends import Backend


def test_contract_a_created_game_reads_back_as_written(store_backend: Backend):
    """Its header, its batches and their payloads come back exactly; its next seq is its end."""
    source = played(1, 12)
    stream = copy_into(store_backend.make(), source)
    assert stream.game_id == "g1"
    assert {k: v for k, v in stream.header.items() if k != "format"} == dict(
        (k, v) for k, v in source.header.items() if k != "format"
    )
    assert list(stream.batches()) == source.batches()
    assert list(stream.payloads()) == list(source.stream.payloads())
    assert stream.next_seq() == source.seq


def test_contract_a_new_game_holds_its_opening_batch_from_the_start(store_backend: Backend):
    """A game is never stored without its opening batch, and a store opened again has it."""
    store = store_backend.make()
    game = Game.new(["Ada", "Brok"], 5, game_id="opening", store=store)
    again = store_backend.reopen(store).read("opening")
    assert list(again.batches()) == game.batches()
    assert again.next_seq() == game.seq > 0


def test_contract_a_game_id_is_never_reused(store_backend: Backend):
    """Creating a game whose id is taken raises GameExists and leaves the first untouched."""
    store = store_backend.make()
    first = copy_into(store, played(2, 3, "same"))
    other = played(3, 0, "same")
    with pytest.raises(GameExists):
        store.create(other.header, other.batches()[0])
    assert list(store.read("same").payloads()) == list(first.payloads())


def test_contract_an_unknown_game_is_not_found(store_backend: Backend):
    """Opening or reading an id the store never held raises GameNotFound."""
    store = store_backend.make()
    with pytest.raises(GameNotFound):
        store.open("nope")
    with pytest.raises(GameNotFound):
        store.read("nope")
    with pytest.raises(GameNotFound):
        store.seating("nope")


def test_contract_appends_must_start_at_the_next_seq(store_backend: Backend):
    """A batch before or after the game's end is a StoreConflict, and nothing is written."""
    source = played(4, 10)
    *head, last = source.batches()
    store = store_backend.make()
    stream = store.create(source.header, head[0])
    for batch in head[1:]:
        stream.append(batch)
    before = list(stream.payloads())
    for seq in (last.seq - 1, last.seq + 1, 0):
        with pytest.raises(StoreConflict) as refused:
            stream.append(Batch(seq, last.command, last.events))
        assert refused.value.expected == seq
    assert list(stream.payloads()) == before
    stream.append(last)
    assert list(stream.batches()) == source.batches()


def test_contract_reading_from_any_seq_gives_the_batches_reaching_it(store_backend: Backend):
    """For every seq, the batches whose events reach it or later, in order."""
    source = played(5, 15)
    stream = copy_into(store_backend.make(), source)
    everything = source.batches()
    for seq in range(source.seq + 2):
        assert list(stream.batches(seq)) == [b for b in everything if b.end > seq]


def test_contract_another_store_object_sees_every_append(store_backend: Backend):
    """What one store object appended, another over the same place reads (durably kept)."""
    store = store_backend.make()
    source = played(6, 9)
    first, *rest = source.batches()
    writer = store.create(source.header, first)
    reader = store_backend.reopen(store).read(source.game_id)
    for batch in rest:
        writer.append(batch)
        assert reader.next_seq() == batch.end
    assert list(reader.batches()) == source.batches()
    writer.close()
    assert list(store_backend.reopen(store).open(source.game_id).batches()) == source.batches()


def test_contract_a_reader_cannot_append(store_backend: Backend):
    """A game opened with ``read`` refuses appends and stays as it was."""
    store = store_backend.make()
    source = played(7, 4)
    *head, last = source.batches()
    stream = store.create(source.header, head[0])
    for batch in head[1:]:
        stream.append(batch)
    reader = store.read(source.game_id)
    with pytest.raises(Exception):  # noqa: B017  (a reader's append is refused, however)
        reader.append(last)
    assert stream.next_seq() == last.seq


def test_contract_follow_returns_at_once_when_batches_are_there(store_backend: Backend):
    """Following from a seq already reached answers immediately with what is stored."""
    source = played(8, 6)
    stream = copy_into(store_backend.make(), source)
    started = time.monotonic()
    assert stream.follow(0, timeout=5.0) == source.batches()
    assert stream.follow(source.seq - 1, timeout=5.0) == source.batches()[-1:]
    assert time.monotonic() - started < 2.0


def test_contract_follow_times_out_with_nothing(store_backend: Backend):
    """Following past the end waits for the timeout, then answers an empty list."""
    source = played(9, 3)
    stream = copy_into(store_backend.make(), source)
    started = time.monotonic()
    assert stream.follow(source.seq, timeout=0.3) == []
    assert time.monotonic() - started >= 0.25


def test_contract_a_follower_is_woken_by_another_writers_append(store_backend: Backend):
    """A reader following the end gets the batch another store object appends, promptly."""
    store = store_backend.make()
    source = played(10, 8)
    *head, last = source.batches()
    writer = store.create(source.header, head[0])
    for batch in head[1:]:
        writer.append(batch)
    follower = store_backend.reopen(store).read(source.game_id)
    got: list[list[Batch]] = []
    waiting = threading.Thread(target=lambda: got.append(follower.follow(last.seq, 10.0)))
    waiting.start()
    time.sleep(0.2)
    appended = time.monotonic()
    writer.append(last)
    waiting.join(10.0)
    assert got == [[last]]
    assert time.monotonic() - appended < 2.0


def test_contract_damage_is_reported_with_where_it_is(store_backend: Backend):
    """A stored batch whose bytes changed is GameDamaged naming its record, never replayed."""
    store = store_backend.make()
    source = played(11, 8)
    copy_into(store, source).close()
    store_backend.damage(store, source.game_id, 3)
    with pytest.raises(GameDamaged) as found:
        list(store_backend.reopen(store).read(source.game_id).batches())
    assert found.value.record == 3
    assert found.value.where  # a place a person can look at
    with pytest.raises(GameDamaged):
        Game.resume(store_backend.reopen(store), source.game_id)
    listed = {entry.game_id: entry for entry in store_backend.reopen(store).games()}
    assert source.game_id in listed  # never hidden from the catalogue


def test_contract_the_catalogue_lists_every_game_oldest_first(store_backend: Backend):
    """``games`` names each game with its header and how many events it holds."""
    store = store_backend.make()
    assert store.games() == []
    games = [played(seed, seed, f"cat{seed}") for seed in (12, 13, 14)]
    for game in games:
        copy_into(store, game).close()
        time.sleep(0.01)  # distinct times, so oldest-first is defined
    entries = store_backend.reopen(store).games()
    assert [e.game_id for e in entries] == ["cat12", "cat13", "cat14"]
    for entry, game in zip(entries, games, strict=True):
        assert entry.events == game.seq
        assert entry.header["players"] == ["Ada", "Brok", "Cira"]
        assert entry.header["game_id"] == game.game_id
        assert entry.updated > 0


def test_contract_seating_is_kept_beside_the_game_and_never_in_its_log(store_backend: Backend):
    """Seats and token hashes are saved, replaced and read back; the log never holds them."""
    store = store_backend.make()
    source = played(15, 2)
    stream = copy_into(store, source)
    assert store.seating(source.game_id) is None
    secret = token_hash("a-secret-token-of-some-length")
    seating = Seating(
        (SeatRecord("Ada", None, secret), SeatRecord("Brok", "greedy")), 0.5, "5e" * 32
    )
    store.save_seating(source.game_id, seating)
    assert store_backend.reopen(store).seating(source.game_id) == seating
    taken_over = Seating((SeatRecord("Ada", "random"), SeatRecord("Brok", "greedy")), None)
    store.save_seating(source.game_id, taken_over)
    assert store_backend.reopen(store).seating(source.game_id) == taken_over
    assert secret.encode() not in stream.export() and b"5e" * 32 not in stream.export()
    with pytest.raises(GameNotFound):
        store.save_seating("nope", seating)


def test_contract_a_game_can_be_created_with_its_seating(store_backend: Backend):
    """Seating given at creation is there as soon as the game is: never one without the other."""
    store = store_backend.make()
    source = played(19, 0, "seated")
    seating = Seating((SeatRecord("Ada", None, token_hash("x" * 24)), SeatRecord("Brok", "greedy")))
    store.create(source.header, source.batches()[0], seating)
    assert store_backend.reopen(store).seating("seated") == seating


def test_contract_export_is_the_file_stores_log_byte_for_byte(store_backend: Backend, tmp_path):
    """A stored game exported is the file a ``Game.new(log=...)`` game holds for the same moves."""
    path = tmp_path / "reference.dmlog"
    reference = Game.new(["Ada", "Brok"], 16, game_id="export", log=path)
    stored = Game.new(["Ada", "Brok"], 16, game_id="export", store=store_backend.make())
    bot = make_bot("greedy")
    for _ in range(20):
        command = bot_command(reference, bot)
        reference.issue(command)
        stored.issue(command)
    stored.undo()
    reference.undo()
    reference.close()
    data = stored.export()
    assert data == path.read_bytes()
    _scan, batches = load_batches_bytes(data)
    assert batches == stored.batches()
    assert decode_scan(read_log_bytes(data)) == batches


def test_contract_two_writers_never_interleave(store_backend: Backend):
    """Racing appends at the same seq: exactly one wins, the others conflict, the log is whole.

    A store that allows one writer may refuse the second writer outright (GameBusy);
    then the race is between threads sharing the one writer.
    """
    store = store_backend.make()
    game = Game.new(["Ada", "Brok"], 17, game_id="race", store=store)
    writers = [game.stream]
    for _ in range(3):
        try:
            writers.append(store_backend.reopen(store).open("race"))
        except GameBusy:
            writers.append(game.stream)
    state = game.state
    seat = state.to_act()
    rivals = [c for c in game.legal()][:4]
    assert len(rivals) == 4 and seat is not None
    results: list[str] = []
    barrier = threading.Barrier(len(rivals))

    def race(stream: Stream, command) -> None:
        events = Game(stream, game.timeline).issue  # each rival decides on the same state
        barrier.wait()
        try:
            events(command)
            results.append("won")
        except StoreConflict:
            results.append("conflict")

    threads = [
        threading.Thread(target=race, args=(w, c)) for w, c in zip(writers, rivals, strict=True)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10.0)
    assert sorted(results) == ["conflict", "conflict", "conflict", "won"]
    again = Game.from_stream(store_backend.reopen(store).read("race"))
    assert again.seq == game.seq + 1
    assert again.batches()[-1].command in rivals


def test_contract_a_watcher_catches_up_with_the_writers_moves(store_backend: Backend):
    """``Game.catch_up`` on a reader folds what the writer appended, each event with its states."""
    store = store_backend.make()
    writer = Game.new(["Ada", "Brok"], 18, game_id="shared", store=store)
    watcher = Game.from_stream(store_backend.reopen(store).read("shared"))
    bot = make_bot("random")
    for _ in range(3):
        writer.issue(bot_command(writer, bot))
    writer.undo()
    commits = watcher.catch_up()
    assert [c.batch for c in commits] == writer.batches()[1:]
    assert watcher.state == writer.state and watcher.seq == writer.seq
    state = commits[0].before
    for commit in commits:
        assert commit.before == state
        for step in commit.steps:
            assert step.before == state
            state = step.after
        assert commit.after == state
    assert watcher.catch_up() == []


def test_contract_a_request_names_the_batches_it_made(store_backend: Backend):
    """A client's request id is kept beside the batches it appended, so a retry is known."""
    store = store_backend.make()
    game = Game.new(["Ada", "Brok"], 20, game_id="asked", store=store)
    bot = make_bot("random")
    start = game.seq
    game.issue(bot_command(game, bot), request="req-1")
    middle = game.seq
    game.undo(request="req-2")
    game.issue(bot_command(game, bot), request="req-2")  # one request, two batches
    assert game.stream.requested("req-1") == (start, middle)
    assert game.stream.requested("req-2") == (middle, game.seq)
    assert game.stream.requested("never") is None
    game.close()
    again = store_backend.reopen(store).open("asked")  # after a restart, a retry is known
    try:
        assert again.requested("req-1") == (start, middle)
        assert again.requested("req-2") == (middle, game.seq)
        assert again.requested("never") is None
    finally:
        again.close()


def test_contract_a_request_is_known_after_a_restart_and_in_an_export(store_backend: Backend):
    """The file store forgot request ids on restart, so a retried undo was played again."""
    store = store_backend.make()
    game = Game.new(["Ada", "Brok"], 20, game_id="kept", store=store)
    bot = make_bot("random")
    start = game.seq
    game.issue(bot_command(game, bot), request="req-1")
    done = game.seq
    game.issue(bot_command(game, bot))  # no request: a version-1 record, as before
    game.close()
    reader = store_backend.reopen(store).read("kept")
    try:
        assert reader.requested("req-1") == (start, done)
        data = reader.export()
    finally:
        reader.close()
    copy = store_backend.make()
    scan, batches = load_batches_bytes(data)
    adopted = copy.adopt(scan.header, scan.payloads, batches, game_id="kept-again")
    try:
        assert adopted.requested("req-1") == (start, done)
    finally:
        adopted.close()


#: events of an older version
OLD_LOG = Path(__file__).resolve().parents[1] / "data" / "herochosen-v1.dmlog"


def test_contract_a_log_is_adopted_with_its_bytes_under_its_id_or_another(store_backend: Backend):
    """``adopt`` keeps a whole log's records as they were read (an older version's bytes are
    never encoded again), under the header's id or another key with its seating: a what-if
    branch, whose header and first batch name its parent's id, is stored beside its parent."""
    data = OLD_LOG.read_bytes()
    scan, batches = load_batches_bytes(data)
    assert any(encode_batch(b) != p for b, p in zip(batches, scan.payloads, strict=True))
    store = store_backend.make()
    original = scan.header["game_id"]
    store.adopt(scan.header, scan.payloads, batches).close()
    seats = tuple(SeatRecord(name, "greedy") for name in scan.header["players"])
    seating = Seating((SeatRecord(seats[0].name, None, token_hash("t" * 24)), *seats[1:]))
    other = store.adopt(scan.header, scan.payloads, batches, game_id="what-if", seating=seating)
    assert other.game_id == "what-if" and other.header["game_id"] == original
    other.close()
    again = store_backend.reopen(store)
    listed = {entry.game_id: entry for entry in again.games()}
    assert set(listed) == {original, "what-if"}
    assert listed["what-if"].header["game_id"] == original
    assert listed["what-if"].events == batches[-1].end
    for key in (original, "what-if"):
        assert list(again.read(key).payloads()) == list(scan.payloads)
        assert again.read(key).export() == data
    assert again.seating("what-if") == seating and again.seating(original) is None
    with pytest.raises(GameExists):
        again.adopt(scan.header, scan.payloads[:1], batches[:1], game_id="what-if")
    assert list(again.read("what-if").payloads()) == list(scan.payloads)
    game = Game.resume(again, "what-if")  # played on under its own key (the game is over:
    assert game.game_id == "what-if"  # its last move taken back)
    game.undo()
    game.close()
    assert again.read("what-if").next_seq() == game.seq
    assert again.read(original).next_seq() == batches[-1].end


def test_contract_adopted_batches_must_run_on_from_the_start(store_backend: Backend):
    """Batches with a gap, or without their payloads, are refused and nothing is stored."""
    source = played(21, 6)
    batches, payloads = source.batches(), list(source.stream.payloads())
    store = store_backend.make()
    with pytest.raises(StoreConflict):
        store.adopt(source.header, payloads[1:], batches[1:], game_id="gap")
    with pytest.raises(StoreConflict):
        store.adopt(source.header, payloads[:-1], batches, game_id="short")
    assert store_backend.reopen(store).games() == []


def test_contract_a_store_in_reach_answers_a_ping_and_nothing_changes(store_backend: Backend):
    """``ping`` (a server's readiness) passes while the store can be used, and stores nothing."""
    store = store_backend.make()
    store.ping()
    copy_into(store, played(22, 4))
    listed = store.games()
    store.ping()
    assert store_backend.reopen(store).games() == listed
