"""The projected state of a game: immutable, rebuilt by folding its events.

Everything is a tuple or a frozenset, so a new state shares all it did not
change with the old one (structural sharing: ``replace`` copies only the
top-level references). ``faces[d]`` is the face die ``d`` shows, ``None`` in
the bag. Totals, the player to act and similar views are derived properties.

The fold makes a new state for every event, so making one must be cheap: the
class keeps its fields in an instance dict (not slots), and ``replace`` copies
that dict in one C-level step instead of calling ``__init__`` with 32
arguments as ``attrs.evolve`` does (about a third of the time). The instances
are still frozen: assigning a field raises.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeGuard

from attrs import fields, frozen

from core.dice import DIE_COUNT
from core.mountain import EMPTY, Mountain

# Phases of a game.
NOT_STARTED = "not_started"  # PREGAME's: before the game's first event
SETUP = "setup"  # heroes are being chosen
EXCAVATION = "excavation"
MAGIC = "magic"
REPLENISH = "replenish"
OVER = "over"
SOLO = "solo"  # the solo game's single open phase

Scores = tuple[int, int, int]  # (tunnel, treasure, hazard)


@frozen
class TableFacts:
    """What the log says about how a game is played, beside its rules' state
    (``core.modes.table.events``): where its dice come from and what the table did.

    ``commitment`` is the SHA-256 (hex) of the secret seed the dice come from ("" when
    the game's own seed rolls them), ``revealed`` that secret once the game is over,
    ``seed_chosen_by`` who chose a seed that is no secret, ``closed`` why the table
    ended the game early, ``bot_seats`` the seats bots play for people gone quiet or gone for good
    (``left``), ``rematch`` the game that followed this one.
    A branch of another game (``core.branch``) lists its branch facts in
    ``branches`` (a branch of a branch has two), and its dice come from
    ``branch_seed``, or ``branch_secret`` (a revealed secret seed, hex), from its
    last branch fact on.
    """

    #: Fields added later: state hashes write them only when set (docs/reference/state-hash.md),
    #: so the hashes of games that never use them stay as they were.
    LATER_FIELDS: ClassVar[tuple[str, ...]] = (
        "branches",
        "branch_seed",
        "branch_secret",
        "practice",
        "left",
        "rematch",
    )

    commitment: str = ""
    revealed: str = ""
    seed_chosen_by: str = ""
    closed: str = ""
    practice: str = ""  # the person a practice game is for (undo past shown dice)
    bot_seats: tuple[tuple[int, str], ...] = ()  # (seat, bot kind)
    branches: tuple[tuple[str, int, str], ...] = ()  # (parent's SHA-256, at, luck)
    branch_seed: int | None = None
    branch_secret: str = ""
    left: tuple[int, ...] = ()  # the seats whose person left for good (a bot plays them)
    rematch: str = ""  # the id of the rematch started once the game was over

    @property
    def secret_dice(self) -> bool:
        """True if the dice come from a secret not revealed yet (a branch's never do)."""
        return bool(self.commitment) and not self.revealed and not self.branches


#: A game none of whose table's facts were logged.
NO_FACTS = TableFacts()


@frozen
class SoloState:
    """The solo game's own bookkeeping (RULES.md section 4), beside the state every mode
    shares: folded from the solo game's events (``core.modes.solo.fold``), read by its
    rules and its score. A multiplayer game's is ``NO_SOLO``. A solo trove is never
    rerolled, so the faces these dice were taken with are the faces they keep.
    """

    out_of_game: tuple[int, ...] = ()  # magic dice spent: out of the game for good
    sequences: tuple[tuple[int, ...], ...] = ()  # tunnel dice per sequence, from its 1 up
    neutralized: tuple[tuple[int, int], ...] = ()  # (hazard die, the tool die on it)
    frozen: tuple[tuple[int, int], ...] = ()  # (treasure die, the chest die it is frozen on)
    refills_left: int = 0  # refills of the mountain still allowed

    def is_frozen(self, die: int) -> bool:
        """True if ``die`` is a treasure die frozen on a chest."""
        return any(d == die for d, _ in self.frozen)

    def is_neutralized(self, die: int) -> bool:
        """True if ``die`` is a hazard die neutralized by a tool die."""
        return any(d == die for d, _ in self.neutralized)


#: The solo bookkeeping of a game that has none (a multiplayer game, or before setup).
NO_SOLO = SoloState()


@frozen(slots=False)
class GameState:
    """Everything the rules need to decide the next command."""

    game_id: str
    seed: int
    mode: str
    names: tuple[str, ...]
    dice_set: str
    rules: str
    phase: str = SETUP
    round: int = 0
    heroes: tuple[str | None, ...] = ()
    hero_table: tuple[tuple[str, ...], ...] = ()  # each seat's hero's faces, as the log says
    hero_order: tuple[int, ...] = ()  # setup: seats still to choose, in order
    first_seat: int | None = None
    start_seat: int = 0  # the round's start player
    active: int | None = None  # excavation: the seat taking dice
    picks_left: int = 1  # excavation: dice the active seat still takes this turn
    beer_shared: bool = False  # excavation: the active seat shared a beer this turn
    pending: tuple[int, ...] = ()  # magic / replenish: seats still to act, in order
    mountain: Mountain = EMPTY
    bag: tuple[int, ...] = tuple(range(DIE_COUNT))  # sorted die ids
    troves: tuple[tuple[int, ...], ...] = ()  # die ids per seat, in the order taken
    faces: tuple[str | None, ...] = (None,) * DIE_COUNT
    spent: frozenset[int] = frozenset()  # magic dice spent this round
    hero_spent: tuple[frozenset[int], ...] = ()  # hero face indices spent this round
    cached: tuple[tuple[int, ...], ...] = ()  # replenish: dice each seat keeps
    round_scores: tuple[tuple[Scores, ...], ...] = ()  # per seat, one entry per round
    tiebreak: int = 0  # the tie-break being played, 0 before any
    contenders: tuple[int, ...] = ()  # seats in the current tie-break
    tiebreak_scores: tuple[tuple[int, ...], ...] = ()  # per tie-break: totals per seat
    winners: tuple[int, ...] = ()
    hero_deal: str = "choose"
    solo: SoloState = NO_SOLO  # the solo game's own bookkeeping: one field, cheap
    facts: TableFacts = NO_FACTS  # the table's facts (core.modes.table.events): one field, cheap

    def replace(self, **changes: Any) -> GameState:
        """This state with ``changes`` (as ``attrs.evolve``, without re-running ``__init__``)."""
        values = {**self.__dict__, **changes}
        if len(values) != _FIELD_COUNT:  # a name that is not a field added an entry
            raise TypeError(f"GameState has no field {', '.join(changes.keys() - _FIELDS)}")
        new = _new(GameState)
        _set(new, "__dict__", values)
        return new

    __replace__ = replace  # copy.replace (Python 3.13)

    @property
    def players(self) -> int:
        """How many seats the game has."""
        return len(self.names)

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.phase == OVER

    def to_act(self) -> int | None:
        """The seat whose command the game waits for, or ``None`` when it is over."""
        if self.phase == SETUP:
            return self.hero_order[0] if self.hero_order else None
        if self.phase in (MAGIC, REPLENISH):
            return self.pending[0] if self.pending else None
        if self.phase == OVER:
            return None
        return self.active

    def totals(self) -> tuple[int, ...]:
        """Each seat's running total over the rounds scored so far."""
        return tuple(sum(sum(s) for s in rounds) for rounds in self.round_scores)

    def hero_faces(self, seat: int) -> tuple[str, ...]:
        """The faces of the hero in ``seat`` (none before one is chosen).

        They are the faces the log recorded with the hero (HeroChosen, HeroesDealt),
        never looked up in today's table: a corrected table must not change old games.
        """
        return self.hero_table[seat] if self.hero_table else ()

    def face(self, die: int) -> str:
        """The face ``die`` shows: a die on the mountain or in a trove shows one, only a
        die in the bag none (asking for its face is a bug: a ValueError)."""
        face = self.faces[die]
        if face is None:
            raise ValueError(f"die {die} is in the bag: it shows no face")
        return face

    def trove_faces(self, seat: int) -> tuple[str, ...]:
        """Every face the seat shows: its dice, then its hero's faces."""
        faces = self.faces
        shown = tuple(faces[d] for d in self.troves[seat])
        if not _all_shown(shown):
            raise ValueError(f"seat {seat}'s trove holds a die with no face")
        return shown + self.hero_faces(seat)

    def owner(self, die: int) -> int | None:
        """The seat whose trove holds ``die``, or ``None``."""
        for seat, trove in enumerate(self.troves):
            if die in trove:
                return seat
        return None


def _all_shown(faces: tuple[str | None, ...]) -> TypeGuard[tuple[str, ...]]:
    """True if every one of ``faces`` is a face (none is a bag die's ``None``)."""
    return None not in faces


#: The state before a game's first event, which the fold starts from: GameStarted
#: replaces it with the game's own, and any other event is refused on it. There is
#: one, so it is recognised by identity (``state is PREGAME``); its seat count is 0
#: and no one is to act. Carrying it instead of ``None`` means every holder of a
#: state (the rules, the fold, the timeline, a step) has a ``GameState``.
PREGAME = GameState(game_id="", seed=0, mode="", names=(), dice_set="", rules="", phase=NOT_STARTED)

_FIELDS = frozenset(f.name for f in fields(GameState))
_FIELD_COUNT = len(_FIELDS)
_new = object.__new__
_set = object.__setattr__
