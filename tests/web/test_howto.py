"""The "How to play" panel's content and the /rules page, through Flask's test client.

The panel is drawn by the server from frontends/rules_summary.py (the terminal
help's words), with the summary that fits the game; /rules is docs/RULES.md
rendered as simple HTML, every piece of its text escaped.
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from frontends import rules_summary
from frontends.web import rulesdoc
from tests.support.web_support import make_app

REPO = Path(__file__).resolve().parents[2]
RULES = REPO / "docs" / "RULES.md"


@pytest.fixture(scope="module")
def replays():
    return ("two-players.dmlog", "solo.dmlog")


def panel(html: str) -> str:
    """The <dialog id="howto"> of a page."""
    found = re.search(r'<dialog id="howto".*?</dialog>', html, re.S)
    assert found, "the page has no How to play panel"
    return found.group(0)


def paragraphs_in(html: str) -> list[str]:
    return [unescape(p) for p in re.findall(r"<p>(.*?)</p>", panel(html), re.S)]


def start(client, players, mode="multi") -> dict:
    answer = client.post("/api/games", json={"players": players, "seed": 3, "mode": mode})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


# -- the panel ------------------------------------------------------------------------------


def test_a_multiplayer_replay_explains_a_round_and_the_viewer_controls(client):
    html = client.get("/replay/two-players.dmlog").get_data(as_text=True)
    assert paragraphs_in(html) == list(rules_summary.paragraphs(solo=False))
    box = panel(html)
    assert 'data-mode="multi"' in box and "<h3>A round</h3>" in box
    assert "PageUp" in box and "timeline" in box and "command box" not in box
    assert 'id="howto-open"' in html and 'href="/rules"' in box


def test_a_solo_replay_explains_the_solo_game(client):
    html = client.get("/replay/solo.dmlog").get_data(as_text=True)
    assert paragraphs_in(html) == list(rules_summary.paragraphs(solo=True))
    assert "<h3>The solo game</h3>" in panel(html)


def test_a_game_page_explains_its_own_controls_for_its_mode(client):
    people = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]
    multi = client.get(f"/games/{start(client, people)['id']}").get_data(as_text=True)
    assert paragraphs_in(multi) == list(rules_summary.paragraphs(solo=False))
    assert "Share a beer" in panel(multi) and "watching" in panel(multi)
    assert "play the game through" not in panel(multi)  # the viewer's playback: not here
    assert "step back through the game so far" in panel(multi)
    solo_game = start(client, [{"name": "Sol", "bot": None}], mode="solo")
    solo = client.get(f"/games/{solo_game['id']}").get_data(as_text=True)
    assert paragraphs_in(solo) == list(rules_summary.paragraphs(solo=True))
    assert "take 30 freeze" in panel(solo) and "Share a beer" not in panel(solo)


def test_every_page_links_to_the_rules_and_only_play_pages_have_the_panel(client):
    home = client.get("/").get_data(as_text=True)
    assert 'href="/rules"' in home and 'id="howto"' not in home


# -- /rules ---------------------------------------------------------------------------------


def test_the_rules_page_shows_the_reference_with_its_headings(client):
    answer = client.get("/rules")
    assert answer.status_code == 200 and answer.mimetype == "text/html"
    html = answer.get_data(as_text=True)
    text = RULES.read_text(encoding="utf-8")
    for level, title in re.findall(r"^(#+) (.+)$", text, re.M):
        anchor = rulesdoc.slug(title)
        assert f'<h{len(level)} id="{anchor}">' in html, title
        if len(level) == 2:
            assert f'href="#{anchor}"' in html  # in the contents
    assert "<!--" not in html.split("<main>", 1)[1]  # the file's own note stays out
    assert html.count("<table>") == len(re.findall(r"^\|---", text, re.M))
    assert "<li><strong>Take</strong> a top die" in html
    assert "<ul>\n<li>magic, treasure and tool dice: always." in html  # the nested list
    assert "<code>(r, i)</code>" in html and "(P &gt; 0 ? P \u00d7 C : \u2212C)" in html


def test_the_rules_page_escapes_markup_in_the_file(tmp_path):
    rules = tmp_path / "RULES.md"
    rules.write_text(
        "# Rules <script>alert(1)</script>\n\n"
        'A **<img src=x onerror="z=1">** and `<b>code</b>` & *more*.\n\n'
        "| a | <i>b</i> |\n|---|---|\n| <svg onload=z> | 2 |\n\n"
        "- <iframe src=x>\n  - **deep** <u>\n",
        encoding="utf-8",
    )
    app = make_app(tmp_path, RULES_FILE=rules)
    html = app.test_client().get("/rules").get_data(as_text=True)
    body = html.split("<main>", 1)[1]
    for tag in ("<script>alert", "<img", "<b>", "<i>", "<svg", "<iframe", "<u>"):
        assert tag not in body, tag
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    assert "<strong>&lt;img src=x onerror=&quot;z=1&quot;&gt;</strong>" in body
    assert "<code>&lt;b&gt;code&lt;/b&gt;</code> &amp; <em>more</em>" in body
    assert "<td>&lt;svg onload=z&gt;</td>" in body
    assert "<li><strong>deep</strong> &lt;u&gt;</li>" in body
    app.extensions["dice_miner"].games.close()


def test_a_missing_rules_file_is_a_404_page(tmp_path):
    app = make_app(tmp_path, RULES_FILE=tmp_path / "nowhere.md")
    answer = app.test_client().get("/rules")
    assert answer.status_code == 404
    assert "rules reference is not installed" in answer.get_data(as_text=True)
    app.extensions["dice_miner"].games.close()


# -- the renderer ---------------------------------------------------------------------------


def test_the_renderer_keeps_code_spans_apart_from_emphasis_and_anchors_headings():
    html = str(rulesdoc.render("## 2. The `mountain`\n\n`**x**` and **y**, 2 * 3 * 4"))
    assert '<h2 id="2-the-mountain">2. The <code>mountain</code></h2>' in html
    assert "<p><code>**x**</code> and <strong>y</strong>, 2 * 3 * 4</p>" in html
    assert rulesdoc.headings("# A\n\n## 2. The `mountain`") == [
        (1, "a", "A"),
        (2, "2-the-mountain", "2. The mountain"),
    ]


def test_numbered_lists_tables_and_paragraphs_are_rendered():
    html = str(rulesdoc.render("1. one\n   still one\n2. two\n\n| x | y |\n|---|---|\n| 1 | 2 |\n"))
    assert "<ol>\n<li>one\nstill one</li>\n<li>two</li>\n</ol>" in html
    assert '<div class="table-wrap"><table>' in html and "<td>1</td>" in html
    assert html.rstrip().endswith("</table></div>")


def test_repeated_headings_get_anchors_of_their_own():
    text = "## Scoring\n\n### Example\n\n## Solo\n\n### Example\n"
    assert [anchor for _, anchor, _ in rulesdoc.headings(text)] == [
        "scoring",
        "example",
        "solo",
        "example-2",
    ]
    assert str(rulesdoc.render(text)).count('id="example-2"') == 1
