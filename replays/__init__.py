"""Golden replays: recorded games with a readable dump of the state after every event.

``python -m replays.record`` re-records them; ``tests/core/test_golden.py`` replays
each log and diffs it against its dump, and re-runs its commands through the
rules, so a change that alters old games is caught. The logs also serve as the
web viewer's default library.
"""
