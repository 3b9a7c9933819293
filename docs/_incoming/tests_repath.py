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
#: Names that test modules imported from each other, now in tests/support (or, for the
#: fixtures, given by a conftest.py: an import of them is dropped).
MOVED_NAMES = {
    "tests.test_tui_session": dict.fromkeys(
        ["SEATS", "session_for", "step", "advance", "find"], "tests.support.tui"
    ),
    "tests.test_tui_app": dict.fromkeys(
        ["ENTER", "ESC", "SEATS", "until", "Player", "running", "new_session"], "tests.support.tui"
    ),
    "tests.test_play_tmux": {
        "TMUX": "tests.support.tmux",
        "REPO": "tests.support.tmux",
        "Terminal": "tests.support.tmux",
        "terminal": None,
        "_real_terminal": None,
    },
    "tests.test_solo_play_review": dict.fromkeys(
        ["SEED", "TO_THE_BEER", "TO_THE_END", "played"], "tests.support.solo_lines"
    ),
    "tests.test_choices_frontends": {"FORCED_SOLO": "tests.support.solo_lines"},
    "tests.test_game": {"play": "tests.support.games"},
    "tests.test_store_contract": {
        "played": "tests.support.games",
        "copy_into": "tests.support.games",
    },
    "tests.test_solo_tools": {"model_key": "tests.support.solo_model"},
    "tests.test_cli_replay": {
        "check_shape": "tests.support.replay_shape",
        "check_die": "tests.support.replay_shape",
    },
    "tests.test_web_ops": {"samples": "tests.support.metrics"},
    "tests.test_scale_out_servers": {
        "post_from": "tests.support.serve_support",
        "workers_of": "tests.support.serve_support",
    },
    "tests.test_web_readmodel": {"REPLAYS": "tests.support.web_support"},
}
IMPORT = re.compile(
    r"^(?P<indent>[ \t]*)from (?P<module>tests\.test_\w+) import (?P<names>[\w, ]+?)"
    r"(?P<comment>[ \t]*#.*)?$",
    re.M,
)


def moved_imports(text: str) -> str:
    """``from tests.test_x import a, b`` split by where each name now lives."""

    def split(match: re.Match[str]) -> str:
        moved = MOVED_NAMES.get(match["module"], {})
        by_module: dict[str, list[str]] = {}
        for entry in (n.strip() for n in match["names"].split(",")):
            name = entry.split(" as ")[0]
            if name in moved and moved[name] is None:
                continue  # a fixture its folder's conftest.py gives
            by_module.setdefault(moved.get(name, match["module"]), []).append(entry)
        lines = [f"{match['indent']}from {m} import {', '.join(ns)}" for m, ns in by_module.items()]
        return "\n".join(lines)

    return IMPORT.sub(split, text)


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
        new = moved_imports(text)
        for pattern, replacement in subs:
            new = pattern.sub(replacement, new)
        if new != text:
            path.write_text(new, encoding="utf-8")
            print("re-pointed", name)


if __name__ == "__main__":
    main(sys.argv[1:])
