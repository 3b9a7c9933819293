"""What the browser draws and offers: ``state_view`` plus the table's details, and a seat's choices.

``board_view`` is ``core.projections.views.state_view`` (the one JSON shape of a
state) with a ``table`` block the pictures need: seats by index, the top and side
dice of the mountain, spent hero faces, each seat's score if the round in play
ended now (as the terminal shows it), the solo score, breakdown and sequences,
and which tool die neutralizes each hazard and which chest holds each frozen treasure.
``choices`` says what the seat to act may do now, built from the engine's legal
commands and the rule helpers the terminal uses too, so the browser never
re-derives a rule: it only marks what it is told is selectable and sends back
the commands it was given.
"""

from __future__ import annotations

from itertools import islice
from typing import Any

from core.commands import (
    ChooseHero,
    EndMagicTurn,
    EndSolo,
    Refill,
    ShareBeer,
    SpendMagic,
    TakeDie,
)
from core.dice import HEROES, magic_symbols
from core.events.codec import command_to_dict
from core.events.game import RoundScored, TieBreakScored
from core.mountain import side_slots, top_slots
from core.projections.solo_text import take_choice
from core.projections.state import EXCAVATION, MAGIC, REPLENISH, SETUP, SOLO, GameState
from core.projections.text import die_words
from core.projections.views import score_so_far, state_view
from core.rules.cache import cache_capacity
from core.rules.legal import legal_commands
from core.rules.magic import magic_sources, reroll_targets, targets_needed
from core.rules.solo import recycle_choices, spendable
from core.rules.solo_take import take_event
from core.scoring_solo import RATINGS, solo_score

#: Solo spends enumerated at most per magic die (each names the dice it recycles).
_SOLO_SPEND_LIMIT = 2000


def board_view(state: GameState, seq: int) -> dict[str, Any]:
    """The state after ``seq`` events, as the viewer and the game page draw it."""
    view = state_view(state, seq)
    mountain = state.mountain
    table: dict[str, Any] = {
        "to_act_seat": state.to_act(),
        "start_seat": state.start_seat,
        "beer_shared": state.beer_shared,
        "picks_left": state.picks_left,
        "tiebreak": state.tiebreak,
        "contenders": list(state.contenders),
        "winner_seats": list(state.winners),
        "top": [mountain[k] for k in top_slots(mountain)],
        "side": [mountain[k] for k in side_slots(mountain)],
        "hero_spent": [sorted(spent) for spent in state.hero_spent],
    }
    if state.mode == "solo" and state.troves:
        score = solo_score(state)
        b = score.breakdown
        table["refills_left"] = state.refills_left
        table["solo_score"] = {
            "score": score.score,
            "rating": score.rating,
            "bands": [[lowest, name] for lowest, name in RATINGS],
            "breakdown": {
                "hazards": b.hazards,
                "treasure": b.treasure,
                "frozen": b.frozen,
                "tunnels": b.tunnels,
            },
        }
        table["sequences"] = [list(seq) for seq in state.sequences]
        # who is paired with whom, so the page can mark each pair (the flags alone cannot)
        table["neutralized"] = [[hazard, tool] for hazard, tool in state.neutralized]
        table["frozen"] = [[treasure, chest] for treasure, chest in state.frozen]
    else:
        table["round_now"] = round_now(state)
    view["table"] = table
    return view


def round_now(state: GameState) -> list[list[int] | None] | None:
    """Each seat's (tunnels, treasure, hazards) if the round in play were scored now.

    Only while dice are being dug or magic spent (None otherwise); in a tie-break
    the seats out of it are None. The scores are the engine's (``score_so_far``,
    which the terminal shows too): the page only adds up the three parts.
    """
    if state.phase not in (EXCAVATION, MAGIC) or not state.troves:
        return None
    return [None if b is None else [b.tunnel, b.treasure, b.hazard] for b in score_so_far(state)]


def _option(label: str, command) -> dict[str, Any]:
    return {"label": label, "text": command.text(), "command": command_to_dict(command)}


def _take_label(state: GameState, cmd: TakeDie) -> str:
    if state.mode == "solo":  # what the take would do: the engine's sequence, tool or chest
        words = take_choice(state, take_event(state, cmd.die, cmd.as_face, cmd.freeze))
        face = cmd.as_face or state.faces[cmd.die]
        return words + (", not frozen" if face.startswith("gem") and not cmd.freeze else "")
    return f"take {die_words(cmd.die, state.faces[cmd.die])}"


def _takes_and_beers(state: GameState, legal) -> tuple[dict[str, list], list]:
    takes: dict[str, list] = {}
    beers = []
    for cmd in legal:
        if isinstance(cmd, TakeDie):
            takes.setdefault(str(cmd.die), []).append(_option(_take_label(state, cmd), cmd))
        elif isinstance(cmd, ShareBeer):
            label = f"give {die_words(cmd.die, state.faces[cmd.die])} to {state.names[cmd.to_seat]}"
            beers.append(_option(label, cmd))
    return takes, beers


