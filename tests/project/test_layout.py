"""The tests' own layout: every test module sits in a layer's folder, every folder is a
package, and no module imports a test module (shared helpers live in ``tests/support``).

A test module imported by another runs its module-level code twice under two names and
ties the two files together; the flat folder once had 22 such imports."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def imported_modules(source: str, package: str) -> set[str]:
    """The dotted names a module's source imports, anywhere in it (relative ones resolved
    against ``package``, the dotted package the module is in)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def imports_of_test_modules(source: str, package: str = "tests.web") -> set[str]:
    """The test modules among what ``source`` imports."""
    return {
        name
        for name in imported_modules(source, package)
        if any(part.startswith("test_") for part in name.split("."))
    }


def python_files() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if "data" not in p.relative_to(TESTS).parts)


def test_no_module_of_the_tests_imports_a_test_module():
    offenders = {}
    for path in python_files():
        package = ".".join(path.relative_to(TESTS.parent).parent.parts)
        imported = imports_of_test_modules(path.read_text(encoding="utf-8"), package)
        if imported:
            offenders[str(path.relative_to(TESTS.parent))] = sorted(imported)
    assert not offenders, f"move what these share into tests/support: {offenders}"


def test_the_check_finds_every_form_of_such_an_import():
    source = (
        "import tests.core.test_game\n"
        "from tests.cli.test_tui_app import running\n"
        "from .test_games import client\n"
        "from . import test_stream\n"
        "def helper():\n"
        "    from tests.test_flat import thing\n"
        "from tests.support.web_support import make_app\n"
    )
    assert imports_of_test_modules(source, "tests.web") == {
        "tests.core.test_game",
        "tests.cli.test_tui_app",
        "tests.cli.test_tui_app.running",
        "tests.web.test_games",
        "tests.web.test_games.client",
        "tests.web.test_stream",
        "tests.test_flat",
        "tests.test_flat.thing",
    }


def test_every_test_module_is_in_a_layers_folder_and_every_folder_a_package():
    flat = sorted(p.name for p in TESTS.glob("test_*.py"))
    assert not flat, f"put these in a layer's folder (tests/core, tests/web, ...): {flat}"
    folders = {p.parent for p in python_files()}
    missing = sorted(
        str(f.relative_to(TESTS.parent)) for f in folders if not (f / "__init__.py").exists()
    )
    assert not missing, f"these folders need an __init__.py: {missing}"
