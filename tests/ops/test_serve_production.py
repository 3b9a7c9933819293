"""``dice-miner serve`` runs a production server (gunicorn) by default, over the file store
too; Werkzeug's development server only with ``--debug``; gunicorn's access log is on."""

from __future__ import annotations

from tests.support.serve_support import Server, call
from tests.support.web_support import wait_until


def test_the_file_store_is_served_by_gunicorn_with_its_access_log_on_stderr(tmp_path):
    server = Server("--data", str(tmp_path / "data"), "--replays", str(tmp_path))
    try:
        status, games, headers = call(server, "GET", "/api/games")
        assert status == 200 and games == {"games": []}
        assert headers["Server"].startswith("gunicorn")
        assert server.output[1].startswith("Replays from ")
        assert wait_until(lambda: any("Live games in file:" in line for line in server.output))
        assert wait_until(lambda: any('"GET /api/games HTTP/1.1" 200' in x for x in server.output))
        logged = next(line for line in server.output if '"GET /api/games HTTP/1.1"' in line)
        assert logged.startswith("127.0.0.1 ")
    finally:
        server.stop()
    assert "Traceback" not in "".join(server.output)


def test_the_access_log_goes_to_a_file_or_nowhere(tmp_path):
    log = tmp_path / "access.log"
    server = Server("--data", str(tmp_path / "d1"), "--access-log", str(log))
    quiet = Server("--data", str(tmp_path / "d2"), "--access-log", "off")
    try:
        call(server, "GET", "/api/bots")
        call(quiet, "GET", "/api/bots")
        assert wait_until(lambda: log.exists() and "GET /api/bots HTTP/1.1" in log.read_text())
        assert log.read_text().rstrip().endswith("ms")  # the time the answer took
    finally:
        server.stop()
        quiet.stop()
    assert not [line for line in quiet.output if "/api/bots" in line]


def test_debug_runs_werkzeugs_development_server_and_says_so(tmp_path):
    server = Server("--data", str(tmp_path / "data"), "--debug")
    try:
        status, _, headers = call(server, "GET", "/api/games")
        assert status == 200 and headers["Server"].startswith("Werkzeug")
        assert wait_until(lambda: any("development server" in x for x in server.output))
    finally:
        server.stop()


def test_the_server_raises_its_open_files_limit_for_its_connections():
    """A soft limit of 256 would cap a worker at a few hundred spectators; serve raises it
    towards --workers x --connections, up to the hard limit."""
    import resource
    import subprocess
    import sys

    from tests.support.serve_support import REPO

    code = (
        "import resource; from frontends.cli.serve import _open_files; _open_files(3000); "
        "print(resource.getrlimit(resource.RLIMIT_NOFILE)[0])"
    )
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard)),
    )
    expected = 3256 if hard == resource.RLIM_INFINITY else min(hard, 3256)
    assert int(done.stdout) == expected > 256


def test_only_a_gunicorn_server_is_patched_for_gevent_before_its_imports():
    from frontends.cli.entry import serves_on_gevent

    assert serves_on_gevent(["serve", "--port", "0"])
    assert not serves_on_gevent(["serve", "--debug"]) and not serves_on_gevent(["serve", "-h"])
    assert not serves_on_gevent(["play"]) and not serves_on_gevent([])
