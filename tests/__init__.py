"""The tests, by layer: ``core`` (events, rules, scoring, read models, the game), ``store``
(the log file, the memory and PostgreSQL stores, the store contract), ``host`` (tables,
lobby, bot runner, idle policy), ``bots`` (bots and analysis), ``cli`` (commands, the
terminal UI; ``cli/tmux`` in a real terminal), ``web`` (server and API; ``web/browser``
in Chromium), ``ops`` (serving, scale-out, chaos, nginx, benchmarks), ``docs`` and
``project`` (types, setup scripts, this layout). Shared helpers live in ``support``; a
test module imports from there, never from another test module."""
