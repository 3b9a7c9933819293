"""The replay library: the logs in the replays directory and uploaded ones, each ready to seek.

A ``Replay`` reads its log once: the event records in words (``walk``), the
players' totals through the game (for the chart) and a snapshot of the
timeline every ``SNAPSHOT_EVERY`` events (``core.projections.snapshots``). The
state at any position is then the nearest snapshot at or before it plus at most
a few events folded, so seeking anywhere in a long game costs the same as one
step. Timelines are immutable and share structure, so keeping snapshots is cheap.

Only names the library itself lists can be opened: a file name found in the
replays directory, or the id an upload was given. Nothing a client sends is
ever joined to a path.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from core import (
    SNAPSHOT_EVERY,
    Batch,
    GameState,
    LogDamaged,
    LogError,
    LogScan,
    SnapshotIndex,
    UnreplayableBatch,
    load_batches,
    load_batches_bytes,
    walk,
)
from frontends.web.errors import without_paths
from frontends.web.lastmove import LastMove, Marks
from frontends.web.readmodel import ScoreSeries, boards_of, pack_boards, page_record
from frontends.web.standings import result_of

#: Log files a replay directory's listing considers.
LOG_SUFFIX = ".dmlog"
#: Prefix of the names uploads are known by (no file in the directory can be confused with one).
UPLOAD_PREFIX = "upload-"
#: How a finished live game is named in the viewer: its log's file name, ``web-ID.dmlog``.
GAME_NAME = re.compile(r"web-(?P<id>[A-Za-z0-9_-]{1,64})\.dmlog")


class ReplayNotFound(LookupError):
    """A replay name the library does not list."""


class Replay:
    """One logged game, with its event records, score series and timeline snapshots."""

    def __init__(
        self,
        name: str,
        scan: LogScan,
        batches: list[Batch],
        source: str,
        *,
        path: Path | None = None,
        data: bytes | None = None,
    ) -> None:
        if not batches:
            raise LogError(f"{name}: the log holds no game (only its header)")
        self.name = name
        self.source = source  # "file", "upload" or "game" (a game of the server's store, over)
        self.path = path  # the file in the replays folder (None: an upload, a live game's)
        self._data = data  # the log's bytes, when it is not a file
        self._sha256: str | None = None
        self.header = scan.header
        self.batches = batches
        self.total = batches[-1].end
        try:
            self._index = SnapshotIndex(batches, SNAPSHOT_EVERY)
        except UnreplayableBatch as exc:  # a record that passed its checksum but cannot be replayed
            index = exc.index
            offset = scan.offsets[index] if index < len(scan.offsets) else 0
            reason = f"cannot be replayed ({exc.cause})"
            raise LogDamaged(scan.path, offset, index + 1, reason) from exc.cause
        self.final: GameState = self._index.final.state
        self.names = list(self.final.names)
        self._pack: dict[str, Any] | None = None
        self._pack_lock = threading.Lock()
        self.records: list[dict[str, Any]] = []
        self.scores = ScoreSeries()
        self.marks: list[Marks | None] = []  # what the board marks after each event
        last_move = LastMove()
        for step in walk(batches):
            record = page_record(step)
            self.marks.append(last_move.after(record))
            self.records.append(record)
            self.scores.add(step.seq, step.event, step.after)
            if step.undone:
                self.scores.unmark(range(step.seq, step.seq + 1))

    def state_at(self, position: int) -> GameState:
        """The state after the first ``position`` events (1 to ``total``)."""
        if not 1 <= position <= self.total:
            raise ValueError(f"position {position} is outside 1..{self.total}")
        return self._index.state_at(position)

    @property
    def data(self) -> bytes:
        """The log's bytes (a file's read again: what ``dice-miner analyse`` hashes)."""
        if self._data is not None:
            return self._data
        assert self.path is not None
        return self.path.read_bytes()

    @property
    def sha256(self) -> str:
        """The SHA-256 of the log's bytes, in hex: what names its analysis."""
        if self._sha256 is None:
            self._sha256 = hashlib.sha256(self.data).hexdigest()
        return self._sha256

    def boards(self) -> dict[str, Any]:
        """Every board of the game, packed (``readmodel.pack_boards``): made on first asking,
        then kept, so the viewer holds the whole game as lichess holds the moves."""
        with self._pack_lock:
            if self._pack is None:
                self._pack = {"from": 1, **pack_boards(boards_of(self.batches))}
            return self._pack

    def summary(self) -> dict[str, Any]:
        """What the viewer needs before the first state: players, length, the chart's data."""
        header = self.header
        return {
            "name": self.name,
            "source": self.source,
            "mode": header.get("mode"),
            "players": self.names,
            "seed": header.get("seed"),
            "game_id": header.get("game_id"),
            "dice_set": header.get("dice_set"),
            "rules": header.get("rules"),
            "events": self.total,
            "branch": self.header.get("branch"),  # {"parent": SHA-256, "at": N}, or None
            "over": self.final.is_over,
            "winners": [self.names[s] for s in self.final.winners],
            "totals": list(self.final.totals()),
            "scores": self.scores.data(),
        }


