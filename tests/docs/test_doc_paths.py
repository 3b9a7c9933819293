"""The documents name only files that exist and link only to what is there: a path in
backticks in the README, the changelog or any page under docs/ must be in the repository
(the README once named ``frontends/web/resume.py`` long after it was gone), and every
link between them must reach a file, and a heading where it names one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: A path in backticks under one of the repository's own folders.
PATH = re.compile(r"`((?:core|frontends|tests|scripts|benchmarks|docs|replays|\.ci)/[\w./-]+)`")
#: Where other helpers shelve notes for the integrator to fold in: not a page yet.
SHELF = ROOT / "docs" / "_incoming"
DOCUMENTS = [
    ROOT / "README.md",
    ROOT / "CHANGELOG.md",
    *sorted(p for p in (ROOT / "docs").rglob("*.md") if SHELF not in p.parents),
]
#: A markdown link ``[text](target)``; images too.
LINK = re.compile(r"\[[^\]]*\]\(([^()\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def name(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("document", DOCUMENTS, ids=name)
def test_every_path_a_document_names_exists(document: Path):
    named = {m.group(1).rstrip(".") for m in PATH.finditer(document.read_text())}
    missing = sorted(p for p in named if not (ROOT / p).exists())
    assert not missing, f"{name(document)} names paths that do not exist: {missing}"


def test_the_check_finds_a_missing_path(tmp_path):
    page = "see `frontends/web/resume.py` and `core/game.py`"
    named = {m.group(1) for m in PATH.finditer(page)}
    assert sorted(p for p in named if not (ROOT / p).exists()) == ["frontends/web/resume.py"]


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces
    turned into hyphens (``dice-miner log show | verify`` gives ``...-show--verify``)."""
    text = heading.strip().replace("`", "").lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(document: Path) -> set[str]:
    """Every heading's anchor, a repeated heading numbered as GitHub numbers it."""
    seen: dict[str, int] = {}
    found = set()
    for line in FENCE.sub("", document.read_text()).splitlines():
        heading = re.match(r"#{1,6} (.+)", line)
        if heading:
            base = slug(heading.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken_links(document: Path) -> list[str]:
    """The links of ``document`` that lead nowhere: a file that is not there, or a
    ``#anchor`` no heading of the page it names makes."""
    broken = []
    for target in LINK.findall(FENCE.sub("", document.read_text())):
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:: not ours to check
            continue
        path, _, anchor = target.partition("#")
        page = (document.parent / path).resolve() if path else document
        if not page.exists() or (page.suffix == ".md" and anchor not in {"", *anchors(page)}):
            broken.append(target)
    return broken


@pytest.mark.parametrize("document", DOCUMENTS, ids=name)
def test_every_link_between_the_documents_resolves(document: Path):
    broken = broken_links(document)
    assert not broken, f"{name(document)} links to what is not there: {broken}"


def test_the_link_check_finds_a_missing_page_and_a_missing_heading(tmp_path):
    (tmp_path / "other.md").write_text("# Other\n\n## `dice-miner log show | verify`\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n## Here and there\n\n"
        "[fine](other.md#dice-miner-log-show--verify) [fine](#here-and-there)"
        " [web](https://example.org/x#y)\n"
        "[gone](gone.md) [no heading](other.md#nowhere) [not here](#elsewhere)\n"
        "```\n[in code](ignored.md)\n```\n"
    )
    assert broken_links(page) == ["gone.md", "other.md#nowhere", "#elsewhere"]


def test_every_page_of_the_docs_is_reachable_from_the_readme():
    """A page no link leads to is a page nobody finds: follow the links from the README."""
    pages = {p.resolve() for p in DOCUMENTS}
    reached, todo = set(), [ROOT / "README.md"]
    while todo:
        document = todo.pop()
        if document in reached:
            continue
        reached.add(document)
        for target in LINK.findall(FENCE.sub("", document.read_text())):
            path = target.partition("#")[0]
            if path and not re.match(r"[a-z]+:", path):
                found = (document.parent / path).resolve()
                if found in pages:
                    todo.append(found)
    assert sorted(name(p) for p in pages - reached) == []


def test_the_readme_stays_a_front_door():
    """Issue 24: the README says what the game is, the two commands and where to read
    on, in at most 300 lines; the rest lives in docs/ by audience."""
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 300
    for command in ("./play", "./test", '-m "not browser and not tmux and not postgres'):
        assert command in text


def test_the_inner_loop_leaves_out_browsers_terminals_databases_and_slow_tests():
    """The markers the README's quick loop names are registered and given by fixture."""
    import subprocess
    import sys

    quick = "not browser and not tmux and not postgres and not slow"
    files = [
        "tests/web/test_games.py",  # none of them: all stay
        "tests/web/browser/test_game_page.py",  # the browser's
        "tests/cli/tmux/test_play.py",  # the terminal's
        "tests/host/test_scale_out.py",  # the database's
        "tests/store/test_store_contract.py",  # the database's only for its PostgreSQL backend
    ]
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "--strict-markers", "-m", quick] + files,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert listed.returncode == 0, listed.stdout + listed.stderr
    kept = {line.split("::")[0] for line in listed.stdout.splitlines() if "::" in line}
    assert kept == {"tests/web/test_games.py", "tests/store/test_store_contract.py"}
    assert "[postgres" not in listed.stdout and "[memory" in listed.stdout
