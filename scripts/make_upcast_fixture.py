"""Record ``tests/data/herochosen-v1.dmlog``: a real game whose HeroChosen events are schema 1.

``HeroChosen`` gained its ``faces`` field in schema version 2 (see
``core/events/game.py`` and ``core/events/upcasters.py``). The fixture was first
recorded by the engine *before* that change, by this script; ``tests/test_upcasters.py``
loads it to prove that old logs are upcast and replay to the state they recorded.

Run again after the change, the script writes the same bytes: it plays the same
seeded game and encodes each HeroChosen at version 1 (``faces`` left out,
``"v": 1``), which is exactly how the engine wrote it then. ``--check`` compares
instead of writing (exit 1 on any difference)::

    .venv/bin/python -m scripts.make_upcast_fixture [--check]

Next to the log, ``herochosen-v1.json`` records what that engine's state was at
the end (phase, heroes, troves, faces, scores, winners), so the test compares the
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

from core.bots import RandomBot, bot_rng
from core.events.codec import Batch, encode_batch
from core.game import Game
from core.log import LogWriter, read_log_bytes
from core.projections.state import GameState

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
LOG = DATA / "herochosen-v1.dmlog"
STATE = DATA / "herochosen-v1.json"

PLAYERS = ("Ada", "Brok", "Cira")
SEED = 20190707
#: Commands after which the game steps back once: the second hero choice (so an
#: undone HeroChosen is in the log too) and a move in the first excavation.
UNDO_AFTER = (2, 9)


def play() -> Game:
    """The recorded game: random bots from a fixed seed, with two undos."""
    game = Game.new(PLAYERS, seed=SEED)
    bot, issued = RandomBot(), 0
    while not game.state.is_over:
        seat = game.to_act()
        rng = bot_rng(game.state, game.timeline.depth, seat)
        game.issue(bot.choose(game.state, game.legal(), rng))
        issued += 1
        if issued in UNDO_AFTER:
            game.undo(seat)
    return game


def encode_v1(batch: Batch) -> bytes:
    """The batch's payload with every HeroChosen at schema version 1 (no ``faces``)."""
    data = msgpack.unpackb(encode_batch(batch), raw=False)
    for event in data["events"]:
        if event["t"] == "HeroChosen":
            event.pop("faces", None)
            event["v"] = 1
    return msgpack.packb(data, use_bin_type=True)


def log_bytes(game: Game) -> bytes:
    """The log file as the version-1 engine wrote it (written to a scratch file, read back)."""
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / LOG.name
        with LogWriter.create(path, game.store.header, sync=False) as writer:
            writer.append_many(encode_v1(b) for b in game.batches())
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
    game = play()
    data = log_bytes(game)
    read_log_bytes(data)  # never write a log this program cannot read
    record = json.dumps(state_record(game.state, game.seq), indent=1) + "\n"
    if args.check:
        same = LOG.read_bytes() == data and STATE.read_text() == record
        print(f"{LOG.name}: {'reproduced byte for byte' if same else 'DIFFERS'}")
        return 0 if same else 1
    DATA.mkdir(exist_ok=True)
    LOG.write_bytes(data)
    STATE.write_text(record)
    print(f"wrote {LOG} ({len(data)} bytes, {game.seq} events) and {STATE.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
