"""Re-point import lines after core's modules moved, or a frontend's onto the front door.

Two rewrites, each touching import lines only (a module's body is left as it is):

- ``MOVES`` (the default): ``from core.old.path import x`` and ``import core.old.path``
  become the module's new path, for every module that moved (the table below, also
  in ``docs/_incoming/front.md``); a module under a moved package moves with it.
- ``--front-door``: every ``from core.<module> import name`` becomes ``from core import
  name`` (renamed where the front door names it otherwise: ``from core import
  bot_choices as choices``). A name the front door does not offer is reported and its
  line left: add it to ``core/__init__.py``'s ``_HOMES`` first.

    python -m scripts.repoint_imports FILE...               # the moves
    python -m scripts.repoint_imports --front-door FILE...  # frontends onto ``core``
    python -m scripts.repoint_imports --check FILE...       # list, change nothing
    python -m scripts.repoint_imports --mentions FILE...    # also in words: docstrings, docs

``--mentions`` rewrites every mention of a moved module in the text too, dotted
(``core.projections.views.state_view``) or as a path (``core/projections/choices.py``):
for documents and docstrings, whose words this script otherwise leaves alone.

Afterwards ``ruff check --select I --fix FILE...`` merges and sorts the import blocks.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import re
import sys
from pathlib import Path

#: Old module path -> new module path, for every module of core that moved.
MOVES: dict[str, str] = {
    # the valuation the expert plays by and the analysis judges by, below both
    "core.analysis.excavation": "core.bots.valuation.excavation",
    "core.analysis.multi": "core.bots.valuation.multi",
    "core.analysis.verdict": "core.bots.valuation.verdict",
    "core.analysis.worth": "core.bots.valuation.worth",
    # the read models, in one package above the rules (issue 24, item 1)
    "core.projections.choices": "core.read.choices",
    "core.projections.choice_words": "core.read.choice_words",
    "core.projections.views": "core.read.views",
    "core.projections.text": "core.read.text",
    "core.projections.solo_text": "core.read.solo_text",
    "core.projections.table_text": "core.read.table_text",
    # one package per game mode (issue 24, item 2): the solo game's and the table's parts
    "core.events.solo": "core.modes.solo.events",
    "core.rules.solo": "core.modes.solo.rules",
    "core.rules.solo_take": "core.modes.solo.take",
    "core.projections.solo": "core.modes.solo.fold",
    "core.read.solo_text": "core.modes.solo.words",
    "core.scoring_solo": "core.modes.solo.scoring",
    "core.events.table": "core.modes.table.events",
    "core.rules.table": "core.modes.table.rules",
    "core.projections.table": "core.modes.table.fold",
    "core.read.table_text": "core.modes.table.words",
    # the multiplayer game's own parts, in their mode's package (issue 24, item 2)
    "core.rules.multiplayer": "core.modes.multiplayer.rules",
    "core.rules.flow": "core.modes.multiplayer.flow",
    "core.rules.magic": "core.modes.multiplayer.magic",
    "core.rules.cache": "core.modes.multiplayer.cache",
    "core.scoring": "core.modes.multiplayer.scoring",
    # one legal-move generator with its lazy counted view (issue 24, item 2)
    "core.bots.legal_list": "core.rules.legal",
}

#: Old path -> new path of a definition that left its module (the rest of it stayed).
NAMES: dict[str, str] = {
    # the pieces' words, below the rules that word their refusals with them
    "core.projections.text.face_words": "core.words.face_words",
    "core.projections.text.die_words": "core.words.die_words",
    "core.projections.text.slot_words": "core.words.slot_words",
}


def moved(module: str) -> str:
    """``module``'s path today (itself where it did not move); the longest match wins, and
    a module that moved twice (``core.projections.solo_text``) is followed to its end."""
    for old in sorted(MOVES, key=len, reverse=True):
        if module == old or module.startswith(old + "."):
            return moved(MOVES[old] + module[len(old) :])
    return module


def _target(module: str, name: str) -> tuple[str, str]:
    """Where ``from module import name`` finds ``name`` now: ``(module, name)``."""
    full = f"{module}.{name}"
    if full in NAMES:  # a definition that moved on its own
        new_module, _, new_name = NAMES[full].rpartition(".")
        return new_module, new_name
    if moved(full) != full:  # a module, imported by name from its package
        new_module, _, new_name = moved(full).rpartition(".")
        return new_module, new_name
    return moved(module), name


def mentions(text: str) -> str:
    """``text`` with every dotted or path mention of a moved module or name re-pointed."""
    for old, new in sorted({**NAMES, **MOVES}.items(), key=lambda kv: -len(kv[0])):
        text = re.sub(rf"(?<![\w.]){re.escape(old)}(?!\w)", new, text)
        old_path, new_path = old.replace(".", "/"), new.replace(".", "/")
        text = re.sub(rf"(?<![\w/]){re.escape(old_path)}(?=\.py\b|/)", new_path, text)
    return text


def _front_door() -> dict[int, str]:
    """id(object) -> the front door's name for it."""
    import core

    names: dict[int, str] = {}
    for name in core.__all__:
        names.setdefault(id(getattr(core, name)), name)
    return names


