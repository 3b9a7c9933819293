"""Commands as a player types them here: die ids written ``#17``, seats by name, faces in words.

The board writes every die's id as ``#17`` under it, because a tunnel die's face is
a number too: ``take 1`` could mean die 1 or the die showing a 1. The command line
offers commands in that form (``take #17``, ``beer #12 to Brok``, ``take #55 as 3
magic``), the parser reads it (``core.commands.parse_command``, which also takes a
bare ``17`` and a seat's number), and a bare number that is also a face on the
board the command names dice from is refused as ambiguous (``ambiguous_number``)
instead of taking a die the player did not mean.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from core import CacheDice, Command, GameState, ShareBeer, SpendMagic, TakeDie, face_words

#: The faces a player may read as a number: a tunnel's 1 to 5.
NUMBER_FACES = frozenset("12345")


def die_id(die: object) -> str:
    """A die's id as the board shows it and the command line offers it: ``#17``."""
    return f"#{die}"


def typed(command: Command, names: Sequence[str]) -> str:
    """``command`` as a player types it here (``names``: the seats' names, in seat order)."""
    if isinstance(command, TakeDie):
        face = f" as {face_words(command.as_face)}" if command.as_face is not None else ""
        return f"take {die_id(command.die)}{face}{' freeze' if command.freeze else ''}"
    if isinstance(command, ShareBeer):
        return f"beer {die_id(command.die)} to {names[command.to_seat]}"
    if isinstance(command, SpendMagic):
        source = f"h{command.hero_face}" if command.hero_face is not None else die_id(command.die)
        on = f" on {' '.join(map(die_id, command.targets))}" if command.targets else ""
        return f"spend {source}{on}"
    if isinstance(command, CacheDice):
        return " ".join(["cache", *map(die_id, command.dice)])
    return command.text()


def _dice_words(text: str) -> list[str]:
    """The words of a typed line that name dice (not a seat, a hero face or a face)."""
    words = text.split()
    verb, args = (words[0].lower(), words[1:]) if words else ("", [])
    if verb in ("take", "beer"):
        return args[:1]
    if verb == "spend":
        return [w for w in args if w != "on" and not w.lower().startswith("h")]
    if verb == "cache":
        return args
    return []


def dice_of(command: Command | None) -> tuple[int, ...]:
    """The dice a command names, in the order it names them."""
    if isinstance(command, TakeDie | ShareBeer):
        return (command.die,)
    if isinstance(command, SpendMagic):
        return ((command.die,) if command.die is not None else ()) + command.targets
    if isinstance(command, CacheDice):
        return command.dice
    return ()


def _shows(face: str | None) -> str:
    """A face as the board shows it, in words: ``a 3``, ``2 gems``, ``beer``."""
    return f"a {face}" if face in NUMBER_FACES else face_words(face)


def ambiguous_number(
    state: GameState, text: str, command: Command, board: Iterable[int]
) -> str | None:
    """Why ``text`` is refused, if a die it names by a bare number (no ``#``) is also the
    face of another die on ``board`` (the dice the command may name: the mountain for a
    take, the trove for a spend or a cache): ``take 1`` with a 1 in the mountain."""
    shown = {d: state.faces[d] for d in board}
    for word, die in zip(_dice_words(text), dice_of(command), strict=False):
        if word.startswith("#") or word not in NUMBER_FACES:
            continue
        showing = sorted(d for d, face in shown.items() if face == word and d != die)
        if not showing:
            continue
        other = die_id(showing[0])
        if die in shown:
            return (
                f"Which die? {die_id(die)} shows {_shows(shown[die])} and {other} shows a "
                f"{word}: type {die_id(die)} or {other} (ids carry a #)."
            )
        return (
            f"{word} is the face of {other} here, not a die's id: type {other} "
            "(the #numbers under the dice are their ids)."
        )
    return None


__all__ = ["NUMBER_FACES", "ambiguous_number", "dice_of", "die_id", "typed"]
