"""A throwaway PostgreSQL server for the tests and the benchmarks (no pytest needed here).

``PostgresServer.start()`` runs ``initdb`` into a temporary folder and ``pg_ctl
start`` on a free port of 127.0.0.1 (trust authentication, one superuser,
nothing reachable from elsewhere); ``stop()`` stops it and removes the folder.
PostgreSQL refuses to run as root, so when the tests run as root (as in CI) the
server runs as the ``postgres`` user (or ``nobody``) through ``runuser``, in a
folder that user owns.

``DICE_MINER_TEST_POSTGRES=postgresql://...`` names an existing database to use
instead: nothing is started, and each test works in a schema of its own there.

``start(in_memory=True)`` (the tests' cluster) puts the folder in ``/dev/shm`` when it has
room: each store's schema is many small files, and on this machine's disk 40 stores took
17 s to make against 6.8 s in memory, and removing the cluster 2.6 s (18 s after 150
stores) against 0.2 s. The server still fsyncs each commit; only a crash of the machine
itself would lose more, and no test crashes it. The benchmarks keep the default, a
folder on disk, as a real server has.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from urllib.parse import quote

from tests.support.ports import free_port

#: An existing database for the tests, instead of a throwaway cluster.
ENV_URL = "DICE_MINER_TEST_POSTGRES"
#: Where PostgreSQL's server programs are looked for (newest version first).
BIN_GLOBS = ("/usr/lib/postgresql/*/bin", "/usr/local/pgsql/bin")
#: The database the throwaway cluster's tests work in.
DATABASE = "dice_miner_test"
SUPERUSER = "postgres"

_schemas = itertools.count(1)


def find_bin_dir() -> str | None:
    """The folder holding ``initdb`` and ``pg_ctl``: ``PG_BIN`` if set, else Debian's
    folders (the newest version first), else the PATH's."""
    named = os.environ.get("PG_BIN")
    if named:  # the one place to look, when named
        candidates = [named]
    else:
        found = [d for pattern in BIN_GLOBS for d in glob.glob(pattern)]
        candidates = sorted(found, key=_version, reverse=True)
        initdb = shutil.which("initdb")
        if initdb:
            candidates.append(os.path.dirname(initdb))
    for folder in candidates:
        if all(os.access(os.path.join(folder, p), os.X_OK) for p in ("initdb", "pg_ctl")):
            return folder
    return None


def _version(folder: str) -> tuple[int, ...]:
    digits = "".join(c if c.isdigit() else " " for c in folder).split()
    return tuple(int(d) for d in digits)


def missing_reason() -> str | None:
    """Why no PostgreSQL can be had for the tests, or None if one can."""
    if os.environ.get(ENV_URL):
        return None
    if find_bin_dir() is None:
        return "its server programs (initdb, pg_ctl) are not installed (apt-get install postgresql)"
    if os.geteuid() == 0 and _unprivileged_user() is None:
        return "running as root with no 'postgres' or 'nobody' user to run the server as"
    return None


#: Memory-backed folder for the tests' cluster, and the room it must have left.
MEMORY_FOLDER = "/dev/shm"
MEMORY_ROOM = 1 << 30


def memory_folder() -> str | None:
    """``MEMORY_FOLDER`` if it is there, writable and has ``MEMORY_ROOM`` free; else None
    (the default temporary folder)."""
    try:
        found = os.statvfs(MEMORY_FOLDER)
    except OSError:
        return None
    if not os.access(MEMORY_FOLDER, os.W_OK) or found.f_bavail * found.f_frsize < MEMORY_ROOM:
        return None
    return MEMORY_FOLDER


def _unprivileged_user() -> str | None:
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    return None


