"""Commands: what a player (or the table) asks the engine to do.

A command is a frozen value with a stable tag (it is recorded in the log as the
cause of its batch of events) and a text form that round-trips, as python-chess
does with moves: ``parse_command("take 17", seat=0).text() == "take 17"``. The
text never names the seat: whoever issues it is the actor.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Sequence
from typing import ClassVar

from attrs import field, frozen

from core.errors import CommandSyntaxError

COMMAND_TYPES: dict[str, type[Command]] = {}

#: The games a ``NewGame`` may start (its ``mode``): frontends offer the solo game if it is here.
GAME_MODES = ("multi", "solo")


def _dice(values: Iterable[int]) -> tuple[int, ...]:
    """Die ids as a tuple (a typed converter: type checkers cannot read ``tuple`` as one)."""
    return tuple(values)


def _names(values: Iterable[str]) -> tuple[str, ...]:
    """Player names as a tuple (a typed converter, as ``_dice``)."""
    return tuple(values)


class Command:
    """Base of every command."""

    __slots__ = ()
    TAG: ClassVar[str]
    VERSION: ClassVar[int] = 1
    #: Fields added after the command was first logged: written only when they differ
    #: from their default, so the logs of games that never use them keep their bytes.
    LATER_FIELDS: ClassVar[tuple[str, ...]] = ()
    #: A command the table issues (revealing the seed, closing a game, handing a seat
    #: to a bot), never a player: a frontend refuses it from a person.
    BY_TABLE: ClassVar[bool] = False

    def text(self) -> str:
        """The command as a player types it (without the seat)."""
        raise NotImplementedError


def command(tag: str):
    """Class decorator: register a command under its stable ``tag``."""

    def register(cls):
        if tag in COMMAND_TYPES:
            raise ValueError(f"command tag {tag!r} is already used")
        cls.TAG = tag
        COMMAND_TYPES[tag] = cls
        return cls

    return register


@command("new")
@frozen
class NewGame(Command):
    """Set up a game: the players' names in seat order, the seed and the options.

    A game whose dice come from a secret (a live game between people) names its
    ``commitment``, the SHA-256 of the secret in hex, and its ``seed`` is only
    the public seed bots decide with; a seed chosen by someone says by whom in
    ``seed_chosen_by``, because a chosen seed is no secret. A practice game names
    the one person it is for in ``practice``: they may undo even what the dice showed.
    """

    LATER_FIELDS = ("commitment", "seed_chosen_by", "practice")
    BY_TABLE = True

    players: tuple[str, ...] = field(converter=_names)
    seed: int
    game_id: str = ""
    mode: str = "multi"  # one of GAME_MODES
    hero_deal: str = "choose"  # "choose" or "random"
    starting_magic: int = 3
    commitment: str = ""  # SHA-256 (hex) of the secret the dice come from; "" for none
    seed_chosen_by: str = ""  # who chose the seed, when someone did
    practice: str = ""  # the one person a practice game is for (undo past shown dice)

    def text(self) -> str:
        return f"new {' '.join(self.players)} seed {self.seed}"


@command("hero")
@frozen
class ChooseHero(Command):
    """Choose a hero during setup."""

    seat: int
    hero: str

    def text(self) -> str:
        return f"hero {self.hero}"


@command("take")
@frozen
class TakeDie(Command):
    """Take a die from the mountain (solo: ``as_face`` for a wild beer, ``freeze`` a gem)."""

    seat: int
    die: int
    as_face: str | None = None
    freeze: bool = False

    def text(self) -> str:
        extra = f" as {self.as_face}" if self.as_face is not None else ""
        return f"take {self.die}{extra}{' freeze' if self.freeze else ''}"


@command("beer")
@frozen
class ShareBeer(Command):
    """Share a beer: reroll a beer die of your trove and give it to ``to_seat``."""

    seat: int
    die: int
    to_seat: int

    def text(self) -> str:
        return f"beer {self.die} to {self.to_seat}"


@command("spend")
@frozen
class SpendMagic(Command):
    """Spend a magic face (a die, or hero face ``hero_face``) to reroll ``targets``."""

    seat: int
    targets: tuple[int, ...] = field(converter=_dice)
    die: int | None = None
    hero_face: int | None = None

    def text(self) -> str:
        source = f"h{self.hero_face}" if self.hero_face is not None else str(self.die)
        on = f" on {' '.join(map(str, self.targets))}" if self.targets else ""
        return f"spend {source}{on}"


@command("end")
@frozen
class EndMagicTurn(Command):
    """Finish your magic turn."""

    seat: int

    def text(self) -> str:
        return "end"


@command("cache")
@frozen
class CacheDice(Command):
    """Keep these dice of your trove as they are through the replenish."""

    seat: int
    dice: tuple[int, ...] = field(converter=_dice)

    def text(self) -> str:
        return " ".join(["cache", *map(str, self.dice)])


@command("refill")
@frozen
class Refill(Command):
    """Solo: refill the mountain's empty slots from the bag (at most twice a game)."""

    seat: int

    def text(self) -> str:
        return "refill"


