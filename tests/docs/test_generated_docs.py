"""Documentation generated from the code is current."""

from pathlib import Path

from scripts.document_events import PAGE, render


def test_events_page_is_current():
    """Run `python -m scripts.document_events` if this fails after changing an event."""
    assert PAGE.read_text() == render()


def test_the_rules_page_is_the_shared_reference():
    """``docs/RULES.md`` is the rules every ``# rule Dn`` comment cites, copied into the
    repository; where the shared original sits beside it, the copy must match it."""
    copy = Path(__file__).resolve().parents[2] / "docs" / "RULES.md"
    text = copy.read_text(encoding="utf-8")
    body = text.split("-->\n\n", 1)[1]  # the copy's own note, then the reference verbatim
    for decision in range(1, 11):
        assert f"D{decision}" in body
    shared = copy.parents[2] / "shared" / "RULES.md"
    if shared.exists():
        assert body == shared.read_text(encoding="utf-8"), "docs/RULES.md is out of date"


def test_the_events_page_script_checks_without_writing(capsys):
    from scripts.document_events import main

    before = PAGE.stat().st_mtime_ns
    assert main(["--check"]) == 0
    assert PAGE.stat().st_mtime_ns == before
    assert "up to date" in capsys.readouterr().err


def test_the_postgres_page_lists_every_migration_and_column_added():
    """The PostgreSQL store's part of docs/operate.md once omitted ``seatings.secret`` and
    ``batches.request``."""
    import re

    from core.store.pgschema import MIGRATIONS

    page = (Path(__file__).resolve().parents[2] / "docs" / "operate.md").read_text()
    for version, _, sql in MIGRATIONS:
        assert f"\n| {version} | " in page, version
        for table, column in re.findall(r"ALTER TABLE (\w+) ADD COLUMN (\w+)", sql):
            assert f"`{table}.{column}`" in page and f"`{column}` (" in page, column
