"""The terminal frontend: the ``dice-miner`` command and its subcommands."""
