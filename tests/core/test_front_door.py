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

import pytest

import core

ROOT = Path(__file__).resolve().parents[2]
FRONTENDS = ROOT / "frontends"

#: Core's layers, lowest first: a module may import its own unit and the units of the
#: layers below its own, never one beside or above.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("core.errors", "core.dice", "core.mountain", "core.rng"),  # the small pure pieces
    ("core.words",),  # the pieces in words
    ("core.commands", "core.scoring", "core.log"),  # what is asked, a mode's score, the log
    ("core.events",),  # the facts
    ("core.projections",),  # the fold
    ("core.rules",),  # deciding a command
    ("core.modes",),  # the game modes, installed into the layers below (``install``)
    ("core.read", "core.store"),  # what a frontend draws; where batches live
    ("core.game",),  # one game: the Python API
    ("core.bots", "core.verify"),  # players; a log re-run
    ("core.analysis", "core.branch"),  # made of games: a judge, what-if branches
    ("core.host",),  # live tables, a server's lobby
)

#: Inside a mode's package (``core.modes.<mode>``) each part stands where its name says,
#: lowest first: a part imports parts of its own rank or below, never above (the fold
#: never reaches the rules, the rules never the words).
MODE_PARTS: tuple[frozenset[str], ...] = (
    frozenset({"events", "scoring"}),
    frozenset({"fold"}),
    frozenset({"rules", "take", "flow", "magic", "cache", "legal", "setup"}),
    frozenset({"words"}),
)

#: Units reached only from these units (and from themselves): the log file through the
#: store; the rules through the game, the read models and the bots (which weigh moves).
ONLY_FROM: dict[str, frozenset[str]] = {
    "core.log": frozenset({"core.store"}),
    "core.rules": frozenset({"core.modes", "core.game", "core.read", "core.bots"}),
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
    return frozenset(out - {module})


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
        if unit(other) != unit(module) and rank(other) >= rank(module)
    )
    assert upward == []


def part_rank(module: str) -> int:
    """Where a mode's part stands inside its package (``MODE_PARTS``)."""
    part = module.split(".")[3]
    ranks = [i for i, parts in enumerate(MODE_PARTS) if part in parts]
    assert ranks, f"{module}: a mode's part named for no place in MODE_PARTS"
    return ranks[0]


def test_inside_a_mode_every_import_runs_down():
    """A mode's fold never reaches its rules, nor its rules its words: each part imports
    parts of its own rank or below, of any mode (both games use the table's rules)."""
    parts = sorted(
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for path in (ROOT / "core" / "modes").glob("*/*.py")
        if path.name != "__init__.py"
    )
    assert len(parts) > 15
    upward = sorted(
        f"{module} -> {other}"
        for module in parts
        for other in core_imports(module)
        if other.count(".") == 3
        and other.split(".")[:2] == ["core", "modes"]
        and part_rank(other) > part_rank(module)
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


def test_each_mode_is_installed_in_each_layer():
    """``core.modes.install`` hands every layer its part of every mode: each event a log
    may hold is known to the codec, folded and worded, and each mode's rules are the
    rules' (with the table's facts in both)."""
    from core.events import EVENT_TYPES
    from core.modes import MODES, TABLE
    from core.projections.apply import HANDLERS
    from core.read.text import DESCRIBERS
    from core.rules import MODE_HANDLERS
    from core.rules.legal import MODE_LEGAL
    from core.rules.setup import OPTION_CHECKS

    events = set(EVENT_TYPES.values())
    assert events <= HANDLERS.keys()
    assert events - DESCRIBERS.keys() <= {core.CommandUndone}  # undo is worded by its reader
    for mode in (*MODES, TABLE):
        assert set(mode.events) <= events
        assert mode.fold.items() <= HANDLERS.items()
        assert mode.describers.items() <= DESCRIBERS.items()
    for mode in MODES:
        assert MODE_HANDLERS[mode.name] == {**mode.rules, **TABLE.rules}
        assert MODE_LEGAL[mode.name] is mode.legal
    assert set(MODE_HANDLERS) == set(MODE_LEGAL) == {"multi", "solo"}
    assert [TABLE.check_options] == OPTION_CHECKS


def test_every_event_class_is_in_its_modules_list():
    """An event class left out of its module's ``EVENTS`` could not be read back: each
    module that defines events lists them all, in the order they are defined."""
    import inspect

    from core.events import game
    from core.events.base import Event
    from core.modes.multiplayer import events as multiplayer
    from core.modes.solo import events as solo
    from core.modes.table import events as table

    for module in (game, multiplayer, solo, table):
        defined = [
            cls
            for _, cls in inspect.getmembers(module, inspect.isclass)
            if issubclass(cls, Event) and cls.__module__ == module.__name__
        ]
        assert sorted(defined, key=lambda c: c.__name__) == sorted(
            module.EVENTS, key=lambda c: c.__name__
        )


def test_defining_an_event_registers_nothing():
    """``@event`` names a class; only ``register_events`` (the modes' install) makes a log
    able to hold it, so a class defined in passing (a test's, a script's) is never read."""
    from attrs import frozen

    from core.events import EVENT_TYPES
    from core.events.base import Event, event, register_events

    @event(version=1)
    @frozen
    class SomethingHappened(Event):
        what: str

    assert SomethingHappened.TAG == "SomethingHappened"
    assert "SomethingHappened" not in EVENT_TYPES
    with pytest.raises(ValueError, match="already used by GameStarted"):
        register_events(event(tag="GameStarted")(SomethingHappened))
    assert EVENT_TYPES["GameStarted"] is core.events.GameStarted


def test_a_fresh_process_reads_a_log_through_the_store_alone(tmp_path):
    """Reading a log needs the modes' events: the store installs them, so a script that
    imports nothing but the store reads a solo game's log."""
    from core import Game

    path = tmp_path / "solo.dmlog"
    Game.new(["Ada"], seed=3, mode="solo", log=path).close()
    code = (
        "import sys\n"
        "from core.store import load_batches\n"
        "print(type(load_batches(sys.argv[1])[1][0].events[-1]).__name__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(path)], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "MountainFilled"


def test_the_front_doors_example_runs(capsys):
    """The example at the top of ``core/__init__.py`` plays as it says."""
    doc = core.__doc__ or ""
    example = doc.split("\n\n", 1)[1].split("\n\nOne verb", 1)[0]
    code = "\n".join(line.removeprefix("    ") for line in example.splitlines())
    exec(compile(code, "core.__doc__", "exec"), {})
    assert capsys.readouterr().out.startswith("die_covered die ")
