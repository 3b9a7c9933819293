"""``dice-miner store list / export / import`` and ``log show / verify --store``, on the file
store and on PostgreSQL: games move between files and stores without a byte changed."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from core.events.codec import encode_batch
from core.store import load_batches
from tests.support.cli_helpers import flip_byte, rewrite_log, run_cli

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
OLD_FORMAT = Path(__file__).resolve().parents[1] / "data" / "herochosen-v1.dmlog"


@pytest.fixture(params=["file", "postgresql"])
def store_url(request, tmp_path) -> str:
    """An empty store's URL: a folder, or a new schema of the session's PostgreSQL server."""
    if request.param == "file":
        return str(tmp_path / "games")
    return request.getfixturevalue("postgres_server").fresh_schema()


@pytest.fixture
def logs(tmp_path) -> Path:
    """A folder of logs with distinct game ids: three replays and an old-format log."""
    folder = tmp_path / "logs"
    folder.mkdir()
    for name in ("four-players.dmlog", "solo.dmlog", "two-players.dmlog"):
        shutil.copy(REPLAYS / name, folder / name)
    shutil.copy(OLD_FORMAT, folder / "old.dmlog")
    return folder


def game_id(path) -> str:
    return load_batches(path)[0].header["game_id"]


def test_a_folder_imports_and_every_game_exports_byte_for_byte(capsys, store_url, logs, tmp_path):
    """Import verifies and stores each log; export gives each file back exactly, an older
    log's events included (they are kept as written, never re-encoded)."""
    old = load_batches(logs / "old.dmlog")
    assert any(encode_batch(b) != p for b, p in zip(old[1], old[0].payloads, strict=True))
    code, out, err = run_cli(capsys, "store", "import", "--store", store_url, logs)
    assert (code, err) == (0, "")
    assert out.count("imported as game") == 4
    code, out, _ = run_cli(capsys, "store", "list", "--store", store_url)
    assert code == 0
    listed = out.splitlines()
    assert listed[0].split()[:2] == ["GAME", "EVENTS"] and len(listed) == 5
    for path in sorted(logs.iterdir()):
        line = next(line for line in listed if line.startswith(game_id(path)))
        assert line.split()[1] == str(load_batches(path)[1][-1].end)
        target = tmp_path / f"out-{path.name}"
        code, out, _ = run_cli(
            capsys, "store", "export", "--store", store_url, game_id(path), target
        )
        assert code == 0 and f"game {game_id(path)}" in out
        assert target.read_bytes() == path.read_bytes()


def test_an_id_already_stored_is_named_skipped_and_said_by_the_exit_code(
    capsys, store_url, logs, tmp_path
):
    """The replays hold two games of seed 3: the second is skipped, as is a file imported again."""
    solo, three = REPLAYS / "solo.dmlog", REPLAYS / "three-players.dmlog"
    assert game_id(solo) == game_id(three)
    assert run_cli(capsys, "store", "import", "--store", store_url, solo)[0] == 0
    code, out, _ = run_cli(capsys, "store", "import", "--store", store_url, three, solo)
    assert code == 1
    assert f"{three}: skipped: " in out and f"holds game {game_id(solo)} (a different log)" in out
    assert f"{solo}: skipped: " in out and "(this same log)" in out
    target = tmp_path / "kept.dmlog"
    run_cli(capsys, "store", "export", "--store", store_url, game_id(solo), target)
    assert target.read_bytes() == solo.read_bytes()


def test_a_file_that_does_not_verify_is_not_imported_and_the_others_are(
    capsys, store_url, logs, tmp_path, monkeypatch
):
    """A flipped byte, and a forged roll with good checksums: each named, neither stored;
    the hint names the command as the user started it (here through ./play)."""
    monkeypatch.setenv("DICE_MINER_PROG", "./play")
    damaged, forged = tmp_path / "damaged.dmlog", tmp_path / "forged.dmlog"
    flip_byte(logs / "solo.dmlog", damaged, -40)

    def forge(batches):
        from attrs import evolve

        from core.modes.multiplayer.events import DieTaken

        for n, batch in enumerate(batches):
            for i, event in enumerate(batch.events):
                if isinstance(event, DieTaken):
                    face = "gem2" if event.face != "gem2" else "beer"
                    events = list(batch.events)
                    events[i] = evolve(event, face=face)
                    batches[n] = evolve(batch, events=tuple(events))
                    return batches
        raise AssertionError("no die taken")

    rewrite_log(str(logs / "two-players.dmlog"), str(forged), forge)
    good = logs / "four-players.dmlog"
    code, out, _ = run_cli(capsys, "store", "import", "--store", store_url, damaged, forged, good)
    assert code == 2
    assert f"{damaged}: not imported: " in out and "damaged" in out
    assert f"{forged}: not imported: it differs from a re-run" in out
    assert f"'./play log verify {forged}' shows where" in out
    assert f"{good}: imported as game" in out
    _, listed, _ = run_cli(capsys, "store", "list", "--store", store_url)
    assert len(listed.splitlines()) == 2  # the heading and the one good game


