"""``Lobby.branch``: a live table playing a what-if branch of a logged game, stored beside it.

The branch is ``core.branch.branch_game``'s (its first records the parent's, byte for byte,
then the fact); the lobby seats it as it seats a new game (tokens handed out once, kept
hashed), under an id of its own, within its places and its per-client bound.
"""

from __future__ import annotations

import hashlib
import secrets
from pathlib import Path

import pytest

from core.bots import make_bot
from core.bots.play import bot_command
from core.errors import BranchError, SetupError
from core.game import Game
from core.host import Lobby, LobbyFull, TooManyGames
from core.store import FileStore, MemoryStore, import_log, load_batches_bytes, token_hash

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
FOUR = (REPLAYS / "four-players.dmlog").read_bytes()  # seed 4; a batch ends at event 104
PERSON_AND_BOTS = [{"bot": None}, {"bot": "greedy"}, {"bot": "random"}, {"bot": "greedy"}]


def secret_game(finished: bool) -> bytes:
    """A two-bot game whose dice come from a secret seed: over (the secret revealed), or not."""
    game = Game.new(["Ada", "Brok"], secret=secrets.token_bytes(32))
    bot = make_bot("greedy")
    while not game.state.is_over and (finished or game.seq < 40):
        game.issue(bot_command(game, bot))
    game.reveal()
    return game.export()


def test_a_branch_is_a_new_table_stored_beside_its_parent(tmp_path):
    """Its own key, its parent's header id and first records, its seats hashed beside it."""
    store = FileStore(tmp_path, prefix="web-")
    scan, batches = load_batches_bytes(FOUR)
    import_log(store, scan, batches).close()  # the parent is in the store too, under its id
    lobby = Lobby(store, pace=0.0)
    table, tokens = lobby.branch(FOUR, 104, "same", PERSON_AND_BOTS, pace=0.0, client="a")
    assert table.id != "0000000000000004" and table.game.header["game_id"] == "0000000000000004"
    assert table.game.header["branch"] == {"parent": hashlib.sha256(FOUR).hexdigest(), "at": 104}
    assert {e.game_id for e in store.games()} == {"0000000000000004", table.id}
    kept = [b.end for b in batches].index(104) + 1
    assert list(store.read(table.id).payloads())[:kept] == list(scan.payloads[:kept])
    assert table.state.facts.branches == ((hashlib.sha256(FOUR).hexdigest(), 104, "same"),)
    assert list(tokens) == [0] and table.seat_for(tokens[0]) == 0
    seating = store.seating(table.id)
    assert seating is not None and seating.seats[0].token_hash == token_hash(tokens[0])
    assert tokens[0] not in store.seating_path(table.id).read_text()
    assert [s.bot for s in seating.seats] == [None, "greedy", "random", "greedy"]
    assert [s.name for s in seating.seats] == list(scan.header["players"])
    assert table.owner == "a" and lobby.tables() == [table]
    lobby.close()


def test_the_same_luck_rolls_the_parents_dice_for_the_same_move():
    """The move the original made after the branch point brings the events it brought."""
    _scan, batches = load_batches_bytes(FOUR)
    after = next(b for b in batches if b.seq == 104)
    seats = [{"bot": None}] * 4  # people at every seat: nothing moves by itself
    lobby = Lobby(MemoryStore(), pace=0.0)
    table, _tokens = lobby.branch(FOUR, 104, "same", seats)
    assert table.state.to_act() == after.command.seat
    commits = table.issue(after.command.seat, after.command)
    assert [e for c in commits for e in c.batch.events] == list(after.events)
    lobby.close()


def test_fresh_luck_is_recorded_in_the_branch():
    lobby = Lobby(MemoryStore(), pace=0.0)
    chosen, _ = lobby.branch(FOUR, 104, "fresh", [{"bot": None}] * 4, seed=5)
    drawn, _ = lobby.branch(FOUR, 104, "fresh", [{"bot": None}] * 4)
    assert chosen.state.facts.branch_seed == 5
    assert isinstance(drawn.state.facts.branch_seed, int)  # a random seed, logged: no secret
    assert chosen.id != drawn.id
    lobby.close()


