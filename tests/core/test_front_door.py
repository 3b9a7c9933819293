"""The front door (``core/__init__.py``) is the one way into the engine, and behind it every
module imports downward only.

Frontends import ``core`` and nothing under it, by name (``from core import Game``); the
front door's names all resolve and load lazily; and following imports from the front
door, no module of core reaches a layer above its own, nor round the store to the log
file, nor round the game to the rules. The layers, lowest first, are ``LAYERS``: a new
package of core takes its place there, or this test says it has none.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from functools import cache
from pathlib import Path

import core

ROOT = Path(__file__).resolve().parents[2]
FRONTENDS = ROOT / "frontends"

#: Core's layers, lowest first: a module may import its own unit and the units of the
#: layers below its own, never one beside or above.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("core.modes",),  # the mode packages' faces: they import nothing
    ("core.errors", "core.dice", "core.mountain", "core.rng"),  # the small pure pieces
    ("core.words",),  # the pieces in words
    ("core.commands", "core.scoring", "core.log"),  # what is asked, a mode's score, the log
    ("core.events",),  # the facts
    ("core.projections",),  # the fold
    ("core.rules",),  # deciding a command
    ("core.read", "core.store"),  # what a frontend draws; where batches live
    ("core.game",),  # one game: the Python API
    ("core.bots", "core.verify"),  # players; a log re-run
    ("core.analysis", "core.branch"),  # made of games: a judge, what-if branches
    ("core.host",),  # live tables, a server's lobby
)

#: What ``core.modes`` (the column's face) loads before any part of a mode runs: the layers
#: that register the modes' parts by name, so that a part imported first in a fresh process
#: is reached through its layer, never half-made. It is the one face that imports.
COLUMN_ENTRY = frozenset({"core.events", "core.projections", "core.rules", "core.read"})

#: A game mode's package (``core.modes.<mode>``) is a column across the layers: each of its
#: parts stands in the layer its name says, as if it were in that layer's package.
MODE_PARTS = {
    "events": "core.events",
    "scoring": "core.scoring",
    "fold": "core.projections",
    "rules": "core.rules",
    "take": "core.rules",
    "flow": "core.rules",
    "magic": "core.rules",
    "cache": "core.rules",
    "legal": "core.rules",
    "setup": "core.rules",
    "words": "core.read",
}

#: Units reached only from these units (and from themselves): the log file through the
#: store; the rules through the game, the read models and the bots (which weigh moves).
ONLY_FROM: dict[str, frozenset[str]] = {
    "core.log": frozenset({"core.store"}),
    "core.rules": frozenset({"core.game", "core.read", "core.bots"}),
}


def module_file(name: str) -> Path | None:
    base = ROOT.joinpath(*name.split("."))
    for path in (base / "__init__.py", base.with_suffix(".py")):
        if path.is_file():
            return path
    return None


def imported(path: Path, *, typing: bool = True) -> list[tuple[str, tuple[str, ...]]]:
    """Every import of a source file, anywhere in it (with ``typing``, those made for the
    type checker alone too): ``(module, names)``, names empty for a plain ``import``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    unrun = set()
    if not typing:  # ``if TYPE_CHECKING:`` blocks never run: they tie no layers together
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING"):
                unrun |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    found: list[tuple[str, tuple[str, ...]]] = []
    for node in ast.walk(tree):
        if id(node) in unrun:
            continue
        if isinstance(node, ast.Import):
            found += [(alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: a relative import"
            found.append((node.module or "", tuple(alias.name for alias in node.names)))
    return found


@cache
def core_imports(module: str) -> frozenset[str]:
    """The modules of core that ``module`` imports as it runs, with the packages they
    stand in."""
    path = module_file(module)
    assert path is not None, module
    out: set[str] = set()
    for name, names in imported(path, typing=False):
        if not name.startswith("core."):
            continue
        targets = [name] + [f"{name}.{n}" for n in names if module_file(f"{name}.{n}")]
        for target in targets:
            parts = target.split(".")
            out |= {".".join(parts[:i]) for i in range(2, len(parts) + 1)}
    # A part of a mode runs its package faces on the way (``core.modes`` loads the layers
    # first, see ``COLUMN_ENTRY``): that is the package, not an import of it.
    faces = {m for m in out if m.split(".")[:2] == ["core", "modes"] and m.count(".") <= 2}
    return frozenset(out - {module} - faces)


def behind_the_front_door() -> set[str]:
    """Every module of core that the front door's names reach, transitively."""
    todo = [module for module, _ in core._WHERE.values()] + list(core._MODULES.values())
    seen: set[str] = set()
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo += core_imports(module)
    return seen


def unit(module: str) -> str:
    parts = module.split(".")
    if parts[:2] == ["core", "modes"]:
        if len(parts) <= 3:  # the packages' faces, which import nothing
            return "core.modes"
        assert parts[3] in MODE_PARTS, f"{module}: a mode's part named for no layer"
        return MODE_PARTS[parts[3]]
    units = [u for layer in LAYERS for u in layer if module == u or module.startswith(u + ".")]
    assert units, f"{module} stands in no layer: give it one in LAYERS"
    return max(units, key=len)


def rank(module: str) -> int:
    return next(i for i, layer in enumerate(LAYERS) if unit(module) in layer)


def test_frontends_import_only_the_front_door():
    """Not a module under ``core``, and only names the front door offers."""
    offered = set(core.__all__)
    wrong = []
    for path in sorted(FRONTENDS.rglob("*.py")):
        where = path.relative_to(ROOT)
        for module, names in imported(path):
            if module.startswith("core."):
                wrong.append(f"{where}: {module}")
            elif module == "core":
                wrong += [f"{where}: core.{n} (not offered)" for n in names if n not in offered]
    assert wrong == []


def test_the_front_door_offers_what_it_names():
    """Every name resolves, and the type checker's list is the run time's."""
    tree = ast.parse((ROOT / "core" / "__init__.py").read_text(encoding="utf-8"))
    checked = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.If)
        for stmt in node.body
        if isinstance(stmt, ast.ImportFrom)
        for alias in stmt.names
    }
    assert checked == set(core.__all__)
    assert len(core.__all__) == len(set(core.__all__))
    for name in core.__all__:
        assert getattr(core, name) is not None, name
    assert core.choices is not core.bot_choices  # the two read models keep two names
    assert core.CommandUndone is core.events.CommandUndone


