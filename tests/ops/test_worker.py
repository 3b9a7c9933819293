"""``dice-miner worker``: beside the web servers of a PostgreSQL site, a process that
answers no request but plays the bot turns nobody else claims and runs queued analyses."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys

import pytest

from core.host import Lobby
from core.store.postgres import PostgresStore
from tests.support.serve_support import REPO
from tests.support.web_support import record_game, wait_until

pytestmark = pytest.mark.usefixtures("postgres_server")


def test_a_worker_plays_bot_turns_and_runs_analyses(postgres_server, tmp_path):
    url = postgres_server.fresh_schema()
    store = PostgresStore(url)
    web = Lobby(store, pace=0.0)
    web.runner.close()  # a web server that plays no bot turn itself (gone, say)
    table, _ = web.create([{"name": None, "bot": "greedy"}, {"name": None, "bot": "random"}])
    log = tmp_path / "short.dmlog"
    record_game(log, names=("Ann", "Bo"), commands=12)
    data = log.read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    assert store.analyses.add(sha, "short.dmlog", data, "10.0.0.1", 2, 8) != "full"
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "frontends.cli",
            "worker",
            "--store",
            url,
            "--samples",
            "4",
            "--bot-pace",
            "0",
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        assert "Dice Miner worker on" in worker.stdout.readline()
        assert wait_until(lambda: web.get(table.id).state.is_over, timeout=90), "its bots played on"
        assert wait_until(lambda: store.analyses.get(sha).state == "done", timeout=90)
        assert '"decisions"' in store.analyses.get(sha).document
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        out, _ = worker.communicate(timeout=30)
        web.close()
        store.close()
    assert worker.returncode == 0 and "Stopped." in out and "Traceback" not in out


def test_a_worker_needs_a_shared_store(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "frontends.cli", "worker", "--store", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and "postgresql://" in done.stderr
