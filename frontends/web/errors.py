"""JSON errors for the web API: one shape, ``{"error": {"code", "message", ...}}``, always 4xx/5xx.

Every refusal the server gives is an ``ApiError`` (or an HTTP error Flask raises
itself, or an engine error mapped here), so a client never has to parse an HTML
error page and a bad request never takes the server down. Pages outside
``/api/`` get the same message in a small HTML page instead.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from core import (
    CommandSyntaxError,
    EventFormatError,
    LobbyFull,
    LogDamaged,
    LogError,
    RuleError,
    StaleCommand,
    StoreError,
    StoreUnavailable,
    TooManyGames,
)
from frontends.web.metrics import store_failed

#: Seconds a client is told to wait before asking again when the server is full or its
#: store is out of reach.
RETRY_AFTER = 30
#: The longest text an error answer carries in one field: what a client sent is quoted only
#: in part (a 1 MB command is not echoed back whole).
MAX_MESSAGE = 300


def excerpt(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` if it is short; else its beginning and its end, saying how much is left out."""
    if len(text) <= limit:
        return text
    head, tail = (limit - 40) * 2 // 3, (limit - 40) // 3
    return f"{text[:head]}… ({len(text) - head - tail:,} characters left out) …{text[-tail:]}"


#: An absolute path (two or more components): a server's folders are nobody's business.
_ABSOLUTE_PATH = re.compile(r"(?<![\w.:/])/(?:[^\s/:'\"()]+/)+([^\s/:'\"()]+)")


def without_paths(text: str) -> str:
    """``text`` with each absolute path cut to its last name (``/srv/logs/x.dmlog`` is
    ``x.dmlog``): an error answer says which log, never where the server keeps it."""
    return _ABSOLUTE_PATH.sub(r"\1", text)


class ApiError(Exception):
    """A request the server refuses: an HTTP status, a stable code, a message, extra fields."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        message = excerpt(without_paths(message))
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}
        self.extra = {
            k: excerpt(without_paths(v)) if isinstance(v, str) else v for k, v in extra.items()
        }

    def body(self) -> dict[str, Any]:
        """The JSON body of the answer."""
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


def rule_refused(exc: RuleError) -> ApiError:
    """A command the rules refused: 422 with the rule's own code and message."""
    return ApiError(422, exc.code, exc.message)


def bad_command(exc: CommandSyntaxError | EventFormatError) -> ApiError:
    """A command that is not one (bad text, unknown tag, wrong fields): 400."""
    return ApiError(400, "bad_command", str(exc))


def log_refused(exc: LogError) -> ApiError:
    """A log that cannot be read: 422, with the damage's offset and record when it is damage."""
    if isinstance(exc, LogDamaged):
        return ApiError(
            422, exc.code, str(exc), offset=exc.offset, record=exc.record, reason=exc.reason
        )
    return ApiError(422, getattr(exc, "code", "log_error"), str(exc))


#: Codes for the HTTP errors Flask and Werkzeug raise themselves.
_HTTP_CODES = {
    400: "bad_request",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    415: "unsupported_media_type",
    429: "too_many",
    500: "internal_error",
    503: "unavailable",
}

_HTTP_MESSAGES = {
    400: "the request could not be understood",
    404: "there is nothing at this address",
    405: "this address does not accept that method",
    413: "the upload is too large",
    500: "the server failed to answer; the error was logged",
}


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def _answer(error: ApiError):
    response: Response | str  # a JSON response, or the error page's HTML
    if _wants_json():
        response = jsonify(error.body())
    else:
        response = render_template("error.html", error=error)
    return response, error.status, error.headers


def register_error_handlers(app: Flask) -> None:
    """Answer every error as JSON (``/api/``) or a small page (elsewhere)."""

    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError):
        return _answer(exc)

    @app.errorhandler(RuleError)
    def _rule_error(exc: RuleError):
        return _answer(rule_refused(exc))

    @app.errorhandler(StaleCommand)
    def _stale(exc: StaleCommand):
        return _answer(ApiError(409, exc.code, exc.message, seq=exc.seq))

    @app.errorhandler(LobbyFull)
    def _full(exc: LobbyFull):
        retry = {"Retry-After": str(RETRY_AFTER)}
        return _answer(ApiError(503, exc.code, str(exc), headers=retry))

    @app.errorhandler(TooManyGames)
    def _too_many(exc: TooManyGames):
        return _answer(ApiError(429, exc.code, str(exc), headers={"Retry-After": "60"}))

    @app.errorhandler(StoreError)
    def _store_error(exc: StoreError):
        if isinstance(exc, LogError):
            return _answer(log_refused(exc))
        store_failed(exc.code)
        if isinstance(exc, StoreUnavailable):
            retry = {"Retry-After": str(RETRY_AFTER)}
            return _answer(ApiError(503, exc.code, str(exc), headers=retry))
        app.logger.warning("store refused %s %s: %s", request.method, request.path, exc)
        return _answer(ApiError(503, exc.code, str(exc), headers={"Retry-After": "5"}))

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        status = exc.code or 500
        message = _HTTP_MESSAGES.get(status) or exc.description or exc.name
        if status == 413:
            limit = app.config.get("MAX_CONTENT_LENGTH")
            message = f"the upload is too large (the limit is {limit} bytes)"
        # A 405 names the methods the address takes (``Allow``, RFC 9110), as Werkzeug's own does.
        allow = {k: v for k, v in exc.get_headers() if k == "Allow"}
        code = _HTTP_CODES.get(status, f"http_{status}")
        return _answer(ApiError(status, code, message, headers=allow))

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        app.logger.exception("unexpected error answering %s %s", request.method, request.path)
        return _answer(ApiError(500, "internal_error", _HTTP_MESSAGES[500]))