def _file_key(path: Path) -> tuple[str, int, int]:
    st = path.stat()
    return (str(path), st.st_mtime_ns, st.st_size)


#: How many of a client's uploads the list names, and how many clients' lists are kept.
UPLOADS_LISTED = 10
UPLOADERS_KEPT = 1000

#: The bytes of uploaded logs kept in memory between them: 16 uploads of 2 MB logs once
#: took a server from 40 to 479 MB (a replay holds its states, ~12 times its log's size).
UPLOAD_BYTES = 4 * 1024 * 1024


class ReplayLibrary:
    """The replays directory's logs (cached by path and mtime) and recent uploads (in memory)."""

    def __init__(
        self,
        folder: str | os.PathLike,
        *,
        cache_size: int = 16,
        uploads: int = 16,
        upload_bytes: int = UPLOAD_BYTES,
    ):
        self.folder = Path(folder)
        #: The uploads kept hold at most this many bytes of logs between them (the newest
        #: is always kept): a replay in memory takes about a dozen times its log's size.
        self._upload_bytes = upload_bytes
        self._cache: OrderedDict[tuple, Replay] = OrderedDict()
        self._uploads: OrderedDict[str, Replay] = OrderedDict()
        self._games: OrderedDict[str, tuple[str, Replay]] = OrderedDict()
        #: Each client's uploads, newest last (names; only those still kept are listed).
        self._uploaders: OrderedDict[str, list[tuple[str, str]]] = OrderedDict()
        self._cache_size = cache_size
        self._upload_size = uploads
        self._lock = threading.Lock()

    def files(self) -> dict[str, Path]:
        """The log files in the replays directory, by name (the only names served from it)."""
        if not self.folder.is_dir():
            return {}
        return {
            p.name: p
            for p in sorted(self.folder.iterdir())
            if p.name.endswith(LOG_SUFFIX) and p.is_file()
        }

    def listing(self) -> list[dict[str, Any]]:
        """Every log of the directory with its players and length (or why it cannot be read)."""
        found = []
        for name, path in self.files().items():
            entry: dict[str, Any] = {"name": name, "source": "file", "size": path.stat().st_size}
            try:
                replay = self._load_file(name, path)
            except (LogError, ValueError) as exc:
                entry["error"] = without_paths(str(exc))
            else:
                entry.update(
                    mode=replay.header.get("mode"),
                    players=replay.names,
                    events=replay.total,
                    over=replay.final.is_over,
                    winners=[replay.names[s] for s in replay.final.winners],
                    result=result_of(replay.final),
                )
                branch = replay.header.get("branch")
                if isinstance(branch, dict):  # a what-if branch: where it parted
                    entry["branch"] = {"at": branch.get("at")}
            found.append(entry)
        return found

    def folder_replays(self) -> list[Replay]:
        """The replays folder's logs that read well (cached as the listing's are)."""
        found = []
        for name, path in self.files().items():
            try:
                found.append(self._load_file(name, path))
            except (LogError, ValueError, OSError):
                continue  # the listing names what is wrong with it
        return found

    def kept(self) -> list[Replay]:
        """The replays held in memory: uploads, and finished live or stored games viewed."""
        with self._lock:
            return [*self._uploads.values(), *(replay for _, replay in self._games.values())]

    def get(self, name: str) -> Replay:
        """The replay listed under ``name``; ``ReplayNotFound`` for any other name."""
        if name.startswith(UPLOAD_PREFIX):
            with self._lock:
                replay = self._uploads.get(name)
                if replay is None:
                    raise ReplayNotFound(name)
                self._uploads.move_to_end(name)
                return replay
        path = self.files().get(name)
        if path is None:
            raise ReplayNotFound(name)
        return self._load_file(name, path)

    def _load_file(self, name: str, path: Path) -> Replay:
        key = _file_key(path)
        with self._lock:
            replay = self._cache.get(key)
            if replay is not None:
                self._cache.move_to_end(key)
                return replay
        scan, batches = load_batches(path)
        replay = Replay(name, scan, batches, "file", path=path)
        with self._lock:
            self._cache[key] = replay
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return replay

    def game(self, name: str, data: bytes) -> Replay:
        """A finished game of the server's store (its bytes, ``name`` its file name
        ``web-ID.dmlog``), kept in memory as uploads are; read again only if its bytes
        changed (a solo game whose seed was chosen can be undone after its end)."""
        digest = hashlib.sha256(data).hexdigest()
        with self._lock:
            kept = self._games.get(name)
            if kept is not None and kept[0] == digest:
                self._games.move_to_end(name)
                return kept[1]
        scan, batches = load_batches_bytes(data, name=name)
        replay = Replay(name, scan, batches, "game", data=data)
        with self._lock:
            self._games[name] = (digest, replay)
            self._games.move_to_end(name)
            while len(self._games) > self._upload_size:
                self._games.popitem(last=False)
        return replay

    def upload(self, data: bytes, filename: str = "upload", client: str | None = None) -> Replay:
        """Read an uploaded log; damage raises ``LogDamaged`` with the offset, nothing is kept.
        ``client`` (an address) finds it again in ``uploads_of`` once its URL is lost."""
        digest = hashlib.sha256(data).hexdigest()[:16]
        name = f"{UPLOAD_PREFIX}{digest}"
        with self._lock:
            if name in self._uploads:
                self._uploads.move_to_end(name)
                self._note_uploader(client, name, filename)
                return self._uploads[name]
        scan, batches = load_batches_bytes(data, name=filename)
        replay = Replay(name, scan, batches, "upload", data=data)
        with self._lock:
            self._uploads[name] = replay
            while len(self._uploads) > 1 and (
                len(self._uploads) > self._upload_size or self._kept_bytes() > self._upload_bytes
            ):
                self._uploads.popitem(last=False)
            self._note_uploader(client, name, filename)
        return replay

    def _note_uploader(self, client: str | None, name: str, filename: str) -> None:
        """Remember ``client``'s upload (the lock is held): the newest few of the last
        clients, so no client fills the memory."""
        if client is None:
            return
        mine = [(n, f) for n, f in self._uploaders.pop(client, []) if n != name]
        self._uploaders[client] = [*mine, (name, filename[:100])][-UPLOADS_LISTED:]
        while len(self._uploaders) > UPLOADERS_KEPT:
            self._uploaders.popitem(last=False)

    def uploads_of(self, client: str | None) -> list[dict[str, Any]]:
        """The uploads of ``client`` still kept, newest first, as the replay list shows them."""
        with self._lock:
            mine = list(self._uploaders.get(client, [])) if client is not None else []
            kept = [(self._uploads[n], f) for n, f in reversed(mine) if n in self._uploads]
        return [
            {
                "name": replay.name,
                "source": "upload",
                "filename": filename,
                "mode": replay.header.get("mode"),
                "players": replay.names,
                "events": replay.total,
                "over": replay.final.is_over,
                "winners": [replay.names[s] for s in replay.final.winners],
                "result": result_of(replay.final),
            }
            for replay, filename in kept
        ]

    def _kept_bytes(self) -> int:
        return sum(len(replay.data) for replay in self._uploads.values())


__all__ = ["GAME_NAME", "SNAPSHOT_EVERY", "Replay", "ReplayLibrary", "ReplayNotFound"]
