"""The floor under games per second: recording the same games' facts, with no deciding.

A game played by bots is deciding (each bot's legal list and pick, the rules'
checks and follow-on transitions) and recording what was decided. Recording is
what the design requires of every command whatever the rules say: the command
and its events made as frozen objects, one new immutable state per event, a
timeline frame, each batch encoded with the one converter into msgpack and
framed with its checksums, and the log written. This benchmark times recording
alone, on the commands and events of games played beforehand (untimed):

* per command: the command and its events built from their fields, a state
  made by ``GameState.replace`` for each event (the cheapest new state there
  is), a timeline frame pushed, the batch encoded (``encode_batch``);
* per game: the log's bytes framed and written to a new file, as ``simulate``
  writes them.

Its games per second are a ceiling for ``random_games_per_s``: the share of a
played game's time above it is the deciding.
"""

from __future__ import annotations

import os

import attrs

from benchmarks.timing import best, runs
from core.bots.play import play_game
from core.bots.registry import make_bot
from core.bots.series import player_names
from core.events.codec import Batch, encode_batch
from core.game import Game
from core.log.framing import encode_log
from core.projections.timeline import Timeline, push
from core.rng import derive_seed

PLAYERS = 4


def _fields(record) -> tuple:
    return attrs.astuple(record, recurse=False)


def recorded_games(games: int, seed: int = 1) -> list[tuple]:
    """The facts of ``games`` random-bot games: the header, the opening batch (its payload,
    its state) and, per later batch, the command's and the events' classes and fields."""
    played = []
    for index in range(games):
        game = Game.new(player_names(["random"] * PLAYERS), derive_seed(seed, index))
        opening = game.state
        play_game(game, [make_bot("random")] * PLAYERS)
        opening_batch, *rest = game.batches()  # made with the log (see Game.new), not timed
        batches = [
            (b.seq, type(b.command), _fields(b.command), [(type(e), _fields(e)) for e in b.events])
            for b in rest
        ]
        played.append((game.header, opening_batch, game.stream.payloads()[0], opening, batches))
    return played


def record(game: tuple, path: str) -> None:
    """Record one game's facts as playing it would, without deciding anything."""
    header, opening_batch, opening_payload, state, batches = game
    timeline = push(Timeline(), opening_batch, state)
    payloads = [opening_payload]
    for seq, command_type, command_fields, events in batches:
        command = command_type(*command_fields)
        made = []
        for event_type, event_fields in events:
            made.append(event_type(*event_fields))
            state = state.replace(round=state.round)
        batch = Batch(seq, command, tuple(made))
        payloads.append(encode_batch(batch))
        timeline = push(timeline, batch, state)
    with open(path, "xb") as f:
        f.write(encode_log(header, payloads))


def recording(games: int, out_dir: str, repeat: int) -> dict:
    """Games per second when only recording: best of ``repeat`` runs over the same games."""
    played = recorded_games(games)
    counter = iter(range(1 << 30))

    def run() -> None:
        folder = os.path.join(out_dir, f"run-{next(counter)}")
        os.makedirs(folder)
        for index, game in enumerate(played):
            record(game, os.path.join(folder, f"game-{index:04d}.dmlog"))

    seconds = best(runs(run, repeat))
    return {
        "games": games,
        "commands": sum(len(g[-1]) for g in played),
        "seconds": round(seconds, 4),
        "games_per_s": round(games / seconds, 1),
    }
