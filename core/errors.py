"""The project's errors: one root, stable codes, messages a person understands.

``RuleError`` refuses a command; its ``code`` is stable (the web API returns it
as JSON, tests assert on it). ``LogError`` and its children report a log file
that cannot be trusted, always naming the file and, for damage, the byte offset
and record number.
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


class CommandSyntaxError(DiceMinerError, ValueError):
    """Text that does not parse as a command."""

    code = "bad_command"


class LogError(DiceMinerError):
    """A log file that cannot be read or written as asked."""

    code = "log_error"


class LogDamaged(LogError):
    """A log whose bytes are not what was written: never replayed silently."""

    code = "log_damaged"

    def __init__(self, path: str, offset: int, record: int, reason: str) -> None:
        super().__init__(f"{path}: damaged at byte {offset} (record {record}): {reason}")
        self.path = path
        self.offset = offset
        self.record = record
        self.reason = reason


class TornRecord(LogDamaged):
    """The final record is incomplete (a crash mid-append); it can be dropped on request."""

    code = "log_torn"


class LogVersionError(LogError):
    """A log written by a newer format version than this program reads."""

    code = "log_version"


class LogLocked(LogError):
    """Another writer holds the log."""

    code = "log_locked"


class LogConflict(LogError):
    """An append whose expected sequence number is no longer the log's next one."""

    code = "log_conflict"


class EventFormatError(DiceMinerError, ValueError):
    """A record whose bytes are intact but whose content is not a valid batch of events."""

    code = "bad_record"


class EventVersionError(EventFormatError):
    """An event written at a newer schema version than this program knows: upgrade."""

    code = "event_version"
