"""The words the pages show as the server sends them: the status sentence and the faces.

The browser words none of these itself (issue 24: the JS and the Python said a face
differently, "3" against "tunnel 3"); the board JSON carries ``status`` and each page
carries the face table.
"""

from __future__ import annotations

import re
from pathlib import Path

from core.dice import FACES, HEROES
from core.read.status_words import all_face_words, face_in_words, short_name, status_sentence
from core.read.views import walk
from core.store import load_batches
from frontends.web.readmodel import board_view
from tests.support.web_support import make_app, record_game

REPLAYS = Path(__file__).resolve().parents[2] / "replays"


def test_a_tunnel_face_reads_as_a_tunnel_and_every_face_has_words():
    assert face_in_words("3") == "tunnel 3"
    assert face_in_words("gem2") == "2 gems"
    assert face_in_words(None) == "in the bag"
    table = all_face_words()
    for face in {f for kind in (*FACES.values(), *HEROES.values()) for f in kind}:
        assert table[face] != face or face in ("beer", "pickaxe", "shield")


def test_a_bot_name_is_shown_without_its_kind():
    assert short_name("Brok (greedy)") == "Brok"
    assert short_name("Brok") == "Brok"


def test_every_board_of_a_game_says_where_it_stands(tmp_path):
    record_game(tmp_path / "g.dmlog", names=("Ann", "Bo (greedy)"))
    _, batches = load_batches(tmp_path / "g.dmlog")
    said = [status_sentence(step.after) for step in walk(batches)]
    assert said[-1].startswith("Game over: ")
    assert any(re.fullmatch(r"Round 1 · Excavation · (Ann|Bo) to act", s) for s in said)
    assert not any("(greedy)" in s for s in said)


def test_a_solo_board_says_its_points_so_far():
    _, batches = load_batches(REPLAYS / "solo.dmlog")
    steps = list(walk(batches))
    middle = steps[len(steps) // 2]
    assert re.fullmatch(r"Digging · .+ to act · \d+ points so far", status_sentence(middle.after))
    assert re.fullmatch(r"Game over: \d+ points, .+", status_sentence(steps[-1].after))


def test_the_board_json_and_the_pages_carry_the_words(tmp_path):
    _, batches = load_batches(REPLAYS / "solo.dmlog")
    step = list(walk(batches))[5]
    assert board_view(step.after, step.seq + 1)["table"]["status"] == status_sentence(step.after)
    page = make_app(tmp_path).test_client().get("/").get_data(as_text=True)
    assert '<script type="application/json" id="face-words">' in page
    assert '"3": "tunnel 3"' in page or '"3":"tunnel 3"' in page


def test_a_solo_rating_carries_its_range_in_words():
    from frontends.web.readmodel import rating_range

    assert rating_range("Disaster") == "0\u201314"
    assert rating_range("Masterful") == "71+"
    _, batches = load_batches(REPLAYS / "solo.dmlog")
    last = list(walk(batches))[-1]
    score = board_view(last.after, last.seq + 1)["table"]["solo_score"]
    assert score["range"] == rating_range(score["rating"])
