"""The ``dice-miner`` program's first lines: a server is gevent-patched before anything
else is imported.

gunicorn's gevent worker patches the standard library when it starts, but by then the
command line has imported much of it: a lock or a selector made at import time (the
process pool's, multiprocessing's) stays a real one, and a greenlet waiting on it stops
the whole worker (an analysis never finished). So ``dice-miner serve`` (not ``--debug``)
patches here, first of all, as gevent asks; the workers are forked from this process.
Tests calling ``frontends.cli.main.main`` in-process are never patched.
"""

from __future__ import annotations

import sys


def serves_on_gevent(argv: list[str]) -> bool:
    """True for the command lines that run gunicorn's gevent workers."""
    return argv[:1] == ["serve"] and not {"--debug", "-h", "--help"} & set(argv)


def main() -> int:
    """Run the ``dice-miner`` command line, patched first when it serves."""
    if serves_on_gevent(sys.argv[1:]):
        from gevent import monkey

        monkey.patch_all()
    from frontends.cli.main import main as run

    return run()


__all__ = ["main", "serves_on_gevent"]
