"""Record the upcasting fixtures in ``tests/data/``: real games logged at an old event schema.

* ``herochosen-v1.dmlog``: ``HeroChosen`` gained its ``faces`` field in schema
  version 2 (heroes chosen, the default);
* ``heroesdealt-v1.dmlog``: ``HeroesDealt`` gained ``faces`` (each seat's hero's
  faces) in schema version 2 (heroes dealt at random);
* ``requests-v1.dmlog``: the batch record itself gained ``"request"`` (the client's
  request id it answers) in record version 2; this game was played with a request id
  for every command, which version-1 records did not keep.

Each fixture was first recorded by the engine *before* its event's change, by
this script; ``tests/core/test_upcasters.py`` loads them to prove that old logs are
upcast and replay to the state they recorded (see ``core/events/upcasters.py``).

Run again after the change, the script writes the same bytes: it plays the same
seeded game and encodes the changed event at version 1 (``faces`` left out,
``"v": 1``), which is exactly how the engine wrote it then. ``--check`` compares
instead of writing (exit 1 on any difference)::

    .venv/bin/python -m scripts.make_upcast_fixture [--check]

Next to each log, a ``.json`` file records what that engine's state was at the
end (phase, heroes, troves, faces, scores, winners), so the test compares the
replay with what was recorded, not with whatever today's rules would decide.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import msgpack
from attrs import frozen

from core.bots import RandomBot, bot_rng
from core.events.codec import Batch, encode_batch
from core.game import Game
from core.log import LogWriter, read_log_bytes
from core.projections.state import GameState

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"


#: The ``tag`` of a fixture whose batch records (not an event) are at version 1.
BATCH = "batch"


@frozen
class Fixture:
    """One recorded game: random bots from a fixed seed, with undos, ``tag`` at version 1."""

    name: str  # the files' name, without the suffix
    tag: str  # the event written at schema version 1 (its ``faces`` left out)
    players: tuple[str, ...]
    seed: int
    hero_deal: str
    #: Commands after which the game steps back once (so an undone event is in the log too).
    undo_after: tuple[int, ...]

    @property
    def log(self) -> Path:
        return DATA / f"{self.name}.dmlog"

    @property
    def state(self) -> Path:
        return DATA / f"{self.name}.json"


FIXTURES = (
    # the second hero choice undone, and a move in the first excavation
    Fixture("herochosen-v1", "HeroChosen", ("Ada", "Brok", "Cira"), 20190707, "choose", (2, 9)),
    # the deal is the opening batch (never undone); a move in the first excavation
    Fixture("heroesdealt-v1", "HeroesDealt", ("Ada", "Brok", "Cira", "Dvalin"), 20191105,
            "random", (5,)),
    # every command with a request id ("r1", "r2", ...), one of them an undo
    Fixture("requests-v1", BATCH, ("Ada", "Brok"), 20261127, "choose", (4,)),
)  # fmt: skip


def play(fixture: Fixture) -> Game:
    """The recorded game."""
    game = Game.new(fixture.players, seed=fixture.seed, hero_deal=fixture.hero_deal)
    bot, issued = RandomBot(), 0
    while not game.state.is_over:
        seat = game.to_act()
        rng = bot_rng(game.state, game.timeline.depth, seat)
        asked = fixture.tag == BATCH
        game.issue(bot.choose(game.state, game.legal(), rng), f"r{issued + 1}" if asked else None)
        issued += 1
        if issued in fixture.undo_after:
            game.undo(seat, f"u{issued}" if asked else None)
    return game


def encode_v1(batch: Batch, tag: str) -> bytes:
    """The batch's payload with every ``tag`` event at schema version 1 (no ``faces``), or
    for ``BATCH`` the record at version 1 (no ``"v"``, no ``"request"``)."""
    data = msgpack.unpackb(encode_batch(batch), raw=False)
    for event in data["events"]:
        if event["t"] == tag:
            event.pop("faces", None)
            event["v"] = 1
    return msgpack.packb(data, use_bin_type=True)


def log_bytes(game: Game, fixture: Fixture) -> bytes:
    """The log file as the version-1 engine wrote it (written to a scratch file, read back)."""
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / fixture.log.name
        with LogWriter.create(path, dict(game.header), sync=False) as writer:
            writer.append_many(encode_v1(b, fixture.tag) for b in game.batches())
        return path.read_bytes()


def state_record(state: GameState, seq: int) -> dict[str, Any]:
    """The parts of the final state the fixture test compares, as JSON."""
    return {
        "seq": seq,
        "phase": state.phase,
        "round": state.round,
        "names": list(state.names),
        "heroes": list(state.heroes),
        "troves": [list(t) for t in state.troves],
        "faces": list(state.faces),
        "mountain": list(state.mountain),
        "bag": list(state.bag),
        "round_scores": [[list(s) for s in rounds] for rounds in state.round_scores],
        "totals": list(state.totals()),
        "winners": list(state.winners),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the files; write none")
    args = parser.parse_args(argv)
    failed = 0
    for fixture in FIXTURES:
        game = play(fixture)
        data = log_bytes(game, fixture)
        read_log_bytes(data)  # never write a log this program cannot read
        record = json.dumps(state_record(game.state, game.seq), indent=1) + "\n"
        if args.check:
            same = fixture.log.exists() and fixture.log.read_bytes() == data
            same = same and fixture.state.read_text() == record
            print(f"{fixture.log.name}: {'reproduced byte for byte' if same else 'DIFFERS'}")
            failed += not same
            continue
        DATA.mkdir(exist_ok=True)
        fixture.log.write_bytes(data)
        fixture.state.write_text(record)
        size = f"{len(data)} bytes, {game.seq} events"
        print(f"wrote {fixture.log} ({size}) and {fixture.state.name}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
