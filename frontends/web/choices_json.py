"""A seat's choices as the game page reads them: ``core.read.choices`` in JSON.

Nothing is decided here: the options, their words, the dice each magic face may
reroll and how many, rule D6's forced spends and the cache's room all come from
the core read model (the terminal draws the same one); this module only writes
it as JSON, each command as the API takes it back (``command_to_dict``).
"""

from __future__ import annotations

from typing import Any

from core import (
    EXCAVATION,
    MAGIC,
    REPLENISH,
    SETUP,
    SOLO,
    Choices,
    GameState,
    Option,
    SpendChoice,
    choices,
    command_to_dict,
)


def option_json(option: Option) -> dict[str, Any]:
    """An option: its words, its typed text and its command."""
    return {
        "label": option.label,
        "text": option.text,
        "command": command_to_dict(option.command),
    }


def _maybe(option: Option | None) -> dict[str, Any] | None:
    return None if option is None else option_json(option)


def spend_json(spend: SpendChoice) -> dict[str, Any]:
    """A magic face to spend: what it may reroll, how many, and its forced spend (rule D6)."""
    out: dict[str, Any] = {
        "die": spend.die,
        "hero_face": spend.hero_face,
        "symbols": spend.symbols,
        "needed": spend.needed,
        "eligible": list(spend.eligible),
        "label": spend.label,
        "forced": _maybe(spend.forced),
        # the spend as the server takes it, its targets the dice the player picks
        "command": command_to_dict(spend.command(())),
    }
    if spend.orders is not None:
        out["orders"] = [list(order) for order in spend.orders]
    return out


def choices_json(model: Choices) -> dict[str, Any]:
    """The choices as JSON: ``turn`` False (and nothing else) when it is not the seat's turn.

    Keys by phase: ``heroes``; ``take`` (options by die id), ``beer``, ``picks_left``,
    ``beer_shared``; ``spend`` and ``end``; ``cache`` (``capacity``, ``dice``); solo,
    (a spend and the cache carry their ``command`` with no dice yet: the page puts the dice
    picked into it and builds none of its own);
    ``take``, ``spend`` (with each magic die's recycle ``orders``), ``refill``, ``stop``;
    and in every phase ``prompt``, what the page asks the seat (``prompt``).
    """
    if not model.turn:
        return {"seat": model.seat, "turn": False}
    out: dict[str, Any] = {"seat": model.seat, "turn": True, "phase": model.phase}
    takes = {str(t.die): [option_json(o) for o in t.options] for t in model.takes}
    if model.phase == SETUP:
        out["heroes"] = [
            {"hero": h.hero, "faces": list(h.faces), **option_json(h.option)} for h in model.heroes
        ]
    elif model.phase == EXCAVATION:
        out["take"] = takes
        out["beer"] = [option_json(o) for o in model.beers]
        out["picks_left"] = model.picks_left
        out["beer_shared"] = model.beer_shared
    elif model.phase == MAGIC:
        out["spend"] = [spend_json(s) for s in model.spends]
        out["end"] = _maybe(model.end)
    elif model.phase == REPLENISH and model.cache is not None:
        out["cache"] = {
            "capacity": model.cache.capacity,
            "dice": list(model.cache.dice),
            "command": command_to_dict(model.cache.command(())),  # its dice: those picked
        }
    elif model.phase == SOLO:
        out["take"] = takes
        out["spend"] = [spend_json(s) for s in model.spends]
        for key, option in (("refill", model.refill), ("stop", model.stop)):
            if option is not None:
                out[key] = option_json(option)
    out["prompt"] = prompt(model)
    return out


def prompt(model: Choices) -> str:
    """What the page asks the seat to do now, in the page's words (clicks, glowing dice):
    only what the rules leave open, so the page words none of it itself."""
    if model.phase == SETUP:
        return "Choose your hero: its faces count as dice of your trove, every round."
    if model.phase == MAGIC:
        return "Magic: click a magic die or hero face to spend it, or end your magic turn."
    if model.phase == REPLENISH and model.cache is not None:
        return (
            f"Replenish: pick the dice to keep as they are (room for {model.cache.capacity}; "
            "a chest die you keep stops lending its chests)."
        )
    if model.phase == SOLO:
        moves = [
            words
            for words, open_now in (
                ("take a glowing top die", bool(model.takes)),
                ("spend a magic die to recycle top dice", bool(model.spends)),
                ("refill the mountain", model.refill is not None),
                ("stop", model.stop is not None),
            )
            if open_now
        ]
        listed = moves[0] if len(moves) == 1 else f"{', '.join(moves[:-1])}, or {moves[-1]}"
        return listed[:1].upper() + listed[1:] + "."
    if model.phase == EXCAVATION:
        if model.beer_shared:
            return f"Take {model.picks_left} more: top or side dice (they glow)."
        if model.beers:
            return "Take a glowing top die, or share a beer first to take two."
        return "Take a glowing top die."
    return ""


def choices_view(state: GameState, seat: int) -> dict[str, Any]:
    """What ``seat`` may do now, as JSON (see ``choices_json``)."""
    return choices_json(choices(state, seat))


__all__ = ["choices_json", "choices_view", "option_json", "prompt", "spend_json"]
