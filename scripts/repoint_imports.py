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

Afterwards ``ruff check --select I --fix FILE...`` merges and sorts the import blocks.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import sys
from pathlib import Path

#: Old module path -> new module path, for every module of core that moved.
MOVES: dict[str, str] = {}


def moved(module: str) -> str:
    """``module``'s path today (itself where it did not move); the longest match wins."""
    for old in sorted(MOVES, key=len, reverse=True):
        if module == old or module.startswith(old + "."):
            return MOVES[old] + module[len(old) :]
    return module


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
        if moved(module) == module:
            return None, []
        names = ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in node.names)
        return f"from {moved(module)} import {names}", []
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
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    total, problems = 0, []
    for path in args.files:
        count, missing = repoint(path, front_door=args.front_door, write=not args.check)
        total += count
        problems += missing
        if count:
            print(f"{path}: {count} import(s) {'to re-point' if args.check else 're-pointed'}")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems or (args.check and total) else 0


if __name__ == "__main__":
    sys.exit(main())
