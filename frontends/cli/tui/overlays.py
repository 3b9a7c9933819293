"""Boxes drawn over the board: a menu, the help, the score table after a round, the result.

The score table is read from the projected round scores; the result names the
winners and where the log is, so the game can be replayed or resumed.
"""

from __future__ import annotations

import textwrap

from frontends.cli.tui import solo_view
from frontends.cli.tui.board import Fragments, OnClick, frag
from frontends.cli.tui.choosing import Spot
from frontends.cli.tui.glyphs import Glyphs
from frontends.cli.tui.panels import DIM, TITLE, doing_words, legend
from frontends.cli.tui.session import Session
from frontends.cli.tui.table import short_name
from frontends.rules_summary import MULTI_ROUND, SOLO_GAME  # shared with the web's help

#: The keys, each said in few enough words for a 60-column screen's help box; the
#: keys of the other kind of game (solo or not) are left out of each's help.
HELP_KEYS = (
    ("←↑↓→ hjkl", "move over the dice you can select"),
    ("Enter", "take / choose / spend / confirm"),
    ("space", "pick/unpick a die (reroll, cache, recycle)"),
    ("b", "share a beer (at the start of your turn)"),
    ("e", "end your magic turn"),
    ("m  r  s", "spend magic, refill the mountain, stop"),
    ("Esc", "cancel a menu or the dice picked"),
    ("u", "undo your move (and the bots' after it)"),
    ("t", "a hint: the best moves now"),
    ("v", "after the game: its review"),
    ("R", "the rules, explained a page at a time"),
    (":", "type a command (Tab completes): take #17,"),
    ("", "end, beer #12 to Brok, spend #52 on #3 #7"),
    ("mouse", "click a die, a hero or a menu line"),
    ("q  Ctrl-C", "quit: the log keeps the game"),
)
#: Keys of one kind of game only: solo's, and the multiplayer game's.
SOLO_KEYS, MULTI_KEYS = {"m  r  s"}, {"b", "e"}


def handover(session: Session) -> Fragments:
    """Hot-seat: whose turn it is now, waiting for them to take the keyboard."""
    seat = session.human_to_act()
    if seat is None:
        return []
    name = session.names[seat]
    return [
        ("fg:#ffd700 bold", f"  {name}'s {doing_words(session.state)}\n\n"),
        ("", f"  Pass the keyboard to {name}.\n"),
        (DIM, f"  {name}: press Enter to play.\n"),
    ]


def menu(session: Session, on_click: OnClick | None) -> Fragments:
    """An open menu's lines, numbered."""
    chooser = session.chooser
    if chooser.menu is None:
        return []
    out: Fragments = [(TITLE, f" {chooser.menu.title}\n\n")]
    for n, item in enumerate(chooser.menu.items):
        spot: Spot = ("menu", n)
        style = "reverse bold" if chooser.cursor == spot else ""
        out.append(frag("fg:#ffd700 bold", f" {n + 1} ", on_click, spot))
        out.append(frag(style, f" {item.label} ", on_click, spot))
        out.append(("", "\n"))
    return out


def help_text(glyphs: Glyphs, solo: bool = False, rows: int = 40, columns: int = 80) -> Fragments:
    """The keys of this kind of game, then what fits of the glyphs and (on a tall screen)
    the flow of a round or solo game: never more than the screen shows, so that no
    key is cut off a small terminal."""
    width = max(30, min(76, columns - 4))  # inside the box's frame
    room = rows - 2  # the frame
    other = MULTI_KEYS if solo else SOLO_KEYS
    out: Fragments = [(TITLE, " Keys\n")]
    for key, what in HELP_KEYS:
        if key in other:
            continue
        for n, part in enumerate(textwrap.wrap(what, width - 13) or [""]):
            out += [("fg:#ffffff bold", f"  {key if n == 0 else '':<11}"), ("", f"{part}\n")]
    closing: Fragments = [(DIM, "\n  Enter or Esc closes this help.\n")]
    dice: Fragments = [("", "\n"), (TITLE, " Dice\n"), *legend(glyphs, width), ("", "\n")]
    if _height(out + dice + closing) <= room:
        out += dice
    summary: Fragments = [(TITLE, "\n The solo game\n" if solo else "\n A round\n")]
    summary += [("", f"  {line}\n") for line in (SOLO_GAME if solo else MULTI_ROUND)]
    if rows >= 32 and _height(out + summary + closing) <= room:
        out += summary
    if _height(out + closing) > room:
        closing = [(DIM, "  Enter or Esc closes this help.\n")]
    return out + closing


