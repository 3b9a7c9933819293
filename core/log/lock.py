"""The writer lock: an exclusive ``flock`` on the log file itself, whatever its name.

A lock kept in a sidecar file (``<path>.lock``) is keyed on the name a caller
used: a symlink or a hard link to the log, or a deleted lock file, gives a
second writer. So the lock is taken on the log's own open file description. It
belongs to the file (the inode): every name for the file leads to it, nothing is
left beside the log, and it dies with its process. Readers never lock.

The holder is named from ``/proc/locks`` (Linux), which lists each ``flock``
with its process id and its file's device and inode; elsewhere, or when the
holder has just let go, the error says the holder is unknown.
"""

from __future__ import annotations

import fcntl
import os
import socket

from core.errors import LogError, LogLocked

#: Where Linux lists the locks held on this machine.
PROC_LOCKS = "/proc/locks"


#: Times the lock is tried again when its holder is not listed: it may just have let go.
TRIES = 3


def lock(fd: int, name: str, *, doing: str = "written") -> None:
    """Take the exclusive lock on the open file ``fd`` without waiting.

    Raises ``LogLocked`` ("``name`` is being ``doing`` by ...", naming the holder)
    if another open file description holds it, in this process or another. A
    holder that is gone by the time it is looked up has let go: the lock is
    tried again, so a refusal names its holder whenever the system lists it.
    """
    for _ in range(TRIES):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pid = holder_pid(fd)
            if pid is not None:
                break
        except OSError as exc:
            raise LogError(f"{name}: cannot lock the log ({exc.strerror or exc})") from exc
    raise LogLocked(f"{name} is being {doing} by {describe_holder(pid)}")


def describe_holder(pid: int | None) -> str:
    """The holder in words: ``another process (pid=N host=H)``."""
    if pid is None:
        return "another writer (holder unknown)"
    who = "another writer in this process" if pid == os.getpid() else "another process"
    return f"{who} (pid={pid} host={socket.gethostname()})"


def holder_pid(fd: int) -> int | None:
    """The id of the process holding a ``flock`` on ``fd``'s file, if ``/proc/locks`` says.

    Its lines read ``1: FLOCK  ADVISORY  WRITE 1234 fe:00:5333794 0 EOF``: the
    pid, then the device (major:minor, in hex) and the inode. A waiter's line
    has ``->`` after the number, so its fields do not line up and it is skipped.
    """
    st = os.fstat(fd)
    key = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    try:
        with open(PROC_LOCKS, encoding="ascii", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in lines:
        fields = line.split()
        if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == key:
            pid = int(fields[4]) if fields[4].isdigit() else 0
            return pid or None  # 0: a holder outside this pid namespace
    return None
