"""A real TCP proxy in front of a test server, to lose answers and cut streams on purpose.

The terminal client must survive a connection that drops mid-game: a move whose
answer never comes back, an event stream cut in the middle. The proxy forwards
bytes between the client and the real server, and can ``drop_next_answer`` (the
server gets the request and answers; the client's connection is closed before a
byte of the answer reaches it) or ``cut`` every open connection at once.
"""

from __future__ import annotations

import contextlib
import socket
import threading


class Proxy:
    """Forwards 127.0.0.1:``port`` to ``upstream`` (host, port), one thread per connection."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.drop_posts = 0  # answers to POSTs still to lose
        self.dropped = 0
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        try:
            server = socket.create_connection(self.upstream, timeout=30)
        except OSError:
            client.close()
            return
        with self._lock:
            self._open.update((client, server))
        first = client.recv(65536)
        with self._lock:
            lose = first.startswith(b"POST") and self.drop_posts > 0
            if lose:
                self.drop_posts -= 1
        threading.Thread(target=self._pipe, args=(client, server, first), daemon=True).start()
        if lose:  # the server reads the whole request and answers; the client gets nothing
            with contextlib.suppress(OSError):
                server.settimeout(30)
                while server.recv(65536):
                    pass
            self.dropped += 1
            self._close(client, server)
            return
        self._pipe(server, client, b"")

    def _pipe(self, source: socket.socket, sink: socket.socket, first: bytes) -> None:
        try:
            if first:
                sink.sendall(first)
            while True:
                data = source.recv(65536)
                if not data:
                    break
                sink.sendall(data)
        except OSError:
            pass
        self._close(source, sink)

    def _close(self, *sockets: socket.socket) -> None:
        for sock in sockets:
            with self._lock:
                self._open.discard(sock)
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                sock.close()

    def cut(self) -> int:
        """Close every connection open through the proxy now; how many there were."""
        with self._lock:
            sockets = list(self._open)
        self._close(*sockets)
        return len(sockets)

    def close(self) -> None:
        self._closed = True
        self.listener.close()
        self.cut()


def free_port() -> int:
    """A port nothing listens on now (for a server to be restarted on the same one)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
