"""The documented JSON shape of ``dice-miner replay --json`` (the README's fields), checked
field by field: the CLI's tests and the solo tools' tests read the same view."""

from __future__ import annotations

from core.dice import ALL_FACES, DIE_COUNT
from core.mountain import SLOTS

KINDS = {"tunnel", "treasure", "hazard", "tool", "magic"}


def check_die(die, *, in_bag=False):
    assert {"id", "kind", "face"} <= set(die)
    assert 0 <= die["id"] < DIE_COUNT and die["kind"] in KINDS
    assert die["face"] is None if in_bag else die["face"] in ALL_FACES


def check_shape(view):
    """Every field docs/reference/cli.md documents, with its type."""
    assert set(view) >= {
        "seq", "mode", "round", "phase", "players", "mountain", "bag", "out_of_game", "winner"
    }  # fmt: skip
    assert view["mode"] in ("multi", "solo") and isinstance(view["round"], int)
    assert isinstance(view["phase"], str)
    for player in view["players"]:
        assert isinstance(player["name"], str)
        assert player["hero"] is None or isinstance(player["hero"], str)
        assert all(isinstance(s, int) for s in player["round_scores"])
        assert player["total"] == sum(player["round_scores"])
        for die in player["trove"]:
            check_die(die)
    for slot in view["mountain"]:
        assert (slot["row"], slot["col"]) in SLOTS
        check_die(slot["die"])
    for die in view["bag"]:
        check_die(die, in_bag=True)
    for die in view["out_of_game"]:
        check_die(die)
    ids = [d["id"] for p in view["players"] for d in p["trove"]]
    ids += [s["die"]["id"] for s in view["mountain"]] + [d["id"] for d in view["bag"]]
    ids += [d["id"] for d in view["out_of_game"]]
    assert sorted(ids) == list(range(DIE_COUNT))  # every die exactly once
