"""``dice-miner log show / verify / diff / repair``: their output and exit codes."""

import json
import os
from pathlib import Path

import msgpack
import pytest
from attrs import evolve

from core.bots import RandomBot, bot_rng
from core.commands import Undo
from core.events.codec import encode_batch
from core.game import Game
from core.log import read_log
from core.log.framing import encode_log
from core.modes.multiplayer.events import DieTaken
from core.store import load_batches
from tests.support.cli_helpers import (
    flip_byte,
    game_with_undo,
    recorded_game,
    rewrite_log,
    run_cli,
    truncate,
)


@pytest.fixture(scope="module")
def good_log(tmp_path_factory):
    return recorded_game(tmp_path_factory.mktemp("logs"))


def events_in(path) -> int:
    return load_batches(path)[1][-1].end


# -- show ------------------------------------------------------------------------------


def test_show_prints_one_line_per_event_in_words(capsys, good_log):
    code, out, err = run_cli(capsys, "log", "show", good_log)
    lines = out.splitlines()
    assert code == 0 and err == ""
    assert len(lines) == events_in(good_log)
    assert lines[0].split()[:2] == ["0", "GameStarted"]
    taken = next(line for line in lines if " DieTaken " in line)
    assert " took die " in taken and "from row " in taken  # seq, type, player, what changed