def test_export_never_overwrites_a_file(capsys, store_url, logs, tmp_path):
    run_cli(capsys, "store", "import", "--store", store_url, logs / "solo.dmlog")
    target = tmp_path / "taken.dmlog"
    target.write_bytes(b"mine")
    code, _, err = run_cli(
        capsys, "store", "export", "--store", store_url, game_id(logs / "solo.dmlog"), target
    )
    assert code == 2 and "already exists; not overwritten" in err
    assert target.read_bytes() == b"mine"
    code, _, err = run_cli(capsys, "store", "export", "--store", store_url, "nope", tmp_path / "n")
    assert code == 2 and "holds no game 'nope'" in err and not os.path.exists(tmp_path / "n")


def test_log_show_and_verify_read_a_stored_game_as_its_file(capsys, store_url, logs):
    """``--store URL GAME_ID`` gives the same lines as the file the game came from."""
    path = logs / "four-players.dmlog"
    run_cli(capsys, "store", "import", "--store", store_url, path)
    for action in (["show"], ["show", "--json"]):
        from_file = run_cli(capsys, "log", *action, path)
        stored = run_cli(capsys, "log", *action, "--store", store_url, game_id(path))
        assert stored == from_file and from_file[0] == 0
    code, out, _ = run_cli(capsys, "log", "verify", "--store", store_url, game_id(path))
    assert code == 0 and out.startswith(f"{game_id(path)}: ok: 103 records, 139 events")
    code, _, err = run_cli(capsys, "log", "show", "--store", store_url, "nope")
    assert code == 2 and "holds no game 'nope'" in err


def test_log_verify_reports_a_damaged_stored_game(capsys, store_url, logs, request):
    """A stored batch changed behind the store's back: DAMAGED naming its record, exit 1."""
    path = logs / "solo.dmlog"
    run_cli(capsys, "store", "import", "--store", store_url, path)
    gid = game_id(path)
    if store_url.startswith("postgresql:"):
        import psycopg

        with psycopg.connect(store_url, autocommit=True) as conn, conn.transaction():
            conn.execute("SET LOCAL session_replication_role = replica")
            conn.execute("UPDATE batches SET crc = crc # 1 WHERE game = %s AND record = 5", (gid,))
    else:
        stored = Path(store_url) / f"{gid}.dmlog"
        flip_byte(stored, stored, load_batches(stored)[0].offsets[4] + 10)
    code, out, _ = run_cli(capsys, "log", "verify", "--store", store_url, gid)
    assert code == 1 and out.startswith(f"{gid}: DAMAGED ") and "(record 5)" in out


def test_an_empty_store_lists_no_games_and_an_unknown_url_is_refused(capsys, store_url):
    code, out, _ = run_cli(capsys, "store", "list", "--store", store_url)
    assert code == 0 and out.strip().endswith("holds no games")
    code, _, err = run_cli(capsys, "store", "list", "--store", "mysql://db/x")
    assert code == 2 and "unknown store 'mysql://db/x'" in err


def test_a_database_that_cannot_be_reached_is_one_line_not_a_traceback(capsys):
    from tests.support.ports import free_port

    url = f"postgresql://ada:s3cret@127.0.0.1:{free_port()}/games"
    code, out, err = run_cli(capsys, "store", "list", "--store", url)
    assert code == 2 and out == ""
    assert err.startswith("dice-miner: postgresql://ada@127.0.0.1:") and "cannot be reached" in err
    assert "s3cret" not in err and "Traceback" not in err and len(err.splitlines()) == 1
