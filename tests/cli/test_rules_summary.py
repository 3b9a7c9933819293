"""The game's summary is kept once, in frontends/rules_summary.py, and both frontends read it.

The terminal's help prints its lines exactly as before the move; the web turns
each topic into a paragraph without the terminal's key hints.
"""

from __future__ import annotations

from frontends import rules_summary
from frontends.cli.tui import overlays
from frontends.cli.tui.glyphs import Glyphs


def help_lines(solo: bool) -> list[str]:
    """The summary's lines as the terminal's help prints them (under its title)."""
    text = "".join(t for _, t in overlays.help_text(Glyphs(), solo=solo, rows=40))
    title = "\n The solo game\n" if solo else "\n A round\n"
    body = text.split(title, 1)[1].split("\n\n", 1)[0]
    return body.split("\n")


def test_the_terminal_help_prints_the_shared_lines_one_a_line():
    """Given the shared summary, the ? help shows its lines in order, indented by two spaces."""
    assert overlays.MULTI_ROUND is rules_summary.MULTI_ROUND  # one source, not a copy
    assert overlays.SOLO_GAME is rules_summary.SOLO_GAME
    assert help_lines(False) == [f"  {line}" for line in rules_summary.MULTI_ROUND]
    assert help_lines(True) == [f"  {line}" for line in rules_summary.SOLO_GAME]


def test_the_terminal_lines_are_the_topics_in_order_and_fit_the_help_box():
    """Each constant is its topics' lines flattened; every line fits the 76-column box."""
    for topics, lines in (
        (rules_summary.MULTI_TOPICS, rules_summary.MULTI_ROUND),
        (rules_summary.SOLO_TOPICS, rules_summary.SOLO_GAME),
    ):
        assert lines == tuple(line for topic in topics for line in topic)
        assert all(2 + len(line) <= 76 for line in lines)
    assert rules_summary.MULTI_ROUND[1].startswith("Or first share a beer (b):")


def test_the_page_gets_one_paragraph_per_topic_without_terminal_keys():
    """Paragraphs join a topic's lines with spaces and drop "(b)", which no page key matches."""
    multi = rules_summary.paragraphs(solo=False)
    assert len(multi) == len(rules_summary.MULTI_TOPICS)
    assert multi[1] == (
        "Or first share a beer: a beer die of yours is rerolled and given to another player,"
        " then you take two dice, each a top or side die."
    )
    assert not any("(b)" in p for p in multi)
    solo = rules_summary.paragraphs(solo=True)
    assert len(solo) == len(rules_summary.SOLO_TOPICS)
    assert solo[0].endswith("freeze on a chest for double points; a beer is wild.")
    assert "(cave-in)" in solo[0]  # brackets that name no key stay
    assert all("  " not in p and "\n" not in p for p in multi + solo)
