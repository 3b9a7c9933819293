"""``python -m frontends.cli`` runs the ``dice-miner`` command."""

from frontends.cli.entry import main

raise SystemExit(main())
