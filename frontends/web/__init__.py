"""The web frontend: a Flask app serving the replay viewer, browser play and live spectating.

``create_app`` builds it; ``dice-miner serve`` runs it. The pages are plain ES
modules, CSS and SVG from ``static/`` (no build step, nothing from elsewhere);
the JSON API (``api``), the event stream (``live``) and the pages (``pages``)
are blueprints over the core's ``Game`` and read models.
"""

from frontends.web.app import create_app

__all__ = ["create_app"]
