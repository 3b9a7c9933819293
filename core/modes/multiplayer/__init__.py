"""The multiplayer game (RULES.md section 3): its events, rules, flow, fold, words and score."""
