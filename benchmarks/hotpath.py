"""cProfile summaries of the hot paths: playing games between bots, and rebuilding from logs.

``python -m benchmarks --profile`` prints them after the figures; this is where
to look first when a figure gets worse.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import tempfile

from core.bots.series import play_series
from core.game import Game


def _summary(profile: cProfile.Profile, title: str, lines: int) -> str:
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out)
    stats.strip_dirs().sort_stats("tottime").print_stats(lines)
    return f"== {title} (sorted by own time) ==\n{out.getvalue()}"


def profile_games(bot: str, games: int, lines: int = 25) -> str:
    """The profile of ``games`` 4-player games between ``bot`` bots, logs written."""
    with tempfile.TemporaryDirectory() as folder:
        profile = cProfile.Profile()
        profile.enable()
        for _ in play_series([bot] * 4, 3, games, out_dir=folder):
            pass
        profile.disable()
    return _summary(profile, f"{games} games of 4 {bot} bots", lines)


def profile_rebuild(paths: list[str], lines: int = 25) -> str:
    """The profile of rebuilding the final state of each log in ``paths``."""
    profile = cProfile.Profile()
    profile.enable()
    for path in paths:
        Game.load(path).state  # noqa: B018
    profile.disable()
    return _summary(profile, f"rebuilding {len(paths)} logs", lines)
