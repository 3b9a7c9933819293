"""Loopback ports for the servers the tests start."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A TCP port of 127.0.0.1 nothing listens on now (for a server to be started, or
    restarted, on it)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
