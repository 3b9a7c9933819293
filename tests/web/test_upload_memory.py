"""Uploads are bounded in memory: 16 uploads of valid 2 MB logs once took a server from
40 to 479 MB, each replay kept whole. Now the uploads kept hold at most ``UPLOAD_BYTES``
of logs between them (the newest always). Measured RSS (a script uploading distinct
copies of a 2 MB log to the test app): 16 uploads 460 MB before; 4 or 32 uploads
144 to 146 MB after (52 MB at rest)."""

from __future__ import annotations

import pytest

from core.bots import make_bot
from core.bots.play import bot_command
from core.game import Game
from core.log.framing import encode_log, read_log_bytes
from frontends.web.replays import UPLOAD_BYTES
from tests.support.web_support import make_app


@pytest.fixture(scope="module")
def big_log(tmp_path_factory) -> bytes:
    """A valid log of almost 2 MB (the upload limit): a move and its undo, many times."""
    path = tmp_path_factory.mktemp("big") / "big.dmlog"
    game = Game.new(["Ada", "Brok"], 5, log=path, sync=False)
    bot = make_bot("random")
    for _ in range(6):
        game.issue(bot_command(game, bot))
    while path.stat().st_size < 1_990_000:
        game.issue(bot_command(game, bot))
        game.undo()
    game.close()
    return path.read_bytes()


def test_uploads_kept_in_memory_hold_a_bounded_number_of_bytes(tmp_path, big_log):
    app = make_app(tmp_path)
    client = app.test_client()
    scan = read_log_bytes(big_log)
    names = []
    # four different logs of 2 MB, almost twice UPLOAD_BYTES: the older ones give way (each
    # upload is read whole and summarised by the app, seconds apiece: no more than that)
    for n in range(4):
        header = {**scan.header, "game_id": f"copy{n}"}
        answer = client.post(
            "/api/replays", data=encode_log(header, scan.payloads), headers={"X-Filename": "b"}
        )
        assert answer.status_code == 201, answer.get_json()
        names.append(answer.get_json()["name"])
    kept = [name for name in names if client.get(f"/api/replays/{name}").status_code == 200]
    assert kept and kept[-1] == names[-1]  # the newest is always there
    assert len(kept) * len(big_log) <= UPLOAD_BYTES
    gone = client.get(f"/api/replays/{names[0]}")
    assert gone.status_code == 404 and gone.get_json()["error"]["code"] == "unknown_replay"
    app.extensions["dice_miner"].games.close()
