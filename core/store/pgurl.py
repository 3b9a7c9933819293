"""A PostgreSQL URL as it may be shown: without its password.

Kept apart from ``core.store.postgres`` so a process may show the URL without
importing psycopg: a gunicorn arbiter must not, since psycopg picks how it waits
for the network when first imported, and a gevent worker needs it to pick after
the worker's monkey-patching (``frontends.cli.gworker``).
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit


def public_url(url: str) -> str:
    """``url`` without its password (in the address or as a ``password=`` parameter)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "postgresql://(an address that does not parse)"
    netloc = parts.netloc
    if "@" in netloc:
        user, _, host = netloc.rpartition("@")
        netloc = f"{user.partition(':')[0]}@{host}"
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "password"]
    return urlunsplit((parts.scheme, netloc, parts.path, urlencode(query), ""))


__all__ = ["public_url"]
