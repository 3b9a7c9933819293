"""The /rules page is for players first: it opens with a sentence for them, and the rules
file's opening notes for developers (how code and tests cite the rules) close it."""

from __future__ import annotations

import re

from frontends.web import rulesdoc
from tests.support.web_support import make_app


def test_the_rules_page_opens_for_players_and_ends_with_the_developers_notes(tmp_path):
    app = make_app(tmp_path)
    html = app.test_client().get("/rules").get_data(as_text=True)
    article = html.split('<article class="card rules">', 1)[1]
    first = re.search(r"<p>(.*?)</p>", article, re.S).group(1)
    assert first.startswith("How Dice Miner is played")
    assert "code" not in first and "seeds" not in first
    notes = article.index('<h2 id="notes-for-developers">Notes for developers</h2>')
    assert article.index("name them in code comments and tests") > notes
    assert article.index("5. Decisions") < notes  # the last section: after every rule
    contents = html.split('aria-label="Contents"', 1)[1].split("</nav>", 1)[0]
    assert contents.rstrip().endswith(
        '<a href="#notes-for-developers">Notes for developers</a></li>\n    </ul>'
    )
    app.extensions["dice_miner"].games.close()


def test_a_file_of_another_shape_is_shown_as_written():
    text = "Some rules.\n\n## 1. A\n\nx\n"
    assert rulesdoc.for_players(text) == text
    plain = "# T\n\nFor players.\n\n## 1. A\n\nx\n"
    assert "Notes for developers" not in rulesdoc.for_players(plain)
