"""Choosing with the cursor: what can be selected now, moving over it, and acting on it.

What may be chosen comes from the core read model ``core.read.choices``
(the web page draws the same one): the dice a take may name and the ways to
take each, the heroes left, the beers to share, each magic face with the dice
it may reroll or recycle and how many, rule D6's forced spends, the cache's
room. The interface never re-derives a rule. A choice that needs several dice
is built here (toggle them) and sent as one command; the engine refuses if it
is wrong.

A ``Chooser`` belongs to a session (``Session.chooser``) and works through the
small ``Table`` interface it is given: the state, whose turn it is, issuing a
command and saying something in the status line.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Literal, Protocol

from attrs import frozen

from core import (
    EXCAVATION,
    HERO_NAMES,
    MAGIC,
    REPLENISH,
    SETUP,
    SLOTS,
    SOLO,
    Choices,
    ChooseHero,
    Command,
    EndMagicTurn,
    GameState,
    Refill,
    SpendChoice,
    SpendMagic,
    TakeChoice,
    TakeDie,
    die_words,
    where,
)

#: A place the cursor can be: a die, a hero face of the trove, a hero, a menu line.
Spot = tuple[Literal["die", "face", "menu"], int] | tuple[Literal["hero"], str]


def grid_columns(items: int) -> int:
    """Dice per line when a trove is laid out as a grid to choose from (7 for big ones)."""
    return 6 if items <= 30 else 7


def grid_xy(index: int, items: int) -> tuple[int, int]:
    """Where the ``index``-th of ``items`` cells of a trove grid is: (column, line)."""
    columns = grid_columns(items)
    return (2 * (index % columns), index // columns)


@frozen
class MenuItem:
    """One choice of an open menu: a command to issue, or an action to run."""

    label: str
    command: Command | None = None
    action: Callable[[], None] | None = None


@frozen
class Menu:
    """A short list to choose from (sharing a beer, a take with options, a magic die)."""

    title: str
    items: tuple[MenuItem, ...]


class Table(Protocol):
    """What a chooser needs from the session it works for."""

    @property
    def state(self) -> GameState:
        """The game's projected state."""
        ...

    @property
    def humans(self) -> tuple[int, ...]:
        """The seats played at this keyboard."""
        ...

    def human_to_act(self) -> int | None:
        """The seat at this keyboard the game waits for, if any."""
        ...

    def input_seat(self) -> int:
        """The seat commands are issued for."""
        ...

    def trove_order(self, seat: int) -> tuple[int, ...]:
        """A trove's dice in display order."""
        ...

    def read_model(self, state: GameState) -> Choices:
        """What the seat to act may choose at ``state`` (the core read model, or a server's)."""
        ...

    def issue(self, command: Command) -> bool:
        """Issue a command; a refusal is said and changes nothing."""
        ...

    def say(self, text: str, kind: str = "info") -> None:
        """Put a message in the status line."""
        ...

    def waiting(self) -> str:
        """Who the game waits for, in words."""
        ...