def test_show_json_lines_carry_seq_type_and_the_event_fields(capsys, good_log):
    code, out, _ = run_cli(capsys, "log", "show", good_log, "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert [r["seq"] for r in records] == list(range(events_in(good_log)))
    assert records[0]["type"] == "GameStarted" and records[0]["seed"] >= 0
    taken = next(r for r in records if r["type"] == "DieTaken")
    assert {"die", "face", "row", "col", "slides", "seat", "player", "text"} <= set(taken)
    assert any(r["type"] == "RoundScored" and len(r["scores"]) == 2 for r in records)


def test_show_marks_undone_events_and_keeps_the_undo_seq_apart(capsys, tmp_path):
    path = tmp_path / "undo.dmlog"
    game_with_undo(path).close()
    _, out, _ = run_cli(capsys, "log", "show", path, "--json")
    records = [json.loads(line) for line in out.splitlines()]
    undos = [r for r in records if r["type"] == "CommandUndone"]
    assert len(undos) == 2
    assert all(r["seq"] != r["event_seq"] for r in undos)  # the undone batch's seq
    assert sum(r["undone"] for r in records) == 2
    _, text, _ = run_cli(capsys, "log", "show", path)
    assert text.count("(undone by event ") == 2


# -- verify ----------------------------------------------------------------------------


def test_verify_a_good_log(capsys, good_log):
    code, out, _ = run_cli(capsys, "log", "verify", good_log)
    assert code == 0
    assert "ok" in out and "reproduces every event" in out


def test_verify_a_log_with_undos(capsys, tmp_path):
    path = tmp_path / "undo.dmlog"
    game_with_undo(path).close()
    code, out, _ = run_cli(capsys, "log", "verify", path)
    assert code == 0, out


def test_verify_reports_a_flipped_byte_with_offset_and_record(capsys, good_log, tmp_path):
    bad = tmp_path / "flipped.dmlog"
    flip_byte(good_log, bad, 3000)
    code, out, _ = run_cli(capsys, "log", "verify", bad)
    assert code == 1
    assert "DAMAGED at byte" in out and "(record " in out and "checksum" in out


def test_verify_reports_a_truncated_log_as_torn(capsys, good_log, tmp_path):
    bad = tmp_path / "cut.dmlog"
    truncate(good_log, bad, 7)
    code, out, _ = run_cli(capsys, "log", "verify", bad)
    assert code == 1
    assert "incomplete final record" in out and "log repair" in out


def test_verify_finds_the_first_event_the_rules_would_not_give(capsys, good_log, tmp_path):
    """A log whose checksums are fine but whose events were altered is caught by the re-run."""
    forged = tmp_path / "forged.dmlog"

    def change(batches):
        for i, batch in enumerate(batches):
            for j, event in enumerate(batch.events):
                if isinstance(event, DieTaken) and batch.seq + j > 40:
                    events = list(batch.events)
                    events[j] = evolve(event, face="beer" if event.face != "beer" else "1")
                    batches[i] = evolve(batch, events=tuple(events))
                    change.seq = batch.seq + j
                    return batches
        raise AssertionError("no DieTaken to alter")

    rewrite_log(good_log, forged, change)
    code, out, _ = run_cli(capsys, "log", "verify", forged)
    assert code == 1
    assert f"DIFFERS at event {change.seq}" in out
    assert "logged:  DieTaken" in out and "re-run:  DieTaken" in out


def test_verify_reports_a_command_the_rules_now_refuse(capsys, good_log, tmp_path):
    forged = tmp_path / "refused.dmlog"

    def change(batches):
        batch = batches[1]  # a hero choice: make it name a hero that does not exist
        batches[1] = evolve(batch, command=evolve(batch.command, hero="Nobody"))
        return batches

    rewrite_log(good_log, forged, change)
    code, out, _ = run_cli(capsys, "log", "verify", forged)
    assert code == 1 and "is now refused" in out and "Nobody" in out


@pytest.mark.parametrize("command", ["show", "verify"])
def test_unreadable_files_are_one_line_errors(capsys, tmp_path, command):
    not_a_log = tmp_path / "notes.txt"
    not_a_log.write_text("hello\n")
    for target, message in [
        (tmp_path / "missing.dmlog", "cannot read log"),
        (not_a_log, "not a Dice Miner log"),
        (tmp_path, "is a directory"),
    ]:
        code, out, err = run_cli(capsys, "log", command, target)
        assert code == 2 and out == ""
        assert message in err and len(err.strip().splitlines()) == 1


def test_show_refuses_a_damaged_log_in_one_line(capsys, good_log, tmp_path):
    bad = tmp_path / "flipped.dmlog"
    flip_byte(good_log, bad, 2500)
    code, _, err = run_cli(capsys, "log", "show", bad)
    assert code == 2 and "damaged at byte" in err and len(err.strip().splitlines()) == 1


# -- diff ------------------------------------------------------------------------------


def test_diff_of_identical_logs(capsys, good_log):
    code, out, _ = run_cli(capsys, "log", "diff", good_log, good_log)
    assert code == 0 and f"same {events_in(good_log)} events" in out


def test_diff_shows_the_first_divergence_side_by_side(capsys, tmp_path):
    os.makedirs(tmp_path / "a")
    a = recorded_game(tmp_path / "a", seed=5)
    b = tmp_path / "b.dmlog"

    def change(batches):
        batch = batches[3]  # an early command's events are replaced by another's
        events = list(batch.events)
        events[0] = evolve(events[0], seat=(events[0].seat + 1) % 2)
        batches[3] = evolve(batch, events=tuple(events))
        return batches

    rewrite_log(a, b, change)
    seq = load_batches(a)[1][3].seq
    code, out, _ = run_cli(capsys, "log", "diff", a, b)
    assert code == 1
    assert f"the logs differ at event {seq}" in out
    assert "A: " in out and "B: " in out
    assert any(line.startswith("* seat") for line in out.splitlines())


def test_diff_when_one_log_is_a_prefix_of_the_other(capsys, good_log, tmp_path):
    shorter = tmp_path / "short.dmlog"
    rewrite_log(good_log, shorter, lambda batches: batches[:-3])
    code, out, _ = run_cli(capsys, "log", "diff", good_log, shorter)
    assert code == 1 and "the log ends here" in out


# -- repair ----------------------------------------------------------------------------


def test_repair_drops_a_torn_record_and_keeps_it_aside(capsys, good_log, tmp_path):
    torn = tmp_path / "torn.dmlog"
    truncate(good_log, torn, 5)
    code, out, _ = run_cli(capsys, "log", "repair", torn)
    assert code == 0 and "removed a torn final record" in out
    side = out.rsplit(" in ", 1)[1].strip()
    assert os.path.exists(side)
    assert run_cli(capsys, "log", "verify", torn)[0] == 0


def test_repair_leaves_a_good_log_alone(capsys, good_log):
    before = Path(good_log).read_bytes()
    code, out, _ = run_cli(capsys, "log", "repair", good_log)
    assert code == 0 and "nothing to repair" in out
    assert Path(good_log).read_bytes() == before


def test_repair_refuses_damage_before_the_end(capsys, good_log, tmp_path):
    bad = tmp_path / "flipped.dmlog"
    flip_byte(good_log, bad, 2500)
    before = bad.read_bytes()
    code, out, _ = run_cli(capsys, "log", "repair", bad)
    assert code == 1 and "cannot repair" in out
    assert bad.read_bytes() == before


# -- found in a developer's review ---------------------------------------------------


def test_show_names_the_event_that_undid_each_undone_event(capsys, tmp_path):
    path = tmp_path / "undo.dmlog"
    game_with_undo(path).close()
    _, batches = load_batches(path)
    undone_by = {b.events[0].seq: b.seq for b in batches if isinstance(b.command, Undo)}
    _, out, _ = run_cli(capsys, "log", "show", path)
    lines = out.splitlines()
    marked = [line for line in lines if "(undone" in line]
    expected = [
        f"(undone by event {undone_by[b.seq]})"
        for b in batches
        if b.seq in undone_by
        for _ in b.events
    ]
    assert len(undone_by) == 2 and len(marked) == len(expected) >= 2
    assert [line[line.index("(undone") :] for line in marked] == expected


def rewrite_header(source, target, **fields) -> None:
    """Copy a log with header fields replaced, re-framed so its checksums are good."""
    scan, batches = load_batches(source)
    with open(target, "wb") as f:
        f.write(encode_log({**scan.header, **fields}, map(encode_batch, batches)))


@pytest.mark.parametrize(
    ("field", "value"), [("seed", 42), ("players", ["Mallory", "Eve"]), ("game_id", "forged")]
)
def test_verify_catches_a_header_that_does_not_match_the_game(
    capsys, good_log, tmp_path, field, value
):
    """The web viewer lists the header's players and seed: a forged one is a difference."""
    forged = tmp_path / "header.dmlog"
    rewrite_header(good_log, forged, **{field: value})
    code, out, _ = run_cli(capsys, "log", "verify", forged)
    assert code == 1 and "DIFFERS in its header" in out
    assert f"{field}: the header says {value!r}" in out


def test_verify_names_the_seed_it_re_ran_from(capsys, good_log):
    _, batches = load_batches(good_log)
    code, out, _ = run_cli(capsys, "log", "verify", good_log)
    assert code == 0 and f"re-running from seed {batches[0].command.seed} " in out


def test_repair_of_a_directory_says_so(capsys, tmp_path):
    code, out, err = run_cli(capsys, "log", "repair", tmp_path)
    assert code == 2 and out == "" and "is a directory" in err
    assert not os.listdir(tmp_path)  # nothing left beside it


def test_show_names_who_undid_a_command_when_the_undo_says(tmp_path, capsys):
    path = tmp_path / "undo.dmlog"
    with Game.new(["Ada", "Brok"], 21, log=str(path), sync=False) as game:
        game.issue_text("hero Engineer")
        game.undo(seat=1)  # the undo names its seat, as the terminal's and the web's do
    _, out, _ = run_cli(capsys, "log", "show", str(path), "--json")
    (undone,) = [r for r in map(json.loads, out.splitlines()) if r["type"] == "CommandUndone"]
    assert undone["player"] == "Brok"


def test_show_names_the_solo_player_on_their_own_moves(tmp_path, capsys):
    path = tmp_path / "solo.dmlog"
    with Game.new(["Ada"], 4, mode="solo", log=str(path), sync=False) as game:
        game.issue(game.legal()[0])
    _, out, _ = run_cli(capsys, "log", "show", str(path), "--json")
    records = list(map(json.loads, out.splitlines()))
    assert records[-1]["player"] == "Ada"  # the solo game's events carry no seat of their own
    assert records[0]["player"] is None  # the game's start is nobody's move


# -- found in the log-fault review -------------------------------------------------------


def rewrite_event(source, target, change) -> None:
    """Copy a log with ``change(event_map)`` applied to the first DieTaken's raw map,
    re-framed so its checksums are good (for events this program could not build)."""
    scan = read_log(source)
    payloads = list(scan.payloads)
    for n, payload in enumerate(payloads):
        batch = msgpack.unpackb(payload, raw=False)
        for event in batch["events"]:
            if event["t"] == "DieTaken":
                change(event)
                payloads[n] = msgpack.packb(batch, use_bin_type=True)
                with open(target, "wb") as f:
                    f.write(encode_log(scan.header, payloads))
                return scan.offsets[n], n + 1
    raise AssertionError("no DieTaken")


def test_verify_ignores_header_keys_it_does_not_know(capsys, good_log, tmp_path):
    """docs/reference/log-format.md: readers ignore unknown header keys (a newer version
    may add some); the keys this program writes are still checked against the game."""
    newer = tmp_path / "newer.dmlog"
    rewrite_header(good_log, newer, written_by="dice-miner 9", table={"theme": "dark"})
    code, out, _ = run_cli(capsys, "log", "verify", newer)
    assert code == 0 and "ok:" in out, out
    forged = tmp_path / "forged.dmlog"
    rewrite_header(good_log, forged, written_by="dice-miner 9", seed=42)
    code, out, _ = run_cli(capsys, "log", "verify", forged)
    assert code == 1 and "seed: the header says 42" in out and "written_by" not in out


def test_an_event_type_from_a_newer_program_is_a_version_problem(capsys, good_log, tmp_path):
    """An unknown event tag is what a newer program writes: said as a newer schema version
    is (exit 2, 'newer than this program reads ... upgrade'), not called damage."""
    newer_type, newer_version = tmp_path / "type.dmlog", tmp_path / "version.dmlog"
    offset, record = rewrite_event(good_log, newer_type, lambda e: e.update(t="DragonWoken"))
    rewrite_event(good_log, newer_version, lambda e: e.update(v=9))
    code, out, err = run_cli(capsys, "log", "verify", newer_type)
    assert (code, out) == (2, "")
    assert err == (
        f"dice-miner: {newer_type}: record {record} (byte {offset}): event type 'DragonWoken' "
        "is newer than this program reads (it has no such event); upgrade dice-miner\n"
    )
    assert run_cli(capsys, "log", "verify", newer_version)[:2] == (2, "")  # the same way
    code, out, err = run_cli(capsys, "log", "show", newer_type)
    assert code == 2 and "DragonWoken' is newer than this program reads" in err


def test_an_event_without_its_version_is_damage_at_its_record(capsys, good_log, tmp_path):
    bad = tmp_path / "unversioned.dmlog"
    offset, record = rewrite_event(good_log, bad, lambda e: e.pop("v"))
    code, out, _ = run_cli(capsys, "log", "verify", bad)
    assert code == 1
    assert out.splitlines()[0] == (
        f"{bad}: DAMAGED at byte {offset} (record {record}): bad DieTaken event: no schema "
        'version field "v"'
    )


def test_repair_refuses_a_log_cut_inside_its_first_batch(capsys, good_log, tmp_path):
    """Every log is created holding its opening batch: a log cut inside it holds no game to
    keep, so repair refuses as for a torn header, and verify offers no repair."""
    scan = read_log(good_log)
    cut = tmp_path / "cut.dmlog"
    cut.write_bytes(Path(good_log).read_bytes()[: scan.offsets[0] + 20])
    before = cut.read_bytes()
    code, out, _ = run_cli(capsys, "log", "repair", cut)
    assert code == 1
    assert out.startswith(f"{cut}: cannot repair: damaged at byte {scan.offsets[0]} (record 1)")
    assert "incomplete first batch record" in out and "records kept" not in out
    assert cut.read_bytes() == before and sorted(os.listdir(tmp_path)) == ["cut.dmlog"]
    code, out, _ = run_cli(capsys, "log", "verify", cut)
    assert code == 1 and "incomplete first batch record" in out and "log repair" not in out


@pytest.mark.parametrize(("prog", "repair"), [(None, "dice-miner"), ("./play", "./play")])
def test_verify_of_a_torn_log_names_the_repair_command_the_user_has(
    capsys, good_log, tmp_path, monkeypatch, prog, repair
):
    if prog is None:
        monkeypatch.delenv("DICE_MINER_PROG", raising=False)
    else:
        monkeypatch.setenv("DICE_MINER_PROG", prog)
    torn = tmp_path / "torn.dmlog"
    truncate(good_log, torn, 7)
    _, out, _ = run_cli(capsys, "log", "verify", torn)
    assert f"'{repair} log repair {torn}' drops it" in out


def test_show_sizes_the_player_column_to_the_longest_name(capsys, tmp_path):
    """Four bots named as the terminal names them: every text starts in one column, after
    the longest name ("Cira (montecarlo)") and a space."""
    names = ["Ada (greedy)", "Brok (random)", "Cira (montecarlo)", "Dain (random)"]
    path = tmp_path / "bots.dmlog"
    with Game.new(names, 8, log=str(path), sync=False) as game:
        bot = RandomBot()
        for _ in range(60):
            seat = game.to_act()
            game.issue(bot.choose(game.state, game.legal(), bot_rng(game.state, game.seq, seat)))
    _, out, _ = run_cli(capsys, "log", "show", path)
    lines = out.splitlines()
    column = 5 + 2 + 18 + 1  # seq, two spaces, the type, a space
    width = len("Cira (montecarlo)")
    players = {line[column : column + width].rstrip() for line in lines}
    assert players == {*names, "-"}
    assert all(line[column + width] == " " != line[column + width + 1] for line in lines)
    assert any(line[column:].startswith("Cira (montecarlo) Cira (montecarlo) ") for line in lines)


def test_show_speaks_of_a_player_named_you_in_the_second_person(capsys, tmp_path):
    path = tmp_path / "you.dmlog"
    Game.new(["You", "Brok (random)", "Cira (montecarlo)", "Dain (greedy)"], 0, log=path).close()
    _, out, _ = run_cli(capsys, "log", "show", path)
    assert "You play first; heroes are chosen by" in out and "You plays" not in out