def test_every_module_of_core_can_be_imported_first():
    """A fresh process may begin anywhere (a notebook's ``from core import choices``, a
    test's deep import): no module meets another half-made. The modes' parts and the read
    models are where the layers meet the modes, so each of those is imported first."""
    modules = sorted(
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for folder in ("modes", "read")
        for path in (ROOT / "core" / folder).rglob("*.py")
    )
    code = (
        "import importlib, subprocess, sys\n"
        "bad = []\n"
        "for m in sys.argv[1:]:\n"
        "    r = subprocess.run([sys.executable, '-c', f'import {m}'], capture_output=True,"
        " text=True)\n"
        "    if r.returncode:\n"
        "        bad.append(m + ': ' + r.stderr.strip().splitlines()[-1])\n"
        "print('\\n'.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, *modules], cwd=ROOT, capture_output=True, text=True
    )
    assert out.stdout.strip() == "", out.stdout
    first = subprocess.run(
        [sys.executable, "-c", "from core import choices, Game"], cwd=ROOT, capture_output=True
    )
    assert first.returncode == 0, first.stderr


def test_import_core_loads_nothing_behind_it():
    """``import core`` is cheap: a name is imported on first use, with only what it needs."""
    code = (
        "import sys, core\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'core'))\n"
        "from core import RuleError\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'core'))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    bare, errors = out.stdout.splitlines()
    assert bare == "['core']"
    assert errors == "['core', 'core.errors']"


def test_behind_the_front_door_every_import_runs_down():
    """No module of core imports a unit beside or above its own layer."""
    modules = behind_the_front_door()
    assert {"core.game", "core.host", "core.store", "core.rules"} <= {unit(m) for m in modules}
    upward = sorted(
        f"{module} -> {other}"
        for module in modules
        for other in core_imports(module)
        if unit(other) != unit(module) and rank(other) >= rank(module) and module != "core.modes"
    )
    assert upward == []


def test_the_log_and_the_rules_are_reached_only_through_their_layers():
    """``core.branch`` writes a log through the store, the analysis words a move through the
    read models: nothing goes round a layer to the log file or to the rules."""
    around = sorted(
        f"{module} -> {other}"
        for module in behind_the_front_door()
        for other in core_imports(module)
        if unit(other) in ONLY_FROM
        and module != "core.modes"  # the column's entry (COLUMN_ENTRY)
        and unit(module) != unit(other)
        and unit(module) not in ONLY_FROM[unit(other)]
    )
    assert around == []


def test_every_module_of_core_stands_in_a_layer():
    modules = [
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for path in (ROOT / "core").rglob("*.py")
        if path != ROOT / "core" / "__init__.py"  # the front door stands above them all
    ]
    assert all(rank(module) >= 0 for module in modules)
    faces = [m for m in modules if m.split(".")[:2] == ["core", "modes"] and m.count(".") <= 2]
    assert faces and all(
        core_imports(face) == frozenset() for face in faces if face != "core.modes"
    )
    assert {u for u in core_imports("core.modes") if u.count(".") == 1} == COLUMN_ENTRY


def test_each_mode_is_registered_by_name_in_each_layer():
    """Every event has its fold and its words once ``core.projections`` and ``core.read``
    are imported: the modes' tables are registered there, explicitly."""
    from core.events import EVENT_TYPES
    from core.modes.multiplayer import fold as multiplayer_fold
    from core.modes.multiplayer import words as multiplayer_words
    from core.modes.solo import fold as solo_fold
    from core.modes.solo import words as solo_words
    from core.modes.table import fold as table_fold
    from core.projections.apply import HANDLERS
    from core.read.text import DESCRIBERS
    from core.rules import MODE_HANDLERS
    from core.rules.legal import MODE_LEGAL

    events = set(EVENT_TYPES.values())
    assert events <= HANDLERS.keys()
    assert events - DESCRIBERS.keys() <= {core.CommandUndone}  # undo is worded by its reader
    assert multiplayer_fold.HANDLERS.items() <= HANDLERS.items()
    assert multiplayer_words.DESCRIBERS.items() <= DESCRIBERS.items()
    assert solo_fold.HANDLERS.items() <= HANDLERS.items()
    assert table_fold.HANDLERS.items() <= HANDLERS.items()
    assert solo_words.DESCRIBERS.items() <= DESCRIBERS.items()
    assert set(MODE_HANDLERS) == set(MODE_LEGAL) == {"multi", "solo"}


def test_the_front_doors_example_runs(capsys):
    """The example at the top of ``core/__init__.py`` plays as it says."""
    doc = core.__doc__ or ""
    example = doc.split("\n\n", 1)[1].split("\n\nOne verb", 1)[0]
    code = "\n".join(line.removeprefix("    ") for line in example.splitlines())
    exec(compile(code, "core.__doc__", "exec"), {})
    assert capsys.readouterr().out.startswith("die_covered die ")
