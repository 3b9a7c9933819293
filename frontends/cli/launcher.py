"""The command a hint should name: the one that works from where the user stands.

Installed, the program is ``dice-miner``. Run through the repository's ``./play``
wrapper, ``dice-miner`` is usually not on the PATH, so a hint such as "continue
it with ..." must name the wrapper instead. The wrapper says how it was started
in the environment variable ``DICE_MINER_PROG`` (``./play``, or the path it was
typed as); without it, the program was run as ``dice-miner``. The wrapper starts
the terminal game when given options alone, so ``dice-miner play --resume LOG``
is ``./play --resume LOG`` there.
"""

from __future__ import annotations

import os
import shlex

#: Set by ``./play`` to the path it was started by.
PROG_VARIABLE = "DICE_MINER_PROG"
INSTALLED = "dice-miner"


def command(*words: str | os.PathLike[str]) -> str:
    """``dice-miner WORDS`` as the user would type it here, quoted for a shell."""
    args = [os.fspath(w) for w in words]
    prog = os.environ.get(PROG_VARIABLE, "").strip()
    if not prog:
        return shlex.join([INSTALLED, *args])
    if args[:1] == ["play"] and (len(args) == 1 or args[1].startswith("-")):
        args = args[1:]  # the wrapper's own shorthand: nothing, or options alone, start a game
    return shlex.join([prog, *args])
