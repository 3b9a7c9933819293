"""The solo game (RULES.md's solo variant): its events, rules, fold, words and score."""