class PostgresServer:
    """A PostgreSQL server for tests: a throwaway cluster, or the database ``ENV_URL`` names."""

    def __init__(self, base_url: str, *, folder: str | None = None, bin_dir: str | None = None):
        #: The database URL tests add a schema to (the superuser's, for a throwaway cluster).
        self.base_url = base_url
        self.folder = folder
        self.bin_dir = bin_dir
        self._user = _unprivileged_user() if os.geteuid() == 0 else None

    @property
    def throwaway(self) -> bool:
        """True for a cluster this process started (which may be stopped and restarted)."""
        return self.folder is not None

    @classmethod
    def start(cls, *, in_memory: bool = False) -> PostgresServer:
        """The database ``ENV_URL`` names, or a new cluster started in a temporary folder
        (in ``/dev/shm`` if ``in_memory`` and it has room)."""
        named = os.environ.get(ENV_URL)
        if named:
            return cls(named)
        bin_dir = find_bin_dir()
        if bin_dir is None:
            raise RuntimeError(missing_reason())
        folder = tempfile.mkdtemp(prefix="dm-pg-", dir=memory_folder() if in_memory else None)
        server = cls("", folder=folder, bin_dir=bin_dir)
        try:
            server._initdb()
            server._start_on_a_free_port()
            server._create_database()
        except BaseException:
            server.stop()
            raise
        return server

    # -- the cluster -------------------------------------------------------------------

    @property
    def data_dir(self) -> str:
        assert self.folder is not None
        return os.path.join(self.folder, "data")

    def _run(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess:
        assert self.bin_dir is not None
        command = [os.path.join(self.bin_dir, argv[0]), *argv[1:]]
        if self._user:
            command = ["runuser", "-u", self._user, "--", *command]
        return subprocess.run(
            command, check=check, capture_output=True, text=True, cwd=self.folder, timeout=60
        )

    def _initdb(self) -> None:
        assert self.folder is not None
        if self._user:
            entry = pwd.getpwnam(self._user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self._run(
            "initdb",
            "-D",
            self.data_dir,
            "-U",
            SUPERUSER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",  # a throwaway cluster; the server itself still fsyncs every commit
        )

    def _start_on_a_free_port(self) -> None:
        for attempt in range(5):
            self.port = free_port()
            try:
                self.start_again()
                break
            except subprocess.CalledProcessError:
                if attempt == 4:
                    raise
        self.base_url = f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{DATABASE}"

    def start_again(self) -> None:
        """Start the cluster (on its port, with its data), waiting until it takes connections."""
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} "
            f"-c unix_socket_directories='{self.folder}' -c max_connections=200 "
            "-c shared_buffers=32MB -c fsync=on -c synchronous_commit=on "
            "-c recovery_init_sync_method=syncfs"
        )
        log = os.path.join(self.folder or "", "server.log")
        self._run(
            "pg_ctl", "start", "-D", self.data_dir, "-w", "-t", "30", "-l", log, "-o", options
        )

    def stop_now(self) -> None:
        """Stop the server at once, as a crash would (``pg_ctl stop -m immediate``)."""
        self._run("pg_ctl", "stop", "-D", self.data_dir, "-m", "immediate", "-w")

    def _create_database(self) -> None:
        import psycopg

        admin = f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {DATABASE}")

    def stop(self) -> None:
        """Stop the throwaway cluster and remove its folder (nothing for a named database)."""
        if self.folder is None:
            return
        if os.path.exists(os.path.join(self.data_dir, "postmaster.pid")):
            self._run("pg_ctl", "stop", "-D", self.data_dir, "-m", "immediate", "-w", check=False)
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None

    # -- places for tests ----------------------------------------------------------------

    def fresh_schema(self) -> str:
        """The URL of a new, empty schema of the database: a store there starts from nothing."""
        import psycopg

        name = f"dm_{os.getpid()}_{next(_schemas)}_{int(time.time() * 1000) % 100000}"
        with psycopg.connect(self.base_url, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        return with_schema(self.base_url, name)


def with_schema(url: str, schema: str) -> str:
    """``url`` with its search path set to ``schema`` (psycopg reads ``options`` from the URL)."""
    joiner = "&" if "?" in url else "?"
    return f"{url}{joiner}options={quote(f'-csearch_path={schema}')}"


__all__ = [
    "ENV_URL",
    "PostgresServer",
    "find_bin_dir",
    "free_port",
    "memory_folder",
    "missing_reason",
    "with_schema",
]
