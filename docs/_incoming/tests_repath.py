"""Re-point references to the old flat ``tests/`` paths at the layered layout.

Usage (from the repository root): ``python docs/_incoming/tests_repath.py FILE...``
rewrites, in place, every ``tests/test_x.py``, ``tests/web_support.py`` (and the other
helpers), every dotted ``tests.test_x`` / ``tests.web_support`` and every bare
``test_x.py`` to its new place, from ``docs/_incoming/tests-moves.txt`` (one
``OLD NEW`` pair a line). For the integrator: run it over README.md and the docs pages
once the docs helper's rewrite is merged, and over test files other branches added or
changed in the flat layout, then move those files into a layer's folder.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

MOVES = Path(__file__).with_name("tests-moves.txt")


def substitutions() -> list[tuple[re.Pattern[str], str]]:
    pairs = [line.split() for line in MOVES.read_text().splitlines() if line.strip()]
    subs = []
    for old, new in pairs:
        dotted_old, dotted_new = old[:-3].replace("/", "."), new[:-3].replace("/", ".")
        subs.append((re.compile(r"(?<![\w/.])" + re.escape(old) + r"(?!\w)"), new))
        subs.append((re.compile(r"(?<![\w.])" + re.escape(dotted_old) + r"(?!\w)"), dotted_new))
        base = old.rsplit("/", 1)[-1]
        if base.startswith("test_"):
            subs.append((re.compile(r"(?<![\w/.])" + re.escape(base) + r"(?!\w)"), new))
    return subs


def main(paths: list[str]) -> None:
    subs = substitutions()
    for name in paths:
        path = Path(name)
        text = path.read_text(encoding="utf-8")
        new = text
        for pattern, replacement in subs:
            new = pattern.sub(replacement, new)
        if new != text:
            path.write_text(new, encoding="utf-8")
            print("re-pointed", name)


if __name__ == "__main__":
    main(sys.argv[1:])