def test_a_revealed_secret_game_branches_with_the_same_luck():
    data = secret_game(finished=True)
    _scan, batches = load_batches_bytes(data)
    point = batches[10].end
    after = batches[11]
    lobby = Lobby(MemoryStore(), pace=0.0)
    table, _ = lobby.branch(data, point, "same", [{"bot": None}, {"bot": None}])
    commits = table.issue(after.command.seat, after.command)
    assert [e for c in commits for e in c.batch.events] == list(after.events)
    lobby.close()


@pytest.mark.parametrize(
    ("at", "luck", "players", "options", "error", "fragment"),
    [
        (104, "lucky", PERSON_AND_BOTS, {}, SetupError, "luck is 'same' or 'fresh'"),
        (104, "same", PERSON_AND_BOTS, {"seed": 3}, SetupError, "a seed goes with fresh luck"),
        (104, "same", PERSON_AND_BOTS[:2], {}, SetupError, "a list of 4 seats"),
        (104, "same", [{"bot": "nobody"}] * 4, {}, SetupError, "unknown bot 'nobody'"),
        (104, "same", [{"name": "Ann", "bot": None}] * 4, {}, SetupError, "keeps its players'"),
        (104, "same", PERSON_AND_BOTS, {"pace": -1}, SetupError, "pace must be"),
        (86, "same", PERSON_AND_BOTS, {}, BranchError, "nearest branch points are 83 and 88"),
        (139, "same", PERSON_AND_BOTS, {}, BranchError, "over"),
        (500, "same", PERSON_AND_BOTS, {}, BranchError, "beyond its end"),
    ],
)
def test_a_branch_refused_says_why_and_takes_no_place(at, luck, players, options, error, fragment):
    store = MemoryStore()
    lobby = Lobby(store, limit=1)
    with pytest.raises(error, match=fragment):
        lobby.branch(FOUR, at, luck, players, **options)
    assert lobby.tables() == [] and store.games() == []
    lobby.branch(FOUR, 104, "same", [{"bot": None}] * 4)  # the one place is still free
    lobby.close()


def test_the_same_luck_of_a_secret_not_revealed_is_refused_in_words():
    data = secret_game(finished=False)
    _scan, batches = load_batches_bytes(data)
    lobby = Lobby(MemoryStore(), pace=0.0)
    with pytest.raises(BranchError, match="secret seed not revealed yet"):
        lobby.branch(data, batches[5].end, "same", [{"bot": None}, {"bot": None}])
    table, _ = lobby.branch(data, batches[5].end, "fresh", [{"bot": None}, {"bot": None}])
    assert table.state.facts.branch_seed is not None
    lobby.close()


def test_a_solo_branch_is_played_by_a_person():
    solo = (REPLAYS / "solo.dmlog").read_bytes()
    _scan, batches = load_batches_bytes(solo)
    lobby = Lobby(MemoryStore(), pace=0.0)
    with pytest.raises(SetupError, match="played by a person"):
        lobby.branch(solo, batches[3].end, "same", [{"bot": "greedy"}])
    table, tokens = lobby.branch(solo, batches[3].end, "same", [{"bot": None}])
    assert table.state.mode == "solo" and list(tokens) == [0]
    lobby.close()


def test_a_branch_keeps_the_lobbys_places_and_per_client_bound():
    lobby = Lobby(MemoryStore(), limit=2, per_client=1)
    people = [{"bot": None}] * 4
    lobby.branch(FOUR, 104, "same", people, client="a")
    with pytest.raises(TooManyGames):
        lobby.branch(FOUR, 104, "same", people, client="a")
    lobby.branch(FOUR, 104, "same", people, client="b")
    with pytest.raises(LobbyFull):
        lobby.branch(FOUR, 104, "same", people, client="c")
    assert len(lobby.tables()) == 2
    lobby.close()


def test_a_branch_is_taken_up_again_with_its_links_after_a_restart(tmp_path):
    store = FileStore(tmp_path, prefix="web-")
    lobby = Lobby(store, pace=0.0)
    table, tokens = lobby.branch(FOUR, 104, "fresh", [{"bot": None}, *PERSON_AND_BOTS[1:]], seed=9)
    seq = table.seq
    lobby.close()
    again = Lobby(FileStore(tmp_path, prefix="web-"), pace=0.0)
    report = again.take_up()
    assert report.resumed == [table.id]
    taken = again.get(table.id)
    assert taken is not None and taken.seq == seq and taken.seat_for(tokens[0]) == 0
    assert taken.state.facts.branch_seed == 9
    again.close()