def _height(fragments: Fragments) -> int:
    """Lines the text takes (its last line ends with a newline)."""
    return "".join(f[1] for f in fragments).count("\n")


#: Columns one round takes in the score table with its categories (tun gem haz sum).
WIDE_ROUND = 19


def score_table(session: Session, width: int = 100) -> Fragments:
    """Every round so far by category (earlier rounds as sums when narrow), and the totals."""
    state = session.state
    done = len(state.round_scores[0]) if state.round_scores else 0
    title = f" Round {done} scored" if not state.is_over else " Final scores"
    out: Fragments = [(TITLE, title + "\n\n")]
    # Every cell is as wide as its header, so the columns line up: a round in full is
    # tun gem haz (4 each) and its sum (5) then 2 spaces; a narrow one its sum and 1.
    full = 16 + WIDE_ROUND * done + 8 <= width - 4  # room for every round's categories
    blocks = [(r, full or r == done - 1) for r in range(done)]
    head = [(DIM, f"  {'':<14}")]
    sub = [(DIM, f"  {'':<14}")]
    for r, wide in blocks:
        label = f"Round {r + 1}" if wide else f"R{r + 1}"
        head.append((DIM, f"{label:^17}  " if wide else f"{label:>5} "))
        sub.append((DIM, " tun gem haz  sum  " if wide else "      "))
    out += [*head, (DIM, f"{'Total':>8}\n"), *sub, ("", "\n")]
    totals = state.totals()
    best = max(totals) if totals else 0
    for seat in range(state.players):
        name = short_name(session.seats[seat])[:13]
        out.append(("bold" if session.is_human(seat) else "", f"  {name:<14}"))
        for r, wide in blocks:
            t, g, h = state.round_scores[seat][r]
            if wide:
                out += [("", f"{t:>4}{g:>4}{h:>4}"), ("bold", f"{t + g + h:>5}  ")]
            else:
                out.append(("bold", f"{t + g + h:>5} "))
        style = "fg:#ffd700 bold" if totals[seat] == best else "bold"
        out.append((style, f"{totals[seat]:>8}\n"))
    out.append(("", "\n"))
    doubled = [
        f"R{r} {short_name(session.seats[seat])}"
        for r, seat in sorted(session.doubled.items())
        if seat is not None and r <= done
    ]
    if doubled:
        out.append((DIM, f"  Most gems, treasure doubled: {', '.join(doubled)}\n"))
    for n, row in enumerate(state.tiebreak_scores, start=1):
        cells = ", ".join(
            f"{state.names[s]} {row[s]}" for s in range(state.players) if s in state.contenders
        )
        out.append((DIM, f"  Tie-break {n}: {cells}\n"))
    if not state.is_over:
        out.append((DIM, "  tun = tunnels, gem = treasure, haz = hazards and tools\n"))
        out.append((DIM, "  Enter to continue.\n"))
    return out


def result(session: Session, width: int = 100) -> Fragments:
    """The end of the game: who won, the table, and the log's path."""
    state = session.state
    if state.mode == "solo":
        out = solo_view.result(session)
    else:
        names = " and ".join(state.names[s] for s in state.winners)
        won = "wins" if len(state.winners) == 1 else "share the win"
        human_won = any(session.is_human(s) for s in state.winners) and len(session.humans) == 1
        headline = "You win!" if human_won else f"{names} {won}."
        out = [("fg:#ffd700 bold", f"  {headline}\n\n"), *score_table(session, width)]
    if session.log_path is not None:
        out += [("", "\n"), (DIM, "  Log: "), ("", f"{session.log_path}\n")]
    undo = " · u: undo your last move" if session.can_undo() else ""
    out += [(DIM, f"\n  v: review the game{undo} · q: leave\n")]
    return out