def _front_name(module: str, name: str, door: dict[int, str]) -> str | None:
    try:
        obj = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None
    return door.get(id(obj))


def _rewrite(node: ast.stmt, door: dict[int, str] | None) -> tuple[str | None, list[str]]:
    """The new text of an import statement (None: unchanged), and what could not be done."""
    if isinstance(node, ast.Import):
        if door is not None or not any(moved(a.name) != a.name for a in node.names):
            return None, []
        parts = [moved(a.name) + (f" as {a.asname}" if a.asname else "") for a in node.names]
        return "import " + ", ".join(parts), []
    assert isinstance(node, ast.ImportFrom)
    module = node.module or ""
    if node.level or not module.startswith("core."):
        return None, []
    if door is None:
        if all(_target(module, a.name) == (module, a.name) for a in node.names):
            return None, []
        grouped: dict[str, list[str]] = {}
        for alias in node.names:
            new_module, new_name = _target(module, alias.name)
            local = alias.asname or alias.name  # an ``x as x`` re-export stays one
            grouped.setdefault(new_module, []).append(
                new_name if alias.asname is None and new_name == local else f"{new_name} as {local}"
            )
        lines = [f"from {m} import {', '.join(names)}" for m, names in grouped.items()]
        return ("\n" + " " * node.col_offset).join(lines), []
    parts, missing = [], []
    for alias in node.names:
        front = _front_name(module, alias.name, door)
        if front is None:
            missing.append(f"{module}.{alias.name}")
            continue
        local = alias.asname or alias.name
        parts.append(front if front == local else f"{front} as {local}")
    if missing:
        return None, missing
    return "from core import " + ", ".join(parts), []


def repoint(path: Path, *, front_door: bool, write: bool) -> tuple[int, list[str]]:
    """Rewrite ``path``'s import lines; the number of statements changed and the names
    the front door lacks."""
    if path.suffix != ".py":  # a document: only its mentions (``--mentions``)
        return 0, []
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    door = _front_door() if front_door else None
    changes: list[tuple[int, int, str]] = []
    missing: list[str] = []
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        new, lacking = _rewrite(node, door)
        missing += [f"{path}:{node.lineno}: {name}" for name in lacking]
        if new is None:
            continue
        start, end = node.lineno - 1, (node.end_lineno or node.lineno) - 1
        before = lines[start][: node.col_offset]
        after = lines[end][node.end_col_offset or 0 :]
        if before.strip() or not (after.strip() == "" or after.lstrip().startswith("#")):
            missing.append(f"{path}:{node.lineno}: shares its line: left as it is")
            continue
        changes.append((start, end, before + new + after))
    for start, end, new in sorted(changes, reverse=True):
        lines[start : end + 1] = [new]
    if write and changes:
        path.write_text("".join(lines))
    return len(changes), missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--front-door", action="store_true", help="frontends onto `core`")
    parser.add_argument("--check", action="store_true", help="report, change nothing")
    parser.add_argument("--mentions", action="store_true", help="re-point words too")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    total, problems = 0, []
    for path in args.files:
        count, missing = repoint(path, front_door=args.front_door, write=not args.check)
        total += count
        problems += missing
        if count:
            print(f"{path}: {count} import(s) {'to re-point' if args.check else 're-pointed'}")
        if args.mentions and not args.front_door:
            text = path.read_text()
            if mentions(text) != text:
                total += 1
                print(f"{path}: mentions {'to re-point' if args.check else 're-pointed'}")
                if not args.check:
                    path.write_text(mentions(text))
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems or (args.check and total) else 0


if __name__ == "__main__":
    sys.exit(main())
