"""What-if branches: another log's first events, then the table's fact that the game was
branched from it, to be played on another way (``dice-miner branch``).

    game = branch_game(Path("game.dmlog").read_bytes(), at=37, luck="same")
    made = write_branch("game.dmlog", "what-if.dmlog", at=37, luck="fresh", seed=5)

**The prefix.** A branch's first ``at`` events are its parent's, record for record:
the parent's batch records are copied as they were read (byte for byte, old event
versions included), so ``at`` must be where a command's batch ends
(``branch_points``); anything else is refused naming the nearest ones. The
header is the parent's with one more key, ``"branch": {"parent": SHA-256 of the
parent log's bytes (hex), "at": at}``: ordinary logs never have it.

**The fact.** Then the table's command ``BranchGame`` and its event
``GameBranched`` (``core.modes.table.rules.branch_game``): from which log, after how
many events, with which luck, and where the dice come from now, so the log stays
the whole story and ``dice-miner log verify`` re-runs it like any game
(``core.verify``).

**Luck.** With the same luck every position of the branch rolls what the parent
rolled there: the fact is no step of the game (``core.projections.timeline``),
so each command stands at the depth, and rolls from the stream, that the
parent's command there did, from the same generator (the game's seed, an earlier
branch's, or the game's secret seed, which must have been revealed: a branch
logs it). An unchanged move brings the same dice, and so does the same bot's
choice (bots decide with the seed, the depth and the seat). With fresh luck the
dice come from a new seed, recorded in the fact (a fresh seed is no secret);
the bots still decide with the game's seed.

**Undo** stops at the branch point: the fact begins the branch's own history, so
the branch's first events stay its parent's, and no command before the point is
ever decided again with the branch's luck.
"""

from __future__ import annotations

import hashlib
import os
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from attrs import frozen

from core.commands import BranchGame
from core.errors import BranchError, LogError, RuleError
from core.events.codec import Batch
from core.game import Game, replay_stream
from core.modes.table.events import GameBranched
from core.store import MemoryStream, load_batches_bytes, write_log
from core.verify import provenance

#: The header key that names a branch's parent: ``{"parent": SHA-256 hex, "at": events}``.
HEADER_KEY = "branch"


@frozen
class Branched:
    """A branch written to a file: where, from which parent, and with what luck."""

    path: str
    parent: str  # SHA-256 of the parent log's bytes (hex)
    at: int
    luck: str
    seed: int | None  # where the dice come from after the branch (None: a revealed secret)
    records: int  # the parent's batch records kept


def branch_points(batches: Sequence[Batch]) -> list[int]:
    """The event counts a branch of these batches may keep: where each batch ends."""
    return [batch.end for batch in batches]


def kept_batches(batches: Sequence[Batch], at: int, name: str) -> int:
    """How many of the parent's batches a branch after its first ``at`` events keeps;
    ``BranchError`` naming the nearest branch points if ``at`` is not one."""
    points = branch_points(batches)
    end = points[-1]
    if type(at) is not int or at < 0:
        raise BranchError(f"{name}: a branch keeps a number of events, not {at!r}")
    if at > end:
        raise BranchError(f"{name}: holds {end} events: {at} is beyond its end (the last is {end})")
    index = bisect_left(points, at)
    if points[index] == at:
        return index + 1
    batch = batches[index]
    if index == 0:
        raise BranchError(
            f"{name}: a branch keeps at least the game's opening (events 0 to {batch.end - 1}): "
            f"the nearest branch point is {batch.end}"
        )
    raise BranchError(
        f"{name}: event {at} is inside the batch of events {batch.seq} to {batch.end - 1} "
        f"('{batch.command.text()}'): the nearest branch points are {batch.seq} and {batch.end}"
    )


def branch_game(
    data: bytes, at: int, luck: str, seed: int | None = None, *, name: str = "<log>"
) -> Game:
    """The branch of the log ``data`` after its first ``at`` events, in memory, its fact
    logged: a ``Game`` to play on (its ``export()`` is the branch's log file)."""
    scan, batches = load_batches_bytes(data, name=name)
    if not batches:
        raise LogError(f"{name}: the log holds no game (only its header)")
    kept = kept_batches(batches, at, name)
    parent = hashlib.sha256(data).hexdigest()
    header = {**scan.header, HEADER_KEY: {"parent": parent, "at": at}}
    prefix = batches[:kept]
    stream = MemoryStream.holding(header, scan.payloads[:kept], prefix)
    game = Game(stream, replay_stream(stream, prefix))
    facts = game.state.facts
    needs_secret = luck == "same" and facts.commitment and not facts.branches
    secret = provenance(batches).secret if needs_secret else ""  # "" if never revealed
    try:
        game.issue(BranchGame(parent, at, luck, seed, secret))
    except RuleError as exc:
        raise BranchError(f"{name}: cannot branch at event {at}: {exc.message}", exc.code) from None
    return game


def write_branch(
    parent: str | os.PathLike[str],
    out: str | os.PathLike[str],
    at: int,
    luck: str,
    seed: int | None = None,
    *,
    sync: bool = True,
) -> Branched:
    """Write the branch of the log ``parent`` to the new log ``out`` (created whole, as a
    new game's log is: never over an existing file)."""
    name = os.fspath(parent)
    try:
        data = Path(parent).read_bytes()
    except IsADirectoryError:
        raise LogError(f"{name}: is a directory, not a log") from None
    except OSError as exc:
        raise LogError(f"{name}: cannot read log ({exc.strerror or exc})") from None
    game = branch_game(data, at, luck, seed, name=name)
    payloads = game.stream.payloads()
    header = {k: v for k, v in game.header.items() if k != "format"}
    write_log(out, header, payloads, sync=sync)
    facts = game.state.facts
    sha = game.header[HEADER_KEY]["parent"]
    return Branched(os.fspath(out), sha, at, luck, facts.branch_seed, len(payloads) - 1)


def branch_facts(batches: Sequence[Batch]) -> list[tuple[int, GameBranched]]:
    """Every branch fact of a log, with its seq, oldest first (a branch of a branch
    whose parent was already a branch there has two)."""
    return [
        (batch.seq + i, event)
        for batch in batches
        for i, event in enumerate(batch.events)
        if isinstance(event, GameBranched)
    ]


def branch_problems(header: Mapping[str, Any], batches: Sequence[Batch]) -> list[str]:
    """What is wrong with a log's branch facts and its header's ``"branch"`` key (nothing
    for a log that is no branch): the header names the last fact's parent and point,
    and each fact stands where it says the parent's events end."""
    facts = branch_facts(batches)
    problems = [
        f"the branch fact at event {seq} says the parent's events end at {fact.at}"
        for seq, fact in facts
        if fact.at != seq
    ]
    named = header.get(HEADER_KEY)
    if not facts:
        if named is not None:
            problems.append(f"the header names a parent ({named!r}) but no branch fact does")
        return problems
    _, last = facts[-1]
    expected = {"parent": last.parent, "at": last.at}
    if named != expected:
        problems.append(f"the header's branch is {named!r}, its last branch fact's {expected!r}")
    return problems


__all__ = [
    "HEADER_KEY",
    "Branched",
    "branch_facts",
    "branch_game",
    "branch_points",
    "branch_problems",
    "kept_batches",
    "write_branch",
]
