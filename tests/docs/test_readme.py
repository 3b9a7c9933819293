"""The README's examples run as they are written."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def test_readme_has_an_api_example():
    assert python_blocks(), "the README shows the Python API"


def test_readme_python_examples_run(capsys):
    for block in python_blocks():
        exec(compile(block, str(README), "exec"), {})
    out = capsys.readouterr().out
    assert "die_covered" in out