class Chooser:
    """The cursor, the dice picked, the open menu and the keys that act on them."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.cursor: Spot | None = None
        self.picked: tuple[int, ...] = ()
        self.source: SpendChoice | None = None  # the magic face being spent
        self.menu: Menu | None = None
        self._last_xy: tuple[float, float] | None = None
        self._model: Choices | None = None
        self._model_of: GameState | None = None  # the state the model was made for

    # -- what the game offers ------------------------------------------------

    @property
    def choices(self) -> Choices:
        """The read model of the seat to act (person or bot), made once per state."""
        state = self.table.state
        if self._model is None or self._model_of is not state:
            self._model, self._model_of = self.table.read_model(state), state
        return self._model

    def mode(self) -> str:
        """What the keys do now: over, wait, menu, hero, take, magic, spend, cache,
        solo or recycle (a solo spend choosing its dice)."""
        state = self.table.state
        if state.is_over:
            return "over"
        if self.table.human_to_act() is None:
            return "wait"
        if self.menu is not None:
            return "menu"
        return {
            SETUP: "hero",
            EXCAVATION: "take",
            MAGIC: "magic" if self.source is None else "spend",
            REPLENISH: "cache",
            SOLO: "solo" if self.source is None else "recycle",
        }.get(state.phase, "wait")

    def can(self, kind: type[Command]) -> bool:
        """True if a command of this kind is legal for the person to act now (for the hints)."""
        return self.table.human_to_act() is not None and self.choices.offers(kind)

    def needed(self) -> int:
        """How many dice the spend being built must name."""
        return 0 if self.source is None else self.source.needed

    def reset(self) -> None:
        """Forget the menu and the spend or cache being built (the game moved on)."""
        self.picked, self.source, self.menu = (), None, None

    # -- what can be selected, and where it is drawn -------------------------

    def selectable(self) -> list[Spot]:
        """The spots the cursor may visit now, in display order."""
        mode, model, table = self.mode(), self.choices, self.table
        if mode == "menu" and self.menu is not None:
            return [("menu", i) for i in range(len(self.menu.items))]
        if mode == "hero":
            return [("hero", h.hero) for h in model.heroes]
        if mode in ("take", "solo"):
            return [("die", t.die) for t in model.takes]
        if mode not in ("magic", "spend", "cache", "recycle"):
            return []
        seat = table.input_seat()
        if mode == "magic":
            order: dict[int | None, int] = {d: n for n, d in enumerate(table.trove_order(seat))}
            spends = sorted(
                model.spends,
                key=lambda s: (s.die is None, order.get(s.die, 0), s.hero_face or 0),
            )
            return [_source_spot(s) for s in spends]
        if mode == "spend" and self.source is not None:
            eligible = set(self.source.pickable(self.picked))
            return [("die", d) for d in table.trove_order(seat) if d in eligible]
        if mode == "cache":
            return [("die", d) for d in table.trove_order(seat)]
        if mode == "recycle" and self.source is not None:
            eligible = set(self.source.pickable(self.picked))
            return [("die", d) for d in table.state.mountain if d is not None and d in eligible]
        return []

    def grid_items(self, seat: int) -> int:
        """Cells in a seat's trove grid: its dice, then its hero's faces."""
        state = self.table.state
        return len(state.troves[seat]) + len(state.hero_faces(seat))

    def position(self, spot: Spot) -> tuple[float, float]:
        """Where a spot is drawn, in abstract screen units (x right, y down)."""
        state = self.table.state
        seat = self.table.input_seat()
        if spot[0] == "hero":
            return (0, HERO_NAMES.index(spot[1]))
        kind, value = spot
        if kind == "die":
            k = where(state.mountain, value)
            if k is not None:
                row, col = SLOTS[k]
                return (2 * col + row, 4 - row)
            order = self.table.trove_order(seat)
            if value in order:
                return grid_xy(order.index(value), self.grid_items(seat))
        if kind == "face":
            return grid_xy(len(state.troves[seat]) + value, self.grid_items(seat))
        return (0, value)

    def _distance(self, spot: Spot, x0: float, y0: float) -> float:
        x, y = self.position(spot)
        return abs(x - x0) + abs(y - y0)

    # -- the cursor ----------------------------------------------------------

    def refresh(self) -> None:
        """Keep the cursor on something selectable, near where it was."""
        spots = self.selectable()
        if not spots:
            self.cursor = None
            return
        if self.cursor in spots:
            return
        if self._last_xy is None or self.mode() in ("menu", "hero"):
            self.cursor = spots[0]
        else:
            x0, y0 = self._last_xy
            self.cursor = min(spots, key=lambda s: self._distance(s, x0, y0))
        self._remember()

    def _remember(self) -> None:
        """Note where the cursor is on the board (menus and heroes aside), to come back near it."""
        if self.cursor is not None and self.cursor[0] in ("die", "face"):
            self._last_xy = self.position(self.cursor)

    def move(self, dx: int, dy: int) -> None:
        """Move the cursor to the nearest selectable spot in a direction."""
        spots = self.selectable()
        if not spots:
            return
        if self.cursor is None or self.cursor not in spots:
            self.refresh()
            return
        x0, y0 = self.position(self.cursor)
        best: Spot | None = None
        best_score: float | None = None
        for spot in spots:
            x, y = self.position(spot)
            ahead = (x - x0) * dx + (y - y0) * dy
            if spot == self.cursor or ahead <= 0:
                continue
            score = ahead + 3 * (abs(x - x0) if dx == 0 else abs(y - y0))
            if best_score is None or score < best_score:
                best, best_score = spot, score
        if best is None:  # nothing that way: step along the list instead
            i = spots.index(self.cursor) + (1 if dx + dy > 0 else -1)
            best = spots[i] if 0 <= i < len(spots) else self.cursor
        self.cursor = best
        self._remember()

    # -- acting on the cursor ------------------------------------------------

    def choose(self, spot: Spot | None = None) -> None:
        """Enter: take, choose, or confirm what the spot under the cursor stands for."""
        spot = self.cursor if spot is None else spot
        mode, seat, table = self.mode(), self.table.input_seat(), self.table
        if mode in ("wait", "over"):
            table.say(table.waiting())
        elif mode == "menu":
            if self.menu is not None and spot is not None and spot[0] == "menu":
                item = self.menu.items[spot[1]]
                if item.command is not None:
                    table.issue(item.command)
                elif item.action is not None:
                    item.action()
        elif mode == "cache" and self.choices.cache is not None:
            table.issue(self.choices.cache.command(self.picked))
        elif spot is None:
            return
        elif mode == "hero" and spot[0] == "hero":
            hero = next((h for h in self.choices.heroes if h.hero == spot[1]), None)
            if hero is not None:
                table.issue(hero.option.command)
            else:  # a hero already taken: the engine says whose
                table.issue(ChooseHero(seat, spot[1]))
        elif mode in ("take", "solo") and spot[0] == "die":
            self._take(seat, spot[1])
        elif mode == "magic" and spot[0] in ("die", "face"):
            self._pick_source(seat, spot)
        elif mode in ("spend", "recycle"):
            if spot[0] == "die" and spot[1] not in self.picked and len(self.picked) < self.needed():
                self.picked = (*self.picked, spot[1])
            if len(self.picked) >= self.needed():
                self.spend()
            else:
                table.say("")
                self._next_unpicked()

    def _next_unpicked(self) -> None:
        """Move the cursor off a die just picked, to the nearest one still free."""
        free = [s for s in self.selectable() if s[0] != "die" or s[1] not in self.picked]
        if not free or self.cursor in free:
            self.refresh()
            return
        x0, y0 = self.position(self.cursor) if self.cursor else (0, 0)
        self.cursor = min(free, key=lambda s: self._distance(s, x0, y0))
        self._remember()

    def _take(self, seat: int, die: int) -> None:
        take: TakeChoice | None = self.choices.take(die)
        if take is None:  # not offered: ask anyway, so the engine says why not
            self.table.issue(TakeDie(seat, die))
        elif len(take.options) == 1:
            self.table.issue(take.options[0].command)
        else:  # solo: a wild beer's face, or whether to freeze a gem
            items = tuple(MenuItem(o.label, o.command) for o in take.options)
            self._open(Menu(f"Take {die_words(die, self.table.state.faces[die])}", items))

    def _pick_source(self, seat: int, spot: Spot) -> None:
        die = spot[1] if spot[0] == "die" else None
        face = spot[1] if spot[0] == "face" else None
        source = self.choices.spend(die=die, hero_face=face)
        if source is None:  # not a magic face of yours: let the engine say why
            self.table.issue(SpendMagic(seat, (), die=die, hero_face=face))
        else:
            self._start_spend(source)

    def _start_spend(self, source: SpendChoice) -> None:
        """Spend ``source``: at once when it leaves nothing to choose (rule D6, the
        model's forced spend), else pick its dice next."""
        self.menu = None
        if source.forced is not None:
            self.table.issue(source.forced.command)
            return
        self.source, self.picked, self.cursor = source, (), None
        self.refresh()

    def spend(self) -> None:
        """Spend the chosen magic face on the picked dice (a solo spend in a legal order)."""
        if self.source is not None:
            self.table.issue(self.source.command(self.picked))

    def toggle(self, spot: Spot | None = None) -> None:
        """Space: pick or unpick the die under the cursor for a spend or a cache. It never
        takes a die or makes a choice: elsewhere it says what Enter would do."""
        spot = self.cursor if spot is None else spot
        mode = self.mode()
        if mode in ("wait", "over"):
            self.table.say(self.table.waiting())
            return
        if mode not in ("spend", "cache", "recycle"):
            enter = _ENTER_DOES.get(mode, "Enter acts")
            self.table.say(f"{enter}; space only picks dice, to reroll, cache or recycle.")
            return
        if spot is None or spot[0] != "die":
            return
        die = spot[1]
        if die in self.picked:
            self.picked = tuple(d for d in self.picked if d != die)
        else:
            self.picked = (*self.picked, die)
        self.table.say("")
        self.refresh()

    def click(self, spot: Spot) -> None:
        """A mouse click on a die, a hero face, a hero or a menu line."""
        mode, seat = self.mode(), self.table.input_seat()
        if spot in self.selectable():
            self.cursor = spot
            self._remember()
            if mode in ("spend", "cache", "recycle"):
                self.toggle(spot)
            else:
                self.choose(spot)
        elif spot[0] == "die" and where(self.table.state.mountain, spot[1]) is not None:
            if mode != "recycle":  # not selectable: ask anyway, so the engine says why not
                self.table.issue(TakeDie(seat, spot[1]))
        elif spot[0] in ("die", "face") and mode == "magic":
            self._pick_source(seat, spot)
        elif spot[0] == "die" and mode == "spend" and self.source is not None:
            self.table.issue(self.source.command((*self.picked, spot[1])))

    def back(self) -> None:
        """Esc: close a menu, or drop what was being picked."""
        self.reset()
        self.table.say("")
        self.refresh()

    # -- the other keys ------------------------------------------------------

    def share_beer(self) -> None:
        """b: choose whom to share a beer with (a menu of the legal choices)."""
        beers = self.choices.beers
        if self.table.human_to_act() is None or not beers:
            self.table.say("You have no beer to share now.", "error")
            return
        items = tuple(MenuItem(o.label, o.command) for o in beers)
        self._open(Menu("Share a beer: reroll it, give it away, take two dice", items))

    def end_turn(self) -> None:
        """e: end your magic turn (the engine refuses outside the magic phase)."""
        end = self.choices.end
        if end is not None and self.mode() == "magic":
            self.table.issue(end.command)
        else:  # the engine says why not
            self.table.issue(EndMagicTurn(self.table.input_seat()))

    def magic(self) -> None:
        """m: spend magic (solo: choose the magic die; multiplayer: the one under the cursor)."""
        mode = self.mode()
        if mode == "magic" and self.cursor is not None:
            self.choose()
        elif mode == "solo":
            spends = self.choices.spends
            items = tuple(MenuItem(s.label, action=partial(self._start_spend, s)) for s in spends)
            if not spends:
                self.table.say("You have no magic to spend now.", "error")
            elif len(spends) == 1:
                self._start_spend(spends[0])
            else:
                self._open(Menu("Spend which magic die? (it leaves the game)", items))
        else:
            self.table.say("Magic is spent in the magic phase, on your turn.", "error")

    def refill(self) -> None:
        """r: solo, refill the mountain (asks first: only two refills a game)."""
        refill = self.choices.refill
        if refill is None or not self.can(Refill):
            self.table.issue(Refill(self.table.input_seat()))  # the engine says why not
            return
        left = self.table.state.solo.refills_left
        title = f"Refill the mountain? ({left} refill{'s' if left != 1 else ''} left; u undoes it)"
        self._open(Menu(title, (MenuItem(refill.label, refill.command),)))

    def stop(self) -> None:
        """s: solo, stop digging (asks first: it ends the game)."""
        stop = self.choices.stop
        if self.mode() != "solo" or stop is None:
            self.table.say(
                "Stopping is for the solo game; q leaves (the log keeps the game).", "error"
            )
            return
        self._open(Menu("Stop? (u undoes it)", (MenuItem(stop.label, stop.command),)))

    def _open(self, menu: Menu) -> None:
        self.menu, self.cursor = menu, None
        self.refresh()

    def pick_number(self, n: int) -> None:
        """A digit key: choose menu line ``n``, or hero number ``n`` as the list numbers them."""
        mode = self.mode()
        if mode in ("wait", "over"):
            self.table.say(self.table.waiting())
            return
        if mode == "menu" and self.menu is not None and 1 <= n <= len(self.menu.items):
            self.cursor = ("menu", n - 1)
        elif mode == "hero" and 1 <= n <= len(HERO_NAMES):
            self.cursor = ("hero", HERO_NAMES[n - 1])
        else:
            return
        self.choose()


#: What Enter does where space picks nothing, said when space is pressed there.
_ENTER_DOES = {
    "take": "Enter takes the die",
    "solo": "Enter takes the die",
    "hero": "Enter chooses the hero",
    "magic": "Enter spends this magic",
    "menu": "Enter chooses the line",
}


def _source_spot(source: SpendChoice) -> Spot:
    """Where a magic face is: a die of the trove, or a hero face."""
    if source.die is not None:
        return ("die", source.die)
    return ("face", source.hero_face or 0)
