"""``benchmarks.stored_listing`` at a tiny size: it measures what it says (not how fast)."""

from __future__ import annotations

from benchmarks import stored_listing
from core.store import FileStore


def test_the_listing_benchmark_reads_each_game_once_then_none(tmp_path):
    store = FileStore(tmp_path / "data", prefix="web-")
    events = stored_listing.fill(store, stored_listing.finished_logs(3))
    figures = stored_listing.measure(store, tmp_path, repeat=2)
    assert events > 300 and figures["games"] == figures["listed"] == 3
    assert figures["games_read_first"] == 3 and figures["games_read_after"] == 0
    assert figures["first_listing_ms"] > 0 and figures["replaying_every_game_ms"] > 0
