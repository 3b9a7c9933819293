"""Documentation generated from the code is current."""

from scripts.document_events import PAGE, render


def test_events_page_is_current():
    """Run `python -m scripts.document_events` if this fails after changing an event."""
    assert PAGE.read_text() == render()
