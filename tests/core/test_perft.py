"""Perft: counts of legal command sequences from fixed seeds, stored as data (STYLE.md 9).

A change to the rules that alters what is legal anywhere in these trees changes a
count; the failure names the first command whose subtree differs.
"""

import json
from pathlib import Path

import pytest

from core.commands import NewGame
from core.projections.state import PREGAME
from core.rng import DiceRng
from core.rules import resolve
from core.rules.legal import legal_commands

DATA = Path(__file__).resolve().parents[1] / "data" / "perft.json"


def perft(state, depth: int, stream: int) -> int:
    """Leaf count of the legal-command tree below ``state``."""
    if depth == 0 or state.is_over:
        return 1
    return sum(
        perft(resolve(state, c, DiceRng(state.seed, stream))[1], depth - 1, stream + 1)
        for c in legal_commands(state)
    )


def divide(state, depth: int, stream: int) -> dict[str, int]:
    """Per first command, the leaf count of its subtree."""
    return {
        c.text(): perft(resolve(state, c, DiceRng(state.seed, stream))[1], depth - 1, stream + 1)
        for c in legal_commands(state)
    }


def start(players: int, seed: int, hero_deal: str, phase: str | None = None):
    """The game's first state, or the first state of ``phase`` reached by always playing
    the last legal command (which shares beers and spends magic whenever it can)."""
    names = ("Ada", "Brok", "Cira", "Dain")[:players]
    _, state = resolve(PREGAME, NewGame(names, seed, hero_deal=hero_deal), DiceRng(seed, 0))
    stream = 1
    while phase is not None and state.phase != phase:
        *_, last = legal_commands(state)
        _, state = resolve(state, last, DiceRng(seed, stream))
        stream += 1
    return state


CASES = json.loads(DATA.read_text())


@pytest.mark.parametrize(
    "case", CASES, ids=lambda c: f"{c['players']}p-seed{c['seed']}-{c.get('phase', 'start')}"
)
def test_perft_counts(case):
    state = start(case["players"], case["seed"], case["hero_deal"], case.get("phase"))
    counts = [perft(state, d, 1) for d in range(1, len(case["counts"]) + 1)]
    if counts != case["counts"]:
        pairs = enumerate(zip(counts, case["counts"], strict=True), 1)
        depth = next(d for d, (got, want) in pairs if got != want)
        pytest.fail(
            f"perft({depth}) = {counts[depth - 1]}, expected {case['counts'][depth - 1]}; "
            f"divide: {divide(state, depth, 1)}"
        )


if __name__ == "__main__":  # re-record: python -m tests.core.test_perft
    for case in CASES:
        state = start(case["players"], case["seed"], case["hero_deal"], case.get("phase"))
        case["counts"] = [perft(state, d, 1) for d in range(1, len(case["counts"]) + 1)]
    DATA.write_text(json.dumps(CASES, indent=1) + "\n")
    print(json.dumps(CASES))
