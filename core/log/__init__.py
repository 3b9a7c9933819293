"""The append-only log file: checksummed frames on disk, one writer, explicit repair.

``framing`` is the byte format (pure, no I/O); ``file`` puts it on disk. The
format itself is documented in ``docs/reference/log-format.md``.
"""

from core.log.file import LogWriter, RepairResult, follow_log, read_log, repair_log
from core.log.framing import FORMAT_VERSION, MAX_HEADER, MAX_PAYLOAD, LogScan, read_log_bytes

__all__ = [
    "FORMAT_VERSION",
    "MAX_HEADER",
    "MAX_PAYLOAD",
    "LogScan",
    "LogWriter",
    "RepairResult",
    "follow_log",
    "read_log",
    "read_log_bytes",
    "repair_log",
]
