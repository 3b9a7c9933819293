"""The server's HTTP API and event stream, as the terminal client uses them.

Everything goes through the standard library's ``urllib`` (no new dependency):
a few JSON requests, the game's ``.dmlog`` log, and the Server-Sent Events
stream read line by line. A failure is a ``ServerError`` whose ``sentence`` a
player can read (a refusal's own message, a 503's "try again", an unreachable
server); nothing here raises a traceback at the screen.

A move is sent with a request id of the client's own (``new_request_id``): if
the answer is lost (the connection drops, the server restarts), sending it again
with the same id gets the first answer back and moves nothing twice.
"""

from __future__ import annotations

import json
import secrets
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

from core import DiceMinerError
from frontends.cli.remote.link import Link

#: Seconds a request may take before the server counts as unreachable.
TIMEOUT = 10.0
#: Pauses before each new try of a move whose answer did not come (the same request id).
SEND_RETRIES = (0.25, 0.75, 1.5)
#: Seconds a stream may stay silent: the server sends a comment far more often than this.
STREAM_TIMEOUT = 45.0


class ServerError(DiceMinerError):
    """The server refused a request, or could not be reached: ``sentence`` says which."""

    def __init__(self, sentence: str, code: str = "unreachable", status: int | None = None):
        super().__init__(sentence)
        self.sentence = sentence
        self.code = code
        self.status = status

    @property
    def reached(self) -> bool:
        """True if the server answered (a refusal), False if it could not be reached."""
        return self.status is not None


def new_request_id() -> str:
    """A fresh id for one move (the API takes 1 to 64 letters, digits, - and _)."""
    return secrets.token_urlsafe(16)


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def refusal(status: int, body: bytes) -> ServerError:
    """The error an HTTP status and its JSON body stand for, as a sentence."""
    try:
        error = json.loads(body or b"null")["error"]
        code, message = str(error["code"]), str(error["message"])
    except (ValueError, TypeError, KeyError):
        code, message = f"http_{status}", ""
    if status == 503:
        why = f" ({message})" if message else ""
        return ServerError(f"The server is busy or its store is away{why}; try again.", code, 503)
    if status == 404 and code == "unknown_game":
        return ServerError(_sentence(message) + " It may have ended or closed.", code, status)
    if not message:
        message = f"the server answered {status}"
    return ServerError(_sentence(message), code, status)


def _unreachable(server: str, exc: BaseException) -> ServerError:
    reason = getattr(exc, "reason", exc)
    words = getattr(reason, "strerror", None) or str(reason) or type(reason).__name__
    return ServerError(f"The server at {server} cannot be reached ({words.lower()}).")


class Client:
    """One game on one server, and the seat's secret if the client plays one."""

    def __init__(self, link: Link, *, timeout: float = TIMEOUT) -> None:
        self.link = link
        self.timeout = timeout

    def _request(self, path: str, body: Any = None, *, seat: bool = False) -> bytes:
        url = self.link.api + path
        request = urllib.request.Request(url, method="GET" if body is None else "POST")
        request.add_header("Accept", "application/json")
        if body is not None:
            request.data = json.dumps(body).encode()
            request.add_header("Content-Type", "application/json")
        if seat and self.link.token is not None:
            request.add_header("X-Seat-Token", self.link.token)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                return answer.read()
        except urllib.error.HTTPError as error:
            raise refusal(error.code, error.read()) from None
        except (TimeoutError, urllib.error.URLError, OSError) as exc:
            raise _unreachable(self.link.server, exc) from None

    def _json(self, path: str, body: Any = None, *, seat: bool = False) -> dict[str, Any]:
        data = self._request(path, body, seat=seat)
        try:
            answer = json.loads(data)
        except ValueError:
            message = "The server's answer was not JSON: is this a Dice Miner server?"
            raise ServerError(message) from None
        if not isinstance(answer, dict):
            raise ServerError("The server's answer was not what a Dice Miner server sends.")
        return answer

    # -- reading -------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """The game's seats, phase and who is to act (``GET /api/games/ID``)."""
        return self._json("")

    def log(self) -> bytes:
        """The game's log as it stands (a ``.dmlog``: every batch, the dice's commitment)."""
        return self._request("/log")

    def choices(self) -> dict[str, Any]:
        """What the player to act may do now, and the ``seq`` it holds for."""
        return self._json("/choices")

    # -- acting --------------------------------------------------------------

    def send(
        self,
        command: dict[str, Any],
        *,
        seq: int,
        request_id: str,
        pause: Callable[[float], None] = time.sleep,
    ) -> dict[str, Any]:
        """Send the seat's move, decided at ``seq``; tried again with the same id while the
        server cannot be reached, so a lost answer never makes a second move."""
        body = {"command": command, "seq": seq, "id": request_id}
        for wait in (*SEND_RETRIES, None):
            try:
                return self._json("/commands", body, seat=True)
            except ServerError as failed:
                if failed.reached or wait is None:
                    raise
                pause(wait)
        raise AssertionError("unreachable")  # the loop returns or raises

    def leave(self) -> dict[str, Any]:
        """The seat's person leaves the game for good (``POST /api/games/ID/leave``): a bot
        plays the seat on, or the game closes with no person left; the game's summary."""
        return self._json("/leave", {}, seat=True)

    # -- the event stream ----------------------------------------------------

    def stream(self, last_id: int | None) -> Iterator[tuple[str, str | None, str]]:
        """The game's stream from after ``last_id`` (from its start if None): first
        ``("open", None, "")`` once connected, then each message as ``(event, id, data)``.
        Ends when the server closes it; raises ``ServerError``."""
        request = urllib.request.Request(self.link.api + "/stream")
        request.add_header("Accept", "text/event-stream")
        if last_id is not None:
            request.add_header("Last-Event-ID", str(last_id))
        try:
            answer = urllib.request.urlopen(request, timeout=STREAM_TIMEOUT)
        except urllib.error.HTTPError as error:
            raise refusal(error.code, error.read()) from None
        except (urllib.error.URLError, OSError) as exc:
            raise _unreachable(self.link.server, exc) from None
        with answer:
            yield "open", None, ""
            try:
                yield from read_events(answer)
            except (TimeoutError, OSError) as exc:
                raise _unreachable(self.link.server, exc) from None


def read_events(lines) -> Iterator[tuple[str, str | None, str]]:
    """The messages of an event stream's lines (bytes): ``(event, id, data)`` each, the
    comments (keep-alives) and the ``retry`` field left out."""
    event, last_id, data = "message", None, list[str]()
    for raw in lines:
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:
            if data:
                yield event, last_id, "\n".join(data)
            event, data = "message", []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "event":
            event = value
        elif field == "data":
            data.append(value)
        elif field == "id":
            last_id = value


__all__ = ["Client", "ServerError", "new_request_id", "read_events", "refusal"]
