"""Choosing with the cursor: what can be selected now, moving over it, and acting on it.

Selectable spots come from the legal commands (the dice a ``take`` may name,
the heroes left), or for a magic spend and a cache from the helpers the rules
export (``magic_sources``, ``reroll_targets``, ``targets_needed``): the
interface never re-derives a rule. A choice that needs several dice is built
here (toggle them) and sent as one command; the engine refuses if it is wrong.
``Choosing`` is the half of ``Session`` that handles the cursor and the keys.
"""

from __future__ import annotations

from collections.abc import Callable

from attrs import frozen

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
    parse_command,
)
from core.dice import HERO_NAMES, magic_symbols
from core.errors import CommandSyntaxError
from core.mountain import SLOTS, where
from core.projections.text import die_words
from core.rules.magic import MagicSource, magic_sources, reroll_targets, targets_needed
from frontends.cli.tui.words import take_label

Spot = tuple[str, object]  # ("die", id) | ("hero", name) | ("face", index) | ("menu", index)

#: Words the command line accepts besides the game's own commands.
META_WORDS = ("help", "quit")


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


class Choosing:
    """The cursor, the picked dice and the keys, over a Session's game."""

    # -- what can be selected, and where it is drawn -------------------------

    def selectable(self) -> list[Spot]:
        """The spots the cursor may visit now, in display order."""
        mode, seat, state = self.mode(), self.human_to_act(), self.state
        if mode == "menu":
            return [("menu", i) for i in range(len(self.menu.items))]
        if mode == "hero":
            return [("hero", c.hero) for c in self.legal() if isinstance(c, ChooseHero)]
        if mode in ("take", "solo"):
            dice = [c.die for c in self.legal() if isinstance(c, TakeDie)]
            return [("die", d) for d in dict.fromkeys(dice)]
        if mode == "magic":
            order = {d: n for n, d in enumerate(self.trove_order(seat))}
            sources = sorted(
                magic_sources(state, seat),
                key=lambda s: (s.die is None, order.get(s.die, 0), s.hero_face or 0),
            )
            return [("die", s.die) if s.die is not None else ("face", s.hero_face) for s in sources]
        if mode == "spend":
            eligible = set(reroll_targets(state, seat, self.source.die))
            return [("die", d) for d in self.trove_order(seat) if d in eligible]
        if mode == "cache":
            return [("die", d) for d in self.trove_order(seat)]
        if mode == "recycle":
            chosen = set(self.picked)
            dice = {d for t in self._recycle_sets() if chosen <= set(t) for d in t}
            return [("die", d) for d in state.mountain if d is not None and d in dice]
        return []

    def grid_items(self, seat: int) -> int:
        """Cells in a seat's trove grid: its dice, then its hero's faces."""
        return len(self.state.troves[seat]) + len(self.state.hero_faces(seat))

    def position(self, spot: Spot) -> tuple[float, float]:
        """Where a spot is drawn, in abstract screen units (x right, y down)."""
        kind, value = spot
        seat = self.input_seat()
        if kind == "die":
            k = where(self.state.mountain, value)
            if k is not None:
                row, col = SLOTS[k]
                return (2 * col + row, 4 - row)
            order = self.trove_order(seat)
            if value in order:
                return grid_xy(order.index(value), self.grid_items(seat))
        if kind == "face":
            return grid_xy(len(self.state.troves[seat]) + value, self.grid_items(seat))
        if kind == "hero":
            return (0, HERO_NAMES.index(value))
        return (0, value if isinstance(value, int) else 0)

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
            self.cursor = min(
                spots, key=lambda s: abs(self.position(s)[0] - x0) + abs(self.position(s)[1] - y0)
            )
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
        if self.cursor not in spots:
            self.refresh()
            return
        x0, y0 = self.position(self.cursor)
        best, best_score = None, None
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
        mode, seat = self.mode(), self.input_seat()
        if mode in ("wait", "over"):
            self.say(self.waiting())
        elif mode == "menu":
            if spot is not None and spot[0] == "menu":
                item = self.menu.items[spot[1]]
                if item.command is not None:
                    self.issue(item.command)
                else:
                    item.action()
        elif mode == "cache":
            self.issue(CacheDice(seat, tuple(sorted(self.picked))))
        elif spot is None:
            return
        elif mode == "hero" and spot[0] == "hero":
            self.issue(ChooseHero(seat, spot[1]))  # a hero already taken: the engine says whose
        elif mode in ("take", "solo") and spot[0] == "die":
            self._take(seat, spot[1])
        elif mode == "magic":
            self._pick_source(seat, spot)
        elif mode in ("spend", "recycle"):
            if spot[0] == "die" and spot[1] not in self.picked and len(self.picked) < self.needed():
                self.picked = (*self.picked, spot[1])
            if len(self.picked) >= self.needed():
                self.spend()
            else:
                self.say("")
                self._next_unpicked()

    def _next_unpicked(self) -> None:
        """Move the cursor off a die just picked, to the nearest one still free."""
        free = [s for s in self.selectable() if s[0] != "die" or s[1] not in self.picked]
        if not free or self.cursor in free:
            self.refresh()
            return
        x0, y0 = self.position(self.cursor) if self.cursor else (0, 0)
        self.cursor = min(
            free, key=lambda s: abs(self.position(s)[0] - x0) + abs(self.position(s)[1] - y0)
        )
        self._remember()

    def _take(self, seat: int, die: int) -> None:
        options = [c for c in self.legal() if isinstance(c, TakeDie) and c.die == die]
        if len(options) > 1:  # solo: a wild beer's face, or whether to freeze a gem
            items = tuple(MenuItem(take_label(self.state, c), c) for c in options)
            self.menu = Menu(f"Take {die_words(die, self.state.faces[die])}", items)
            self.cursor = None
            self.refresh()
            return
        self.issue(options[0] if options else TakeDie(seat, die))

    def _pick_source(self, seat: int, spot: Spot) -> None:
        kind, value = spot
        for source in magic_sources(self.state, seat):
            if (kind, value) in (("die", source.die), ("face", source.hero_face)):
                break
        else:  # not a magic face of yours: let the engine say why
            die, face = (value, None) if kind == "die" else (None, value)
            self.issue(SpendMagic(seat, (), die=die, hero_face=face))
            return
        self.source, self.picked = source, ()
        eligible = reroll_targets(self.state, seat, source.die)
        if targets_needed(self.state, seat, source) == len(eligible):
            self.picked = eligible  # rule D6: no choice to make, every eligible die rerolls
            self.spend()
            return
        self.refresh()

    def needed(self) -> int:
        """How many dice the spend being built must name."""
        if self.mode() == "recycle":
            sets = self._recycle_sets()
            return len(sets[0]) if sets else 0
        return targets_needed(self.state, self.input_seat(), self.source)

    def _recycle_sets(self) -> list[tuple[int, ...]]:
        die = self.source.die
        return [c.targets for c in self.legal() if isinstance(c, SpendMagic) and c.die == die]

    def spend(self) -> None:
        """Spend the chosen magic face on the picked dice (a solo spend in a legal order)."""
        seat, s = self.input_seat(), self.source
        if self.mode() == "recycle":
            for targets in self._recycle_sets():
                if set(targets) == set(self.picked):
                    self.issue(SpendMagic(seat, targets, die=s.die))
                    return
        self.issue(SpendMagic(seat, self.picked, die=s.die, hero_face=s.hero_face))

    def toggle(self, spot: Spot | None = None) -> None:
        """Space: pick or unpick the die under the cursor for a spend or a cache."""
        spot = self.cursor if spot is None else spot
        if self.mode() not in ("spend", "cache", "recycle") or spot is None or spot[0] != "die":
            self.choose(spot)
            return
        die = spot[1]
        if die in self.picked:
            self.picked = tuple(d for d in self.picked if d != die)
        else:
            self.picked = (*self.picked, die)
        self.say("")
        self.refresh()

    def click(self, spot: Spot) -> None:
        """A mouse click on a die, a hero face, a hero or a menu line."""
        mode, seat = self.mode(), self.input_seat()
        if spot in self.selectable():
            self.cursor = spot
            self._remember()
            if mode in ("spend", "cache", "recycle"):
                self.toggle(spot)
            else:
                self.choose(spot)
        elif spot[0] == "die" and where(self.state.mountain, spot[1]) is not None:
            if mode != "recycle":  # not selectable: ask anyway, so the engine says why not
                self.issue(TakeDie(seat, spot[1]))
        elif spot[0] in ("die", "face") and mode == "magic":
            self._pick_source(seat, spot)
        elif spot[0] == "die" and mode == "spend":
            s = self.source
            self.issue(SpendMagic(seat, (*self.picked, spot[1]), s.die, s.hero_face))

    def back(self) -> None:
        """Esc: close the help or a score table, a menu, or drop what was being picked."""
        if self.overlay in ("help", "round"):
            self.overlay = None
            return
        self.menu, self.source, self.picked = None, None, ()
        self.say("")
        self.refresh()

    # -- the other keys ------------------------------------------------------

    def can(self, kind: type[Command]) -> bool:
        """True if a command of this kind is legal for the person to act now (for the hints)."""
        return self.human_to_act() is not None and any(isinstance(c, kind) for c in self.legal())

    def share_beer(self) -> None:
        """b: choose whom to share a beer with (a menu of the legal choices)."""
        options = [c for c in self.legal() if isinstance(c, ShareBeer)]
        if self.human_to_act() is None or not options:
            self.say("You have no beer to share now.", "error")
            return
        faces, names = self.state.faces, self.state.names
        items = tuple(
            MenuItem(f"give {die_words(c.die, faces[c.die])} to {names[c.to_seat]}", c)
            for c in options
        )
        self._open(Menu("Share a beer: reroll it, give it away, take two dice", items))

    def end_turn(self) -> None:
        """e: end your magic turn (the engine refuses outside the magic phase)."""
        self.issue(EndMagicTurn(self.input_seat()))

    def magic(self) -> None:
        """m: spend magic (solo: choose the magic die; multiplayer: the one under the cursor)."""
        mode = self.mode()
        if mode == "magic" and self.cursor is not None:
            self.choose()
        elif mode == "solo":
            dice = [c.die for c in self.legal() if isinstance(c, SpendMagic)]
            faces = self.state.faces
            items = tuple(
                MenuItem(die_words(d, faces[d]), action=lambda d=d: self._solo_source(d))
                for d in dict.fromkeys(dice)
            )
            if not items:
                self.say("You have no magic to spend now.", "error")
            elif len(items) == 1:
                items[0].action()
            else:
                self._open(Menu("Spend which magic die? (it leaves the game)", items))
        else:
            self.say("Magic is spent in the magic phase, on your turn.", "error")

    def _solo_source(self, die: int) -> None:
        self.menu = None
        self.source, self.picked = MagicSource(die, None, magic_symbols(self.state.faces[die])), ()
        sets = self._recycle_sets()
        if len(sets) == 1:  # no choice to make
            self.picked = sets[0]
            self.spend()
            return
        self.cursor = None
        self.refresh()

    def refill(self) -> None:
        """r: solo, refill the mountain (asks first: only two refills a game)."""
        if not (self.is_solo and self.can(Refill)):
            self.issue(Refill(self.input_seat()))  # the engine says why not
            return
        left = self.state.refills_left
        item = MenuItem(
            f"refill the empty slots from the bag ({len(self.state.bag)} dice in it)",
            Refill(self.input_seat()),
        )
        title = f"Refill the mountain? ({left} refill{'s' if left != 1 else ''} left; u undoes it)"
        self._open(Menu(title, (item,)))

    def stop(self) -> None:
        """s: solo, stop digging (asks first: it ends the game)."""
        if self.mode() != "solo":
            self.say("Stopping is for the solo game; q leaves (the log keeps the game).", "error")
            return
        item = MenuItem("stop digging: end the game and score it", EndSolo(self.input_seat()))
        self._open(Menu("Stop? (u undoes it)", (item,)))

    def _open(self, menu: Menu) -> None:
        self.menu, self.cursor = menu, None
        self.refresh()

    def pick_number(self, n: int) -> None:
        """A digit key: choose menu line ``n``, or hero number ``n`` as the list numbers them."""
        mode = self.mode()
        if mode in ("wait", "over"):
            self.say(self.waiting())
            return
        if mode == "menu" and 1 <= n <= len(self.menu.items):
            self.cursor = ("menu", n - 1)
        elif mode == "hero" and 1 <= n <= len(HERO_NAMES):
            self.cursor = ("hero", HERO_NAMES[n - 1])
        else:
            return
        self.choose()

    def run_line(self, text: str) -> None:
        """Run a line typed at the ``:`` command line."""
        text = text.strip()
        if not text:
            return
        word = text.split()[0].lower()
        if word in ("quit", "q", "exit"):
            self.quit_requested = True
        elif word in ("help", "?"):
            self.overlay = "help"
        else:
            try:
                command = parse_command(text, self.input_seat())
            except CommandSyntaxError as bad:
                self.say(str(bad), "error")
                return
            self.issue(command)
