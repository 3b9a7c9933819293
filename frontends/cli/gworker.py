"""gunicorn's gevent worker, bounded for a public server: the worker ``serve`` runs.

Each connection is a greenlet, not a thread: an open event stream costs a few KB,
so one worker holds thousands of spectators. gunicorn already bounds a request's
head (its line and headers must arrive within ``keepalive`` seconds, else the
connection is closed, so headers sent a byte at a time hold nothing for long);
this worker bounds every read and write too: a client silent for ``IO_TIMEOUT``
seconds in the middle of its body (400), or a spectator that stops reading, is
dropped. Nothing CPU-bound may run on the event loop: a bot thinks in a real OS
thread of gevent's native pool (``core.host.thinking``) while only the greenlet
that asked waits; analyses run in processes of their own already.
"""

from __future__ import annotations

import sys
from typing import Any

from gunicorn.workers.ggevent import GeventWorker

from core import think_in

#: Seconds a connection may wait on one read or write before it is dropped.
IO_TIMEOUT = 20.0


class StreamsWorker(GeventWorker):
    """The gevent worker with a timeout on every socket read and write."""

    #: Seconds a connection may wait on one read or write (``serve --client-timeout``).
    io_timeout = IO_TIMEOUT

    def patch(self) -> None:
        if "psycopg" in sys.modules:  # it chose a blocking wait: every greenlet would hang
            raise RuntimeError(
                "psycopg was imported before gevent patched this worker; import it only in "
                "the worker (the arbiter shows URLs with core.store.pgurl)"
            )
        super().patch()

    def handle_request(self, listener_name, req, sock, addr) -> None:
        # The head was bounded already (keepalive); from here every read of the body and
        # every write of the answer is: GeventWorker would let either block forever.
        sock.settimeout(self.io_timeout)
        try:
            super().handle_request(listener_name, req, sock, addr)
        finally:
            sock.settimeout(None)  # the next head is bounded by gunicorn's keepalive again
        if getattr(getattr(req.body, "reader", None), "length", 0) > 0:
            # answered before its body came whole (a client gone silent mid-body, or a
            # refusal that did not read it): close, rather than wait to drain the rest
            raise StopIteration()

    def load_wsgi(self) -> None:
        think_in(in_native_thread)  # monkey-patched by now: threads here are greenlets
        super().load_wsgi()


def in_native_thread(fn, *args) -> Any:
    """``fn(*args)`` computed in a real OS thread; the calling greenlet waits, the loop runs."""
    from gevent import get_hub

    return get_hub().threadpool.apply(fn, args)


__all__ = ["IO_TIMEOUT", "StreamsWorker", "in_native_thread"]
