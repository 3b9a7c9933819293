"""``dice-miner stats``: the record read from the real logs of the data folder."""

from __future__ import annotations

import os
import time

from core import Game, solo_score
from frontends.cli import stats
from frontends.cli.main import main
from frontends.cli.saved import last_unfinished, saved_games


def played(path, names, seed, *, mode="multi", finish=True, when=None):
    """A real game logged at ``path``, played to its end by first legal moves."""
    game = Game.new(names, seed, mode=mode, log=path)
    while finish and not game.state.is_over:
        game.issue(game.legal()[-1] if game.state.phase == "magic" else game.legal()[0])
    if not finish:
        game.issue(game.legal()[0])
    state = game.state
    game.close()
    if when is not None:
        os.utime(path, (when, when))
    return state


def test_the_record_counts_each_opponent_the_best_scores_and_the_solo_ratings(tmp_path, capsys):
    now = time.time()
    bots = ["You", "Brok (random)", "Cira (greedy)"]
    tables = [played(tmp_path / f"g{s}.dmlog", bots, s, when=now - 1000 + s) for s in range(5)]
    together = played(tmp_path / "h.dmlog", ["Ada", "Bo"], 9, when=now - 500)
    played(tmp_path / "u.dmlog", bots, 21, finish=False)
    solos = [
        played(tmp_path / f"s{s}.dmlog", ["You"], s, mode="solo", when=now - 100 + s)
        for s in range(3)
    ]
    (tmp_path / "torn.dmlog").write_bytes(b"not a log")  # unreadable: left out
    (tmp_path / "web").mkdir()  # the web's games have their own folder: not the terminal's

    rec = stats.record(saved_games(tmp_path))
    assert (rec.finished, rec.unfinished, rec.alone, rec.together) == (9, 1, 5, 1)
    assert rec.alone_won == sum(0 in s.winners for s in tables)
    for seat, name in ((1, "Brok (random)"), (2, "Cira (greedy)")):
        versus = rec.versus[name]
        mine = [(s.totals()[0], s.totals()[seat]) for s in tables]
        assert versus.games == 5
        assert versus.ahead == sum(a > b for a, b in mine)
        assert versus.behind == sum(a < b for a, b in mine)
        assert versus.level == sum(a == b for a, b in mine)
    scores = sorted([s.totals()[0] for s in tables] + list(together.totals()), reverse=True)
    assert [b.points for b in rec.best] == scores[: stats.BEST]
    assert [score for _, score, _ in rec.solo] == [solo_score(s).score for s in solos]
    assert [band for _, _, band in rec.solo] == [solo_score(s).rating for s in solos]
    assert rec.together_wins == {together.names[s]: 1 for s in together.winners}

    assert main(["stats", "--data", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"9 games finished in {tmp_path} (1 not finished)")
    assert f"Against bots: 5 games, {rec.alone_won} won" in out
    assert "Brok (random)" in out and "Cira (greedy)" in out
    assert f"  1. {scores[0]:>3}  " in out
    assert "Solo: 3 games, best" in out and "Average 46+" in out
    for _, score, band in rec.solo:
        assert f"{score:>3}  {'#' * (score // 5):<16} {band}" in out


def test_no_games_yet_is_said_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert main(["stats"]) == 0
    assert capsys.readouterr().out == f"No finished games in {tmp_path / 'dice-miner'} yet.\n"


def test_the_last_unfinished_game_skips_finished_secret_and_unreadable_logs(tmp_path):
    now = time.time()
    bots = ["You", "Brok (random)", "Cira (random)"]
    played(tmp_path / "old.dmlog", bots, 1, finish=False, when=now - 400)
    wanted = tmp_path / "wanted.dmlog"
    played(wanted, bots, 2, finish=False, when=now - 300)
    played(tmp_path / "done.dmlog", bots, 3, when=now - 200)
    secret = Game.new(bots, secret=os.urandom(32), log=tmp_path / "web.dmlog")
    secret.close()
    os.utime(tmp_path / "web.dmlog", (now - 100, now - 100))
    (tmp_path / "torn.dmlog").write_bytes(b"DMLOG but not really")
    saved = last_unfinished(tmp_path)
    assert saved is not None and saved.path == wanted
    newer = tmp_path / "newer.dmlog"
    played(newer, bots, 4, finish=False)
    elsewhere = Game.open(newer)  # being played in another terminal: not offered
    try:
        assert last_unfinished(tmp_path).path == wanted
    finally:
        elsewhere.close()
    assert last_unfinished(tmp_path).path == newer
    assert saved.summary().startswith("round 1 of 3, You against Brok and Cira, last played")
    assert last_unfinished(tmp_path / "nowhere") is None
