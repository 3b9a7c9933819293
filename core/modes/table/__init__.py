"""The table's facts, in every mode: a seat handed to a bot and back, a game closed, the
secret seed revealed, a branch begun; their events, rules, fold and words."""
