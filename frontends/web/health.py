"""``/healthz`` and ``/readyz``: what a process supervisor and a load balancer ask.

``/healthz`` says the process answers at all (nothing else is touched, so a database
away never gets a healthy worker restarted); ``/readyz`` says it can serve games now:
its store answers (``Store.ping``), else 503 with the store's reason, so a reverse
proxy sends players to a server that can take their moves.
"""

from __future__ import annotations

from flask import Blueprint, jsonify

from core import StoreError
from frontends.web.services import services

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    """Alive: this process answers requests."""
    return jsonify({"status": "ok"})


@bp.get("/readyz")
def readyz():
    """Ready: the store answers a ping; 503 with its reason while it does not."""
    store = services().store
    try:
        store.ping()
    except StoreError as exc:
        body = {"status": "unavailable", "store": store.url, "reason": str(exc), "code": exc.code}
        return jsonify(body), 503, {"Retry-After": "5", "Cache-Control": "no-store"}
    return jsonify({"status": "ok", "store": store.url}), 200, {"Cache-Control": "no-store"}