def _magic_sources(state: GameState, seat: int) -> list[dict[str, Any]]:
    """The magic faces the seat may spend, what each may reroll and how many (rule D6)."""
    found = []
    for source in magic_sources(state, seat):
        found.append(
            {
                "die": source.die,
                "hero_face": source.hero_face,
                "symbols": source.symbols,
                "needed": targets_needed(state, seat, source),
                "eligible": list(reroll_targets(state, seat, source.die)),
            }
        )
    return found


def _solo_spends(state: GameState) -> list[dict[str, Any]]:
    """Solo: each spendable magic die, the top dice it may recycle and how many."""
    left = sum(1 for d in state.mountain if d is not None)
    found = []
    for die in spendable(state):
        needed = min(magic_symbols(state.faces[die]), left)
        # each set of dice once, in an order the engine takes (a die after those uncovering it)
        orders = [list(t) for t in islice(recycle_choices(state, needed), _SOLO_SPEND_LIMIT)]
        eligible = {d for targets in orders for d in targets}
        found.append(
            {
                "die": die,
                "hero_face": None,
                "symbols": magic_symbols(state.faces[die]),
                "needed": needed,
                "eligible": sorted(eligible),
                "orders": orders,
            }
        )
    return found


def choices(state: GameState, seat: int) -> dict[str, Any]:
    """What ``seat`` may do now; ``turn`` is False (and nothing else is said) if it is not to act.

    Each option carries the command as the API takes it back (``command``) and
    its typed form (``text``). Magic spends and caches are given as their parts
    (sources, eligible dice, how many), since their combinations are too many to list.
    """
    if state is None or state.is_over or state.to_act() != seat:
        return {"seat": seat, "turn": False}
    out: dict[str, Any] = {"seat": seat, "turn": True, "phase": state.phase}
    if state.phase == SETUP:
        out["heroes"] = [
            {"hero": c.hero, "faces": list(HEROES[c.hero]), **_option(f"the {c.hero}", c)}
            for c in legal_commands(state)
            if isinstance(c, ChooseHero)
        ]
    elif state.phase == EXCAVATION:
        takes, beers = _takes_and_beers(state, legal_commands(state))
        out["take"], out["beer"] = takes, beers
        out["picks_left"] = state.picks_left
        out["beer_shared"] = state.beer_shared
    elif state.phase == MAGIC:
        out["spend"] = _magic_sources(state, seat)
        out["end"] = _option("end my magic turn", EndMagicTurn(seat))
    elif state.phase == REPLENISH:
        out["cache"] = {
            "capacity": cache_capacity(state, seat),  # rule D7: chests in use bound the cache
            "dice": sorted(state.troves[seat]),
        }
    elif state.phase == SOLO:
        takes = {}
        spend_or_other = []
        for cmd in legal_commands(state):
            if isinstance(cmd, TakeDie):
                takes.setdefault(str(cmd.die), []).append(_option(_take_label(state, cmd), cmd))
            elif not isinstance(cmd, SpendMagic):
                spend_or_other.append(cmd)
        out["take"] = takes
        out["spend"] = _solo_spends(state)
        for cmd in spend_or_other:
            if isinstance(cmd, Refill):
                out["refill"] = _option(f"refill the mountain ({state.refills_left} left)", cmd)
            elif isinstance(cmd, EndSolo):
                out["stop"] = _option("stop digging and score", cmd)
    return out


class ScoreSeries:
    """Each player's total through a game, for the chart: the positions where totals change.

    ``points`` are ``(position, totals)`` with position = events folded so far;
    ``rounds`` the positions just after each round (or tie-break) was scored.
    """

    def __init__(self) -> None:
        self.points: list[tuple[int, list[int]]] = []
        self.rounds: list[int] = []
        self._last: tuple[int, ...] | None = None

    def add(self, seq: int, event, after: GameState) -> None:
        """Note the state after the event at ``seq``."""
        totals = after.totals()
        if totals != self._last:
            self.points.append((seq + 1, list(totals)))
            self._last = totals
        if isinstance(event, RoundScored | TieBreakScored):
            self.rounds.append(seq + 1)

    def unmark(self, positions: range) -> None:
        """Forget the round marks of events that were undone."""
        self.rounds = [p for p in self.rounds if p - 1 not in positions]

    def data(self) -> dict[str, Any]:
        """The series as JSON-ready data."""
        return {"points": list(self.points), "rounds": list(self.rounds)}


__all__ = ["ScoreSeries", "board_view", "choices", "round_now"]
