"""The server's choices (``GET /api/games/ID/choices``) as core's read model.

The browser draws what this endpoint says; the terminal's chooser draws
``core.read.choices.Choices``. This module only reads the one into the
other, each command as the server wrote it (``command_from_dict``), so what the
terminal offers and sends is exactly what the server offered: no rule is worked
out here. The board the model belongs to (the locally folded state, at the same
seq) goes with it, as the model's own reference.
"""

from __future__ import annotations

from typing import Any

from core import (
    CacheChoice,
    Choices,
    EventFormatError,
    GameState,
    HeroChoice,
    Option,
    SpendChoice,
    TakeChoice,
    command_from_dict,
)


class BadChoices(EventFormatError):
    """Choices the server sent that do not read as the model (a newer or broken server)."""


def _option(data: dict[str, Any]) -> Option:
    return Option(command_from_dict(data["command"]), str(data["label"]))


def _maybe(data: dict[str, Any] | None) -> Option | None:
    return None if data is None else _option(data)


def _hero(data: dict[str, Any]) -> HeroChoice:
    return HeroChoice(str(data["hero"]), tuple(data["faces"]), _option(data))


def _spend(data: dict[str, Any]) -> SpendChoice:
    orders = data.get("orders")
    return SpendChoice(
        seat=int(data.get("seat", 0)),
        die=data["die"],
        hero_face=data["hero_face"],
        symbols=int(data["symbols"]),
        needed=int(data["needed"]),
        eligible=tuple(data["eligible"]),
        label=str(data["label"]),
        forced=_maybe(data.get("forced")),
        orders=None if orders is None else tuple(tuple(order) for order in orders),
    )


def read_choices(data: dict[str, Any], state: GameState) -> Choices:
    """The choices JSON as the model, for the board ``state`` it was made at."""
    try:
        return _read(data, state)
    except (KeyError, TypeError, ValueError) as exc:
        raise BadChoices(f"the server's choices could not be read ({exc!r})") from None


def _read(data: dict[str, Any], state: GameState) -> Choices:
    seat = data.get("seat")
    phase = str(data.get("phase", state.phase))
    if not data.get("turn"):
        return Choices(seat, phase, False, state)
    takes = tuple(
        TakeChoice(int(die), tuple(_option(o) for o in options))
        for die, options in (data.get("take") or {}).items()
    )
    spends = tuple(_spend({"seat": seat, **s}) for s in data.get("spend") or ())
    cache = data.get("cache")
    seat_cached = int(seat) if seat is not None else 0
    return Choices(
        seat,
        phase,
        True,
        state,
        heroes=tuple(
            HeroChoice(str(h["hero"]), tuple(h["faces"]), _option(h))
            for h in data.get("heroes", ())
        ),
        takes=takes,
        beers=tuple(_option(o) for o in data.get("beer", ())),
        picks_left=int(data.get("picks_left", 0)),
        beer_shared=bool(data.get("beer_shared", False)),
        spends=spends,
        end=_maybe(data.get("end")),
        cache=None
        if cache is None
        else CacheChoice(seat_cached, int(cache["capacity"]), tuple(cache["dice"]), state),
        refill=_maybe(data.get("refill")),
        stop=_maybe(data.get("stop")),
    )


__all__ = ["BadChoices", "read_choices"]
