"""Analyses kept beside their game, so a second look is instant.

The analysis of ``game.dmlog`` is kept in ``game.dmlog.analysis-v5-<key>.json``:
``v5`` is ``ANALYSIS_VERSION`` and ``<key>`` the first 12 hex digits of SHA-256
over the log's bytes and the options that change values (``key``). A log that
has grown or changed, other options or a new analysis version name another
file, so nothing stale is ever read; the document inside also names the log's
whole SHA-256, the version and the options, and is read only if they match.
A file is written whole or not at all (a temporary file beside it, then renamed
over), so a reader never sees half of one.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from typing import Any

from core.analysis.judge import Options
from core.analysis.report import ANALYSIS_VERSION


def key(log_sha256: str, options: Options) -> str:
    """The 12 hex digits naming an analysis of these log bytes with these options."""
    text = f"{log_sha256} samples={options.samples} solo_candidates={options.solo_candidates}"
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:12]


def cache_path(log_path: str, log_sha256: str, options: Options) -> str:
    """Where the analysis of this log with these options is kept."""
    return f"{log_path}.analysis-v{ANALYSIS_VERSION}-{key(log_sha256, options)}.json"


def dumps(document: dict[str, Any]) -> str:
    """The document as the cache and ``--json`` write it (the same bytes every time)."""
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def load(path: str, log_sha256: str, options: Options) -> dict[str, Any] | None:
    """The kept analysis, or ``None`` if there is none (or it is not this log's, or
    cannot be read: it is then computed again and written over)."""
    try:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(document, dict):
        return None
    wanted = {"samples": options.samples, "solo_candidates": options.solo_candidates}
    log = document.get("log")
    if (
        document.get("analysis") != ANALYSIS_VERSION
        or not isinstance(log, dict)
        or log.get("sha256") != log_sha256
        or document.get("options") != wanted
    ):
        return None
    return document


def store(path: str, document: dict[str, Any]) -> None:
    """Write ``document`` to ``path`` atomically (an OSError if the folder is not writable)."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(prefix=".analysis-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(dumps(document))
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        raise


__all__ = ["cache_path", "dumps", "key", "load", "store"]
