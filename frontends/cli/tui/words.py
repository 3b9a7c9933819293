"""The status line's words: what the player is asked to do now, and small turns of phrase.

Event texts come from ``core.read.text``; this module only words the
interface's own prompts, and addresses a player named "You" in the second person.
"""

from __future__ import annotations

from core import GameState, Refill, ShareBeer, SpendMagic, TakeDie
from frontends.cli.tui.choosing import Chooser
from frontends.cli.tui.typed import die_id


def _solo_prompt(chooser: Chooser) -> str:
    """The solo moves open now, in words: only those the rules allow."""
    moves = [
        words
        for words, kind in (
            ("take a top die (Enter)", TakeDie),
            ("spend magic (m)", SpendMagic),
            ("refill (r)", Refill),
        )
        if chooser.can(kind)
    ]
    moves.append("stop (s)")
    listed = moves[0] if len(moves) == 1 else f"{', '.join(moves[:-1])} or {moves[-1]}"
    if not chooser.can(TakeDie):
        return f"No top die can be taken now: {listed}."
    return listed[0].upper() + listed[1:] + "."


def waiting(state: GameState, can_undo: bool = False) -> str:
    """Who the game waits for (at the end, the keys that work: undo only where it can)."""
    seat = state.to_act()
    if seat is None:
        undo = " u to undo your last move," if can_undo else ""
        return f"The game is over: v to review it,{undo} q to leave."
    return f"{state.names[seat]} is playing..."


def prompt(chooser: Chooser) -> str:
    """What the player is asked to do now, in words."""
    mode, table = chooser.mode(), chooser.table
    state, seat = table.state, table.human_to_act()
    who = "" if len(table.humans) == 1 or seat is None else f"{state.names[seat]}: "
    if mode == "hero":
        return f"{who}Choose your hero (Enter, or 1-6)."
    if mode == "take":
        if state.beer_shared:
            return f"{who}Take {state.picks_left} more: top or side dice."
        if chooser.can(ShareBeer):
            return f"{who}Take a top die (Enter), or share a beer (b)."
        return f"{who}Take a top die (Enter)."
    if mode == "magic":
        return f"{who}Spend a magic die or hero face (Enter), or end your magic turn (e)."
    source = chooser.source
    if mode in ("spend", "recycle") and source is not None:
        needed = source.needed
        name = (
            f"die {die_id(source.die)}"
            if source.die is not None
            else f"hero face h{source.hero_face}"
        )
        verb = "reroll" if mode == "spend" else "recycle (top dice, one by one)"
        return (
            f"{who}Spending {name} ({source.symbols} magic): pick {needed} "
            f"{'die' if needed == 1 else 'dice'} to {verb}, {len(chooser.picked)}/{needed}."
        )
    cache = chooser.choices.cache
    if mode == "cache" and cache is not None:
        room = cache.room(chooser.picked)  # rule D7: a chest die kept lends no chests
        return (
            f"{who}Keep dice through the replenish: space picks ({len(chooser.picked)} picked, "
            f"room for {room}), Enter confirms."
        )
    if mode == "solo":
        return _solo_prompt(chooser)
    if mode == "menu" and chooser.menu is not None:
        return chooser.menu.title
    if mode in ("wait", "over"):
        return table.waiting()
    return ""
