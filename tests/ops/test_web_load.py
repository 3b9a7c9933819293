"""The bounded load test, short: real server, SSE spectators, bot games, REST readers, no errors.

``python -m benchmarks.web_load`` runs the long version (its figures are in
docs/performance.md); here 10 spectators watch 3 games for 5 s, with streams short enough
that every spectator resumes at least once. A server that drops an event must
make the load test fail, and so must a stream that differs from the log.
"""

from __future__ import annotations

import json
import threading

import pytest

import frontends.web.live as live_module
from benchmarks import web_load


def test_a_short_load_has_no_errors_and_reports_its_latency():
    result = web_load.run(
        seconds=5, spectators=10, games=3, readers=2, stream_seconds=2.0, heartbeat=0.5
    )
    assert result["errors"] == 0, result["error_samples"]
    assert result["threads_left"] == 0
    assert result["games_started"] >= 3 and result["events_appended"] > 0
    assert result["events_delivered"] >= result["events_appended"]  # 3+ spectators per game
    assert result["streams_checked"] >= 10 and result["reconnects"] >= 1
    assert result["rest_requests"] > 0
    for key in ("rest_ms", "sse_lag_ms"):
        row = result[key]
        assert row["n"] > 0 and 0 <= row["p50"] <= row["p95"] <= row["p99"] <= row["max"]
    alive = {t.name for t in threading.enumerate()}
    assert not {n for n in alive if n.startswith(("bots-", "keeper", "server"))}


def test_a_dropped_event_fails_the_run(monkeypatch, capsys):
    send = live_module.message

    def lossy(record, totals, state):
        return "" if record["seq"] == 5 else send(record, totals, state)

    monkeypatch.setattr(live_module, "message", lossy)
    argv = ["--seconds", "1.5", "--spectators", "2", "--games", "1", "--readers", "1"]
    assert web_load.main(argv) == 1
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert result["errors"] >= 2  # seen as it arrived, and against the log
    assert any("got seq 6, not 5" in e for e in result["error_samples"])


def test_stream_errors_name_gaps_duplicates_differences_and_early_ends():
    logged = [{"seq": i, "text": f"event {i}"} for i in range(4)]
    check = web_load.stream_errors
    assert check("g", logged[:2], logged, ended=False) == []
    assert check("g", logged, logged, ended=True) == []
    assert "seq 2" in check("g", [logged[0], logged[2]], logged, ended=False)[0]
    assert "seq 0" in check("g", [logged[0], logged[0]], logged, ended=False)[0]
    changed = [logged[0], {"seq": 1, "text": "something else"}]
    assert "event 1 differs" in check("g", changed, logged, ended=False)[0]
    assert "after 2 of 4" in check("g", logged[:2], logged, ended=True)[0]


@pytest.mark.parametrize("argv", [["--seconds", "0"], ["--spectators", "-1"], ["--games", "x"]])
def test_nonsense_options_are_refused(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        web_load.main(argv)
    assert exit_.value.code == 2
