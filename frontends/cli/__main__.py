"""``python -m frontends.cli`` runs the ``dice-miner`` command."""

from frontends.cli.main import main

raise SystemExit(main())
