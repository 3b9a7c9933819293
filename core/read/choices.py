"""What a seat may choose now: one read model that every frontend draws its choices from.

``choices(state, seat)`` answers, phase by phase, what ``seat`` may do: the
heroes left; each die it may take with the ways to take it (solo: a wild
beer's faces, whether to freeze a gem); the beers it may share; each magic
face it may spend, what that may reroll (or recycle) and how many dice it must
name; ending its magic turn; the dice it may cache and how many fit (rule D7);
the solo refill and stop. Every complete move is an ``Option``: its command,
its typed text and its words (``core.read.choice_words``, one wording
for the terminal and the web). A spend or a cache is chosen among too many
combinations to list, so it comes as its parts, with the command built from
the dice picked; but when a spend leaves no choice (rule D6: it must name
every eligible die), the model says so and carries the complete command
(``SpendChoice.forced``), so no frontend works that out for itself.

The options are the engine's legal commands (``core.rules.legal``), grouped
and worded; ``Choices.commands()`` lists them all, lazily, for a command
line's completion. ``tests/core/test_choices.py`` checks them against ``decide``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator

from attrs import evolve, field, frozen

from core.commands import (
    CacheDice,
    ChooseHero,
    Command,
    EndMagicTurn,
    EndSolo,
    Refill,
    ShareBeer,
    SpendMagic,
    TakeDie,
)
from core.dice import HEROES, magic_symbols
from core.modes.multiplayer.cache import cache_capacity
from core.modes.multiplayer.magic import magic_sources, reroll_targets, targets_needed
from core.projections.state import EXCAVATION, MAGIC, REPLENISH, SETUP, SOLO, GameState
from core.read import choice_words as words
from core.rules.legal import legal_commands


@frozen
class Option:
    """One complete move: the command to issue and its words."""

    command: Command
    label: str

    @property
    def text(self) -> str:
        """The command as a player types it (``"take 17"``)."""
        return self.command.text()


@frozen
class HeroChoice:
    """A hero still free to choose, with the faces it brings."""

    hero: str
    faces: tuple[str, ...]
    option: Option


@frozen
class TakeChoice:
    """A die that may be taken and the ways to take it: one, or (solo) a wild beer's
    faces and, for a gem, frozen or not, each with what it would do."""

    die: int
    options: tuple[Option, ...]


@frozen
class SpendChoice:
    """A magic face that may be spent: the dice it may reroll (solo: recycle from the
    mountain) and how many it must name, ``needed``.

    ``forced`` is the complete command when there is nothing to choose: the spend
    must name every eligible die (rule D6; solo, as many top dice as are left).
    ``orders`` (solo) holds each set of top dice that can be recycled, once, in an
    order the engine takes (a die after those uncovering it).
    """

    seat: int
    die: int | None
    hero_face: int | None
    symbols: int
    needed: int
    eligible: tuple[int, ...]
    label: str
    forced: Option | None = None
    orders: tuple[tuple[int, ...], ...] | None = None

    def pickable(self, picked: Collection[int] = ()) -> tuple[int, ...]:
        """The dice that may be picked (or unpicked) with ``picked`` already picked:
        the eligible dice; solo, those of a recycle order that holds every die picked."""
        if self.orders is None:
            return self.eligible
        chosen = set(picked)
        fits = {d for order in self.orders if chosen <= set(order) for d in order}
        return tuple(d for d in self.eligible if d in fits)

    def command(self, picked: Collection[int]) -> SpendMagic:
        """The spend of the dice ``picked``; solo, put in an order the engine takes if one
        holds exactly them (otherwise as picked, for the engine to say why not)."""
        targets = tuple(picked)
        if self.orders is not None:
            targets = next((o for o in self.orders if set(o) == set(targets)), targets)
        return SpendMagic(self.seat, targets, die=self.die, hero_face=self.hero_face)


@frozen
class CacheChoice:
    """Replenish: the dice that may be kept as they are, and how many fit (rule D7)."""

    seat: int
    capacity: int
    dice: tuple[int, ...]
    _state: GameState = field(eq=False, repr=False, alias="state")

    def room(self, picked: Collection[int] = ()) -> int:
        """How many dice fit if ``picked`` are cached: a chest die kept lends no chests."""
        return cache_capacity(self._state, self.seat, picked)

    def command(self, picked: Collection[int]) -> CacheDice:
        """The cache of the dice ``picked``."""
        return CacheDice(self.seat, tuple(sorted(picked)))


@frozen
class Choices:
    """What ``seat`` may do in ``phase``; ``turn`` is False (and nothing is offered)
    when the game does not wait for it."""

    seat: int | None
    phase: str
    turn: bool
    _state: GameState = field(eq=False, repr=False, alias="state")
    heroes: tuple[HeroChoice, ...] = ()
    takes: tuple[TakeChoice, ...] = ()
    beers: tuple[Option, ...] = ()
    picks_left: int = 0
    beer_shared: bool = False
    spends: tuple[SpendChoice, ...] = ()
    end: Option | None = None
    cache: CacheChoice | None = None
    refill: Option | None = None
    stop: Option | None = None

    def take(self, die: int) -> TakeChoice | None:
        """The ways to take ``die``, if it may be taken."""
        return next((t for t in self.takes if t.die == die), None)

    def spend(self, die: int | None = None, hero_face: int | None = None) -> SpendChoice | None:
        """The magic die (or hero face) ``seat`` may spend, if it may."""
        for s in self.spends:
            if (die is not None and s.die == die) or (
                hero_face is not None and s.hero_face == hero_face
            ):
                return s
        return None

    def offers(self, kind: type[Command]) -> bool:
        """True if a command of this kind is among the choices."""
        offered = {
            ChooseHero: bool(self.heroes),
            TakeDie: bool(self.takes),
            ShareBeer: bool(self.beers),
            SpendMagic: bool(self.spends),
            EndMagicTurn: self.end is not None,
            CacheDice: self.cache is not None,
            Refill: self.refill is not None,
            EndSolo: self.stop is not None,
        }
        return offered.get(kind, False)

    def commands(self) -> Iterator[Command]:
        """Every complete command offered, spends and caches in all their combinations,
        lazily and in the engine's order (for a command line's completion)."""
        return legal_commands(self._state) if self.turn else iter(())


def choices(state: GameState, seat: int | None) -> Choices:
    """What ``seat`` may choose now (``turn`` False if the game does not wait for it)."""
    phase = state.phase
    if seat is None or state.is_over or state.to_act() != seat:
        return Choices(seat, phase, False, state)
    if phase == SETUP:
        heroes = tuple(
            HeroChoice(c.hero, HEROES[c.hero], Option(c, words.hero_label(c.hero)))
            for c in legal_commands(state)
            if isinstance(c, ChooseHero)
        )
        return Choices(seat, phase, True, state, heroes=heroes)
    if phase == EXCAVATION:
        legal = list(legal_commands(state))
        return Choices(
            seat,
            phase,
            True,
            state,
            takes=_takes(state, legal),
            beers=tuple(
                Option(c, words.beer_label(state, c)) for c in legal if isinstance(c, ShareBeer)
            ),
            picks_left=state.picks_left,
            beer_shared=state.beer_shared,
        )
    if phase == MAGIC:
        end = Option(EndMagicTurn(seat), words.END_TURN)
        return Choices(seat, phase, True, state, spends=_magic(state, seat), end=end)
    if phase == REPLENISH:
        trove = tuple(sorted(state.troves[seat]))
        cache = CacheChoice(seat, cache_capacity(state, seat), trove, state)  # rule D7
        return Choices(seat, phase, True, state, cache=cache)
    if phase == SOLO:
        return _solo(state, seat)
    return Choices(seat, phase, False, state)


def _takes(state: GameState, legal: list[Command]) -> tuple[TakeChoice, ...]:
    """The dice that may be taken, in the engine's order, each with its ways."""
    ways: dict[int, list[Option]] = {}
    for c in legal:
        if isinstance(c, TakeDie):
            ways.setdefault(c.die, []).append(Option(c, words.take_label(state, c)))
    return tuple(TakeChoice(die, tuple(options)) for die, options in ways.items())


