"""A log's what-if family as the server sees it: the branches taken from it, and the log it
was branched from, among the replays folder, the uploads and the games of its store.

A branch's header names its parent by the SHA-256 of the parent log's bytes, and
where it parted (``{"branch": {"parent", "at"}}``, ``core.branch``). So:

* **the branches of a log** are the logs whose header names its SHA-256: headers
  only, which the folder's replays (already read for the listing), the ones held
  in memory and the store's catalogue all have at hand; a stored branch's ending
  is decided as the listing decides it (``frontends.web.stored``).
* **the parent of a branch** is among the logs of the same game id (a branch keeps
  its parent's in its header): only those are hashed, a stored one's hash kept for
  its event count, so the store is never read whole to find a parent.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from attrs import frozen

from core import GameNotFound
from frontends.web.replays import Replay, ReplayLibrary
from frontends.web.stored import StoredGames, branch_of, stored_name


@frozen
class Relative:
    """A log of the family: its name in the viewer, where it is, and where to open it."""

    name: str
    source: str  # "file", "upload", "game" (the server's, in memory) or "store"
    header: Mapping[str, Any]
    over: bool
    link: str | None  # the viewer for a finished game (or any log of the folder or an upload),
    # the game page for one being played here; None if neither can open it

    def as_json(self, at: int | None = None) -> dict[str, Any]:
        """The relative as the viewer lists it (``at``: its branch point, or the parent's)."""
        players = self.header.get("players")
        answer: dict[str, Any] = {
            "name": self.name,
            "source": self.source,
            "players": [str(p) for p in players] if isinstance(players, list) else [],
            "over": self.over,
            "link": self.link,
        }
        if at is not None:
            answer["at"] = at
            if self.link is not None and self.link.startswith("/replay/"):
                answer["link"] = f"{self.link}?at={at}"
        return answer


class Family:
    """Finds a log's branches and its parent among what this server can open."""

    def __init__(self, library: ReplayLibrary, stored: StoredGames) -> None:
        self.library = library
        self.stored = stored

    def _replays(self) -> Iterator[Replay]:
        """The folder's logs, then those held in memory (uploads, the store's games viewed)."""
        yield from self.library.folder_replays()
        yield from self.library.kept()

    @staticmethod
    def _of_replay(replay: Replay) -> Relative:
        return Relative(
            replay.name,
            replay.source,
            replay.header,
            replay.final.is_over,
            f"/replay/{replay.name}",
        )

    def _of_store(self, game_id: str, header: Mapping[str, Any], over: bool) -> Relative:
        if over:
            link: str | None = f"/replay/{stored_name(game_id)}"
        elif self.stored.held(game_id) is not None or self._seated(game_id):
            link = f"/games/{game_id}"  # the game page takes it up if this server has not
        else:
            link = None  # unfinished, and no one can play it here (no seats kept beside it)
        return Relative(stored_name(game_id), "store", header, over, link)

    def _seated(self, game_id: str) -> bool:
        """True if the store keeps seats beside the game (so its page can take it up)."""
        try:
            return self.stored.store.seating(game_id) is not None
        except (GameNotFound, ValueError):
            return False

    def branches(self, sha256: str) -> list[dict[str, Any]]:
        """The logs branched from the log whose SHA-256 this is, by branch point then name."""
        found: dict[str, dict[str, Any]] = {}
        for replay in self._replays():
            named = branch_of(replay.header)
            if named is not None and named[0] == sha256 and replay.name not in found:
                found[replay.name] = self._of_replay(replay).as_json(named[1])
        for entry in self.stored.store.games():
            named = branch_of(entry.header) if entry.problem is None else None
            if named is None or named[0] != sha256 or stored_name(entry.game_id) in found:
                continue
            ending = self.stored.ending_or_none(entry)
            if ending is None:
                continue  # damaged: its name in the list would open only an error
            found[stored_name(entry.game_id)] = self._of_store(
                entry.game_id, entry.header, ending.over
            ).as_json(named[1])
        return sorted(found.values(), key=lambda b: (b["at"], b["name"]))

    def parent(self, header: Mapping[str, Any], name: str | None = None) -> dict[str, Any] | None:
        """The log a branch (its header) was taken from, with its branch point: its name and
        link if the server has it (``name``: the branch's own, never its parent), else only
        its SHA-256. None for a log that is no branch."""
        named = branch_of(header)
        if named is None:
            return None
        sha256, at = named
        answer: dict[str, Any] = {"sha256": sha256, "at": at, "name": None, "link": None}
        game_id = header.get("game_id")
        for replay in self._replays():
            same_game = replay.name != name and replay.header.get("game_id") == game_id
            if same_game and replay.sha256 == sha256:
                return {**answer, **self._of_replay(replay).as_json(at)}
        for entry in self.stored.store.games():
            if entry.problem is not None or entry.header.get("game_id") != game_id:
                continue
            if stored_name(entry.game_id) == name:
                continue
            ending = self.stored.ending_or_none(entry)
            if ending is not None and self.stored.sha256(entry) == sha256:
                relative = self._of_store(entry.game_id, entry.header, ending.over)
                return {**answer, **relative.as_json(at)}
        return answer


__all__ = ["Family", "Relative"]
