"""The store layer's fixtures: ``store_backend``, each backend of the contract suite in
turn (``tests/support/store_backends.py``; its PostgreSQL one marks the test ``postgres``).
``postgres_server`` is the whole suite's (tests/conftest.py)."""

from tests.support.store_backends import store_backend  # noqa: F401  (the fixture)
