"""``dice-miner log show --hash`` and ``log diff --hash``: states compared event by event."""

from __future__ import annotations

import json
from pathlib import Path

from attrs import evolve

from core.commands import SpendMagic
from core.game import Game
from core.projections.statehash import state_hash
from core.read.views import walk
from tests.support.cli_helpers import game_with_undo, rewrite_log, run_cli

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
GAME = REPLAYS / "two-players.dmlog"


def test_show_hash_adds_a_column_and_a_key(capsys):
    hashes = [state_hash(step.after) for step in walk(Game.load(GAME).batches())]
    code, out, _ = run_cli(capsys, "log", "show", GAME, "--hash")
    lines = out.splitlines()
    assert code == 0 and len(lines) == len(hashes)
    assert [line.split()[1] for line in lines] == [h[:12] for h in hashes]
    _, plain, _ = run_cli(capsys, "log", "show", GAME)
    assert [line.split()[2:] for line in lines] == [line.split()[1:] for line in plain.splitlines()]
    code, out, _ = run_cli(capsys, "log", "show", GAME, "--hash", "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["hash"] for r in records] == hashes
    _, plain, _ = run_cli(capsys, "log", "show", GAME, "--json")
    assert [{k: v for k, v in r.items() if k != "hash"} for r in records] == [
        json.loads(line) for line in plain.splitlines()
    ]


def test_show_hash_of_an_undone_event_is_the_state_it_left(capsys, tmp_path):
    game_with_undo(tmp_path / "undo.dmlog").close()
    code, out, _ = run_cli(capsys, "log", "show", tmp_path / "undo.dmlog", "--hash", "--json")
    records = [json.loads(line) for line in out.splitlines()]
    undos = [r for r in records if r["type"] == "CommandUndone"]
    assert code == 0 and len(undos) == 2
    for undo in undos:  # back to the state before the command it undid
        assert undo["hash"] == records[undo["event_seq"] - 1]["hash"]
        assert undo["hash"] != records[undo["seq"] - 1]["hash"]


def test_diff_hash_names_where_the_states_part(capsys, tmp_path):
    batches = Game.load(GAME).batches()
    index = next(i for i, b in enumerate(batches) if isinstance(b.command, SpendMagic))
    spend = batches[index]
    other = tmp_path / "other.dmlog"

    def change(found):  # the same events but for the faces one spend rolled
        event = spend.events[0]
        rolls = tuple((d, "beer" if face != "beer" else "1") for d, face in event.rolls)
        found[index] = evolve(spend, events=(evolve(event, rolls=rolls), *spend.events[1:]))
        return found

    rewrite_log(GAME, other, change)
    code, out, _ = run_cli(capsys, "log", "diff", "--hash", GAME, other)
    assert code == 1
    assert out.startswith(f"the states part at event {spend.seq} (the states after events 0 to")
    assert "A: " in out and "B: " in out and "MagicSpent" in out
    code, out, _ = run_cli(capsys, "log", "diff", "--hash", GAME, GAME)
    assert code == 0 and f"the states agree after each of the {batches[-1].end} events" in out


def test_diff_hash_when_one_log_stops_early(capsys, tmp_path):
    shorter = tmp_path / "short.dmlog"
    rewrite_log(GAME, shorter, lambda batches: batches[:-2])
    end = Game.load(shorter).seq
    code, out, _ = run_cli(capsys, "log", "diff", "--hash", GAME, shorter)
    assert code == 1 and f"the states part at event {end}" in out
    assert "the log ends here" in out