@command("stop")
@frozen
class EndSolo(Command):
    """Solo: stop digging; the game ends and is scored."""

    seat: int

    def text(self) -> str:
        return "stop"


@command("undo")
@frozen
class Undo(Command):
    """Step back one command."""

    seat: int | None = None

    def text(self) -> str:
        return "undo"


@command("reveal")
@frozen
class RevealSeed(Command):
    """The table reveals, once the game is over, the secret its dice came from (hex)."""

    BY_TABLE = True

    secret: str

    def text(self) -> str:
        return f"reveal {self.secret}"


@command("close")
@frozen
class CloseGame(Command):
    """The table ends a game nobody plays any more, saying why."""

    BY_TABLE = True

    reason: str

    def text(self) -> str:
        return f"close ({self.reason})"


@command("takeover")
@frozen
class HandSeatToBot(Command):
    """The table lets a bot of kind ``bot`` play the seat ``taken`` of a person gone quiet."""

    BY_TABLE = True

    taken: int
    bot: str
    reason: str

    def text(self) -> str:
        return f"takeover {self.taken} {self.bot} ({self.reason})"


@command("return")
@frozen
class ReturnSeat(Command):
    """The table gives seat ``returned`` back to its person, who came back."""

    BY_TABLE = True

    returned: int

    def text(self) -> str:
        return f"return {self.returned}"


@command("leave")
@frozen
class LeaveGame(Command):
    """The person of seat ``left`` leaves the game for good (resigns): a bot of kind
    ``bot`` plays the seat to the end, and moving again does not take it back."""

    BY_TABLE = True

    left: int
    bot: str

    def text(self) -> str:
        return f"leave {self.left} ({self.bot} plays on)"


@command("rematch")
@frozen
class StartRematch(Command):
    """The game over, a rematch with the same seats and settings was made: game
    ``rematch_id`` (its people find it from this game's page)."""

    BY_TABLE = True

    rematch_id: str

    def text(self) -> str:
        return f"rematch {self.rematch_id}"


@command("branch")
@frozen
class BranchGame(Command):
    """The table branches this game from another log (a what-if, ``core.branch``).

    The log holds the parent's first ``at`` events, record for record; ``parent`` is
    the SHA-256 (hex) of the parent log's bytes. ``luck`` is ``"same"`` (every
    position rolls what the parent rolled there; a parent whose dice came from a
    secret needs it, ``secret``, revealed) or ``"fresh"`` (the dice come from the new
    ``seed`` from here on).
    """

    BY_TABLE = True

    parent: str
    at: int
    luck: str  # one of BRANCH_LUCKS
    seed: int | None = None  # fresh luck: the new seed
    secret: str = ""  # same luck, for a parent whose dice come from a revealed secret (hex)

    def text(self) -> str:
        fresh = f" from seed {self.seed}" if self.luck == "fresh" else ""
        return f"branch from {self.parent[:16]} at {self.at} ({self.luck} luck{fresh})"


#: A branch's luck: the parent's dice at every position, or a new seed's.
BRANCH_LUCKS = ("same", "fresh")


