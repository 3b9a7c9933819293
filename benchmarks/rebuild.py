"""Rebuilding games from their logs, against the floor of merely decoding the same files.

* floor: read each file and ``msgpack.unpackb`` every record (frames found by
  their length field, nothing checked, nothing built): what any reader of these
  files must pay at least;
* rebuild: ``Game.load(path).state`` for each file, the real path: read,
  verify every checksum, decode each batch into event objects (strict types,
  upcasting), fold them through the timeline into the final state.

Both are timed on the same files, a few at a time, back to back, each repeated;
the ratio is best against best (median against median is shown beside it).
"""

from __future__ import annotations

import os
import struct

import msgpack

from benchmarks.timing import best, median, runs
from core.game import Game
from core.log.framing import FRAME_HEADER_SIZE, FRAME_OVERHEAD, PREAMBLE_SIZE

_U32 = struct.Struct("<I")


def log_files(folder: str) -> list[str]:
    """The log files in ``folder``, sorted."""
    return sorted(
        os.path.join(folder, name) for name in os.listdir(folder) if name.endswith(".dmlog")
    )


def decode_plain(path: str) -> list:
    """Every record of a log decoded with plain msgpack (no checks, no event objects)."""
    with open(path, "rb") as f:
        data = f.read()
    view, pos, size = memoryview(data), PREAMBLE_SIZE, len(data)
    unpackb, unpack_u32 = msgpack.unpackb, _U32.unpack_from
    records = []
    while pos < size:
        (length,) = unpack_u32(view, pos)
        start = pos + FRAME_HEADER_SIZE
        records.append(unpackb(view[start : start + length]))
        pos += length + FRAME_OVERHEAD
    return records


def rebuild(paths: list[str], repeat: int, chunk: int = 20) -> dict:
    """Time the floor and the rebuild over ``paths``, ``repeat`` times each.

    The files are taken ``chunk`` at a time, floor and rebuild back to back, and
    each chunk keeps its best time of each: a burst of load from another job then
    spoils one chunk's run, not a whole pass.
    """

    def floor_all(group: list[str]) -> None:
        for path in group:
            decode_plain(path)

    def rebuild_all(group: list[str]) -> None:
        for path in group:
            Game.load(path).state  # noqa: B018  (the state is what is being rebuilt)

    groups = [paths[i : i + chunk] for i in range(0, len(paths), chunk)]
    floor_best, rebuild_best = [], []
    floor_runs: list[float] = []
    rebuild_runs: list[float] = []
    for group in groups:
        floors, rebuilds = [], []
        for _ in range(repeat):
            floors += runs(lambda g=group: floor_all(g), 1)
            rebuilds += runs(lambda g=group: rebuild_all(g), 1)
        floor_best.append(best(floors))
        rebuild_best.append(best(rebuilds))
        floor_runs.append(median(floors))
        rebuild_runs.append(median(rebuilds))
    floor_s, rebuild_s = sum(floor_best), sum(rebuild_best)
    return {
        "logs": len(paths),
        "floor_s": round(floor_s, 4),
        "rebuild_s": round(rebuild_s, 4),
        "ratio": round(rebuild_s / floor_s, 2),
        "ratio_median": round(sum(rebuild_runs) / sum(floor_runs), 2),
    }
