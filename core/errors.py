"""The project's errors: one root, stable codes, messages a person understands.

``RuleError`` refuses a command; its ``code`` is stable (the web API returns it
as JSON, tests assert on it). ``StoreError`` and its children are what any
store (memory, file, database) raises, so a caller never needs to know where
a game's batches live: a conflict is a ``StoreConflict`` in every store, damage
a ``GameDamaged`` that names where it is. ``LogError`` and its children are the
file store's own reports, always naming the file and, for damage, the byte
offset and record number.
"""

from __future__ import annotations


class DiceMinerError(Exception):
    """The root of every error the engine raises on purpose."""


class RuleError(DiceMinerError, ValueError):
    """A command the rules refuse. Nothing was changed and nothing was written."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r})"


class SetupError(DiceMinerError, ValueError):
    """Options that cannot make a game or a table (bad seats, names, mode or seed);
    ``code`` says which, for a client (``bad_setup`` unless a finer one is given)."""

    code = "bad_setup"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class BranchError(DiceMinerError, ValueError):
    """A what-if branch that cannot be taken where or how it was asked (``core.branch``):
    nothing was written. ``code`` is the rule's when the rules refused the branch."""

    def __init__(self, message: str, code: str = "bad_branch") -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class StaleCommand(DiceMinerError):
    """A command made against a position the game has moved on from (another move came first).

    Nothing was changed; ``seq`` is the game's position now, to decide again from.
    """

    code = "stale_state"

    def __init__(self, message: str, seq: int) -> None:
        super().__init__(message)
        self.message = message
        self.seq = seq


class CommandSyntaxError(DiceMinerError, ValueError):
    """Text that does not parse as a command."""

    code = "bad_command"


class StoreError(DiceMinerError):
    """A store could not do what was asked (whichever store it is)."""

    code = "store_error"


class StoreConflict(StoreError):
    """An append whose first seq is no longer the game's next one: another writer was first.

    Nothing was written. ``expected`` is the seq the append was made against,
    ``actual`` the game's next seq (when the store knows it).
    """

    code = "conflict"

    def __init__(self, message: str, expected: int | None = None, actual: int | None = None):
        super().__init__(message)
        self.expected = expected
        self.actual = actual


class GameNotFound(StoreError):
    """The store holds no game with this id."""

    code = "unknown_game"


class GameExists(StoreError):
    """A game with this id is already stored: a new game never replaces one."""

    code = "game_exists"


class GameBusy(StoreError):
    """Another writer holds the game, and this store allows only one."""

    code = "game_busy"


class StoreUnavailable(StoreError):
    """The store cannot be reached now (a database down, a disk gone); try again later."""

    code = "store_unavailable"


class GameDamaged(StoreError):
    """Stored batches that are not what was written: never replayed silently.

    ``where`` names the place (a file and byte offset, a database row), ``record``
    the batch record (the first batch is 1), ``reason`` what is wrong.
    """

    code = "log_damaged"

    def __init__(self, where: str, record: int, reason: str, *, message: str | None = None):
        super().__init__(message or f"{where}: damaged (record {record}): {reason}")
        self.where = where
        self.record = record
        self.reason = reason


class LogError(StoreError):
    """A log file that cannot be read or written as asked."""

    code = "log_error"


class LogDamaged(LogError, GameDamaged):
    """A log whose bytes are not what was written: never replayed silently."""

    code = "log_damaged"

    def __init__(self, path: str, offset: int, record: int, reason: str) -> None:
        message = f"{path}: damaged at byte {offset} (record {record}): {reason}"
        GameDamaged.__init__(self, f"{path}: byte {offset}", record, reason, message=message)
        self.path = path
        self.offset = offset


class TornRecord(LogDamaged):
    """The final record is incomplete (a crash mid-append); it can be dropped on request."""

    code = "log_torn"


class LogChanged(LogError):
    """The log was changed under its writer (replaced by a rename, removed, or appended to
    by another program): the writer appends nothing more, lest events be lost or mixed."""

    code = "log_changed"


class LogVersionError(LogError):
    """A log written by a newer format version than this program reads."""

    code = "log_version"


class LogLocked(LogError, GameBusy):
    """Another writer holds the log."""

    code = "log_locked"


#: The name this error had before stores were store-neutral.
LogConflict = StoreConflict


class EventFormatError(DiceMinerError, ValueError):
    """A record whose bytes are intact but whose content is not a valid batch of events."""

    code = "bad_record"


class EventVersionError(EventFormatError):
    """An event written at a newer schema version than this program knows: upgrade."""

    code = "event_version"