def _number(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise CommandSyntaxError(f"{what} must be a number, not {word!r}") from None


def _die(word: str, what: str) -> int:
    """A die's id, written ``17`` or ``#17`` (as the terminal shows ids, so that no one
    takes a face for an id)."""
    return _number(word[1:] if word.startswith("#") and len(word) > 1 else word, what)


def _face(words: Sequence[str]) -> str:
    """The face a wild beer becomes, as logged (``magic3``) or in words (``3 magic``,
    ``2 gems``, ``1 cave-in``, ``tunnel 3``, ``3``); the rules refuse a face that is none."""
    words = [w.lower() for w in words]
    if len(words) == 2 and words[0] == "tunnel":
        return words[1]
    if len(words) == 2 and words[0].isdigit():
        kind = words[1].replace("-", "")
        return f"{kind[:-1] if kind.endswith('s') else kind}{words[0]}"
    return " ".join(words)


def parse_command(
    text: str,
    seat: int | None,
    names: Sequence[str] = (),
    verbs: Collection[str] | None = None,
) -> Command:
    """Parse a command typed by the player in ``seat`` (the inverse of ``text()``).

    ``seat`` is ``None`` where no one is to act (the game is over): the command
    names no seat, and the rules refuse it (``game_over``). Die ids may be written
    ``#17``; ``names`` (the seats' names, in seat order) let a beer be shared with a
    player by name, ``beer 12 to Brok``, as well as by seat number. ``verbs`` are the
    moves of the game being played (``Game.verbs``): a word that is no command is
    answered with those alone, not the other game's too. A command of the other game
    still parses, for the rules to say where it belongs."""
    words = text.split()
    if not words:
        raise CommandSyntaxError("empty command")
    verb, args = words[0].lower(), words[1:]
    parser = _PARSERS.get(verb)
    if parser is None:
        known = ", ".join(sorted(_PARSERS if verbs is None else verbs))
        raise CommandSyntaxError(f"unknown command {verb!r}; try one of: {known}")
    return parser(args, seat, names)


def _parse_hero(args, seat, names):
    if not args:
        raise CommandSyntaxError("hero needs a name, e.g. 'hero Engineer'")
    return ChooseHero(seat, " ".join(args).title())


def _parse_take(args, seat, names):
    if not args:
        raise CommandSyntaxError("take needs a die number, e.g. 'take 17'")
    die = _die(args[0], "the die")
    as_face, freeze, rest = None, False, args[1:]
    while rest:
        if rest[0] == "as" and len(rest) > 1:
            face = list(itertools.takewhile(lambda w: w != "freeze", rest[1:]))
            as_face, rest = _face(face), rest[1 + len(face) :]
        elif rest[0] == "freeze":
            freeze, rest = True, rest[1:]
        else:
            raise CommandSyntaxError(f"unexpected {' '.join(rest)!r} after 'take {die}'")
    return TakeDie(seat, die, as_face, freeze)


def _parse_beer(args, seat, names):
    if len(args) < 3 or args[1] != "to":
        example = f"beer 12 to {names[1]}" if len(names) > 1 else "beer 12 to 2"
        raise CommandSyntaxError(
            f"share a beer as 'beer DIE to PLAYER', e.g. '{example}' (a name or a seat number)"
        )
    return ShareBeer(seat, _die(args[0], "the die"), _seat(" ".join(args[2:]), names))


def _seat(word: str, names: Sequence[str]) -> int:
    """A seat named by its player's name (any case) or its number."""
    wanted = word.strip().lower()
    for n, name in enumerate(names):
        if name.lower() == wanted:
            return n
    if names and not wanted.isdigit():
        raise CommandSyntaxError(
            f"no player is called {word!r}; name one of {', '.join(names)} (or a seat number)"
        )
    return _number(word, "the seat")


def _parse_spend(args, seat, names):
    if not args:
        raise CommandSyntaxError("spend needs a magic die, e.g. 'spend 52 on 3 7'")
    source, rest = args[0], args[1:]
    if rest and rest[0] != "on":
        raise CommandSyntaxError("write the dice to reroll after 'on', e.g. 'spend 52 on 3 7'")
    targets = tuple(_die(w, "a die to reroll") for w in rest[1:])
    if source.lower().startswith("h"):
        return SpendMagic(seat, targets, hero_face=_number(source[1:], "the hero face"))
    return SpendMagic(seat, targets, die=_die(source, "the magic die"))


def _parse_cache(args, seat, names):
    return CacheDice(seat, tuple(_die(w, "a die to cache") for w in args))


def _no_args(cls):
    def parse(args, seat, names):
        if args:
            raise CommandSyntaxError(f"{cls.TAG} takes no arguments")
        return cls(seat)

    return parse


_PARSERS = {
    "hero": _parse_hero,
    "take": _parse_take,
    "beer": _parse_beer,
    "spend": _parse_spend,
    "end": _no_args(EndMagicTurn),
    "cache": _parse_cache,
    "undo": _no_args(Undo),
    "refill": _no_args(Refill),
    "stop": _no_args(EndSolo),
}

#: The command each typed verb makes (``Game.verbs`` keeps those its game plays).
VERB_COMMANDS: dict[str, type[Command]] = {
    "hero": ChooseHero,
    "take": TakeDie,
    "beer": ShareBeer,
    "spend": SpendMagic,
    "end": EndMagicTurn,
    "cache": CacheDice,
    "undo": Undo,
    "refill": Refill,
    "stop": EndSolo,
}