def _magic(state: GameState, seat: int) -> tuple[SpendChoice, ...]:
    """Each magic face ``seat`` may spend, what it may reroll and how many (rule D6)."""
    found = []
    for source in magic_sources(state, seat):
        eligible = reroll_targets(state, seat, source.die)
        choice = SpendChoice(
            seat,
            source.die,
            source.hero_face,
            source.symbols,
            targets_needed(state, seat, source),
            eligible,
            words.source_label(state, seat, source.die, source.hero_face),
        )
        found.append(_with_forced(state, choice, eligible))
    return tuple(found)


def _with_forced(state: GameState, choice: SpendChoice, targets: tuple[int, ...]) -> SpendChoice:
    """The choice, with its complete command if it leaves nothing to choose (rule D6)."""
    if choice.needed != len(choice.eligible):
        return choice
    command = SpendMagic(choice.seat, targets, die=choice.die, hero_face=choice.hero_face)
    return evolve(choice, forced=Option(command, words.forced_label(state, choice.label, targets)))


def _solo(state: GameState, seat: int) -> Choices:
    """Solo: the takes, each magic die with its recycle orders, the refill and the stop."""
    legal = list(legal_commands(state))
    orders: dict[int, list[tuple[int, ...]]] = {}
    for c in legal:
        if isinstance(c, SpendMagic) and c.die is not None:
            orders.setdefault(c.die, []).append(c.targets)
    spends = []
    for die, sets in orders.items():
        eligible = tuple(sorted({d for targets in sets for d in targets}))
        face = state.faces[die]  # a die in the trove shows a face
        choice = SpendChoice(
            seat,
            die,
            None,
            0 if face is None else magic_symbols(face),
            len(sets[0]),
            eligible,
            words.source_label(state, seat, die, None),
            orders=tuple(sets),
        )
        spends.append(_with_forced(state, choice, sets[0]))
    refill = next((c for c in legal if isinstance(c, Refill)), None)
    stop = next((c for c in legal if isinstance(c, EndSolo)), None)
    return Choices(
        seat,
        SOLO,
        True,
        state,
        takes=_takes(state, legal),
        spends=tuple(spends),
        refill=None if refill is None else Option(refill, words.refill_label(state)),
        stop=None if stop is None else Option(stop, words.STOP),
    )


__all__ = [
    "CacheChoice",
    "Choices",
    "HeroChoice",
    "Option",
    "SpendChoice",
    "TakeChoice",
    "choices",
]
