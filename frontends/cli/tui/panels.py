"""The panels around the board: header, scores, troves, events, status line and keys.

Each returns prompt-toolkit formatted text for a given width. Scores are read
from the projected state; the live per-category breakdown of the round in
progress comes from ``core.read.views.score_so_far``, as the web's does.
"""

from __future__ import annotations

import textwrap

from core import (
    EXCAVATION,
    HEROES,
    MAGIC,
    OVER,
    REPLENISH,
    SETUP,
    SLOTS,
    SOLO,
    Breakdown,
    GameState,
    Refill,
    ShareBeer,
    SpendMagic,
    TakeDie,
    die_words,
    face_kind,
    face_words,
    score_so_far,
    second_person,
    slot_words,
    where,
)
from frontends.cli.tui.board import REVIEW_MARKS, Fragments, OnClick, frag
from frontends.cli.tui.glyphs import LEGEND, Glyphs, die_style, kind_style
from frontends.cli.tui.session import Session
from frontends.cli.tui.table import short_name

PHASE_WORDS = {
    SETUP: "Choosing heroes",
    EXCAVATION: "Excavation",
    MAGIC: "Magic",
    REPLENISH: "Replenish",
    SOLO: "Digging",
    OVER: "Game over",
}
DIM = "fg:#8a8a8a"
TITLE = "fg:#ffd700 bold"
MARK = "fg:#ffd700 bold"
BAR = "bg:#303030"


def turn_words(session: Session) -> str:
    """Whose turn it is and what they are doing."""
    state = session.state
    seat = state.to_act()
    if seat is None:
        if state.mode == "solo":
            return "the game is scored"
        winners = " and ".join(state.names[s] for s in state.winners)
        return second_person(f"{winners} {'wins' if len(state.winners) == 1 else 'share the win'}")
    mine = session.is_human(seat) and len(session.humans) == 1
    name = "Your" if mine else f"{state.names[seat]}'s"
    return f"{name} {doing_words(state)}"


def doing_words(state: GameState) -> str:
    """What the seat to act is doing: ``"turn (2 dice)"``, ``"magic turn"``..."""
    return {
        SETUP: "hero choice",
        EXCAVATION: f"turn ({state.picks_left} dice)" if state.picks_left > 1 else "turn",
        MAGIC: "magic turn",
        REPLENISH: "cache",
    }.get(state.phase, "turn")


def header(session: Session, width: int) -> Fragments:
    """Title, round, phase, whose turn, seed."""
    state = session.state
    if state.mode == "solo":
        where = "Solo"
    elif state.tiebreak:
        where = f"Tie-break {state.tiebreak}"
    else:
        where = f"Round {max(state.round, 1)}/3"
    left = [
        (f"{BAR} fg:#ffd700 bold", " DICE MINER "),
        (BAR, f" {where} · {PHASE_WORDS.get(state.phase, '')} · "),
        (f"{BAR} fg:#ffffff bold", turn_words(session)),
    ]
    right = f"seed {state.seed} "
    pad = max(1, width - sum(len(t) for _, t in left) - len(right))
    return [*left, (BAR, " " * pad), (f"{BAR} {DIM}", right)]


def scores(session: Session, width: int) -> Fragments:
    """Running totals by round, and each seat's score by category if the round ended now.

    A narrow panel drops the categories first, then the rounds: the totals always show."""
    state = session.state
    live = score_so_far(state)  # a seat out of a tie-break: None
    col = 4 if width >= 46 else 3  # round columns shrink first when space is short
    name_w = max(4, min(12, width - 29 - 3 * col))
    now = width >= 2 + name_w + 3 * col + 6 + 17  # room for "│ now tun gem haz"
    rounds = width >= 2 + 5 + 3 * col + 6
    if not rounds:
        name_w = max(4, min(12, width - 9))
    elif not now:
        name_w = max(4, min(12, width - 9 - 3 * col))
    rounds_head = "".join(f"{'R' + str(r + 1):>{col}}" for r in range(3)) if rounds else ""
    out: Fragments = [
        (TITLE, f" {'Scores':<{name_w + 1}}"),
        (DIM, f"{rounds_head} Total{' │ now tun gem haz' if now else ''}\n"),
    ]
    totals = state.totals()
    best = max(totals) if any(state.round_scores) else None
    for seat in range(state.players):
        played = state.round_scores[seat]
        cells = "".join(
            f"{sum(played[r]):>{col}}" if r < len(played) else f"{'·':>{col}}" for r in range(3)
        )
        name = short_name(session.seats[seat])[:name_w]
        out += [
            (MARK, f" {'▶' if seat == state.to_act() else ' '}"),
            ("bold" if session.is_human(seat) else "", f"{name:<{name_w}}"),
            ("", cells if rounds else ""),
            ("fg:#ffd700 bold" if totals[seat] == best else "bold", f"{totals[seat]:>6}"),
        ]
        if now:
            out += [(DIM, " │    "), *_now_cells(live[seat] if live else None)]
        out.append(("", "\n"))
    return out


def _now_cells(b: Breakdown | None) -> Fragments:
    """A seat's tun gem haz if the round ended now; dots for a seat out of the tie-break."""
    if b is None:
        return [(DIM, f"{'·':>3}{'·':>4}{'·':>4}")]
    return [
        ("fg:#d78700", f"{b.tunnel:>3}"),
        ("fg:#00afaf", f"{b.treasure:>4}"),
        ("fg:#ff5f5f" if b.hazard < 0 else "fg:#d7d7d7", f"{b.hazard:>4}"),
    ]


def _hero_cells(session: Session, glyphs: Glyphs, seat: int, named: bool) -> Fragments:
    state = session.state
    if state.mode == "solo":  # rule D8: no heroes
        return []
    hero = state.heroes[seat] if state.heroes else None
    most = max(len(f) for f in HEROES.values())
    if not hero:  # not chosen yet: the column stays, so every trove starts in one place
        return [("", " " * ((14 if named else 0) + 3 * most)), (DIM, "│ ")]
    spent = state.hero_spent[seat] if state.hero_spent else frozenset()
    out: Fragments = [(DIM, f"{hero:<14}")] if named else []
    faces = state.hero_faces(seat)
    for n, face in enumerate(faces):
        style = kind_style(face_kind(face), face, dim=n in spent)
        out += [(style, glyphs.face(face).rjust(2)), ("", " ")]
    return [*out, ("", "   " * (most - len(faces))), (DIM, "│ ")]


def trove_lines(
    session: Session, glyphs: Glyphs, width: int, on_click: OnClick | None = None
) -> list[Fragments]:
    """Every trove, one seat after another; long troves wrap under themselves.

    Spent magic dice are dimmed, cached dice underlined.
    """
    state = session.state
    lines: list[Fragments] = []
    wide = width >= 100  # the hero's name, and room for long names
    name_w = 13 if wide else 9
    for seat in range(state.players):
        name = short_name(session.seats[seat])[: name_w - 1]
        lead: Fragments = [
            (MARK, f" {'▶' if seat == state.to_act() else ' '}"),
            ("bold" if session.is_human(seat) else "", f"{name:<{name_w}}"),
            *_hero_cells(session, glyphs, seat, wide),
        ]
        dice = []
        marks = session.review_marks()
        for die in session.trove_order(seat):
            face = state.faces[die]
            style = die_style(die, face, dim=die in state.spent)
            if die in marks:  # the review's step names it
                style = REVIEW_MARKS[marks[die]]
            if state.cached and die in state.cached[seat]:
                style += " underline"
            if die in session.chooser.picked and seat == session.human_to_act():
                style = "bg:#ffd700 fg:#000000 bold"
            dice.append(frag(style, glyphs.face(face).rjust(2), on_click, ("die", die)))
            dice.append(("", " "))
        lead_w = sum(len(f[1]) for f in lead)
        per_line = 2 * max(4, (width - lead_w - 1) // 3)
        if not dice:
            lines.append([*lead, (DIM, "no dice yet")])
        for start in range(0, len(dice), per_line):
            prefix = lead if start == 0 else [("", " " * lead_w)]
            lines.append([*prefix, *dice[start : start + per_line]])
    return lines


def troves(session: Session, glyphs: Glyphs, width: int, on_click: OnClick | None) -> Fragments:
    """The troves panel as one block of text."""
    note = "  (hero faces │ dice)" if session.state.mode != "solo" else ""
    out: Fragments = [(TITLE, " Troves" if note else " Trove"), (DIM, f"{note}\n")]
    for line in trove_lines(session, glyphs, width, on_click):
        out += [*line, ("", "\n")]
    return out


def troves_height(session: Session, glyphs: Glyphs, width: int) -> int:
    """Lines the troves panel needs."""
    return 1 + len(trove_lines(session, glyphs, width))


LINE_STYLES = {"round": "fg:#ffd700 bold", "undo": "fg:#5fd7ff", "info": DIM}


def events(session: Session, height: int, width: int) -> Fragments:
    """The last events in words, newest at the bottom; long ones wrap, indented.

    Only whole events are shown (the newest one aside, if it alone is too long)."""
    rows: list[tuple[str, str]] = []
    for line in reversed(session.lines):
        style = LINE_STYLES.get(line.kind, "")
        if line.kind == "move":
            style = "" if session.is_human(line.seat) else "fg:#bcbcbc"
        text = line.text
        if line.seq in session.undone:  # its command was undone: it no longer counts
            style, text = f"{DIM} strike", f"{text} (undone)"
        wrapped = textwrap.wrap(text, max(20, width - 4), subsequent_indent="    ")
        if rows and len(rows) + len(wrapped) > height - 1:
            break  # whole events only: a wrapped one is not shown from its middle
        rows[:0] = [(style, f"  {part}\n") for part in wrapped]
        if len(rows) >= height - 1:
            break
    return [(TITLE, " Events\n"), *rows[max(0, len(rows) - (height - 1)) :]]


#: Lines the status line may wrap to before a message is cut short.
STATUS_LINES = 3


def status_lines(
    session: Session, width: int, error: str | None = None
) -> tuple[list[str], str | None]:
    """The status message wrapped to ``width`` (a long refusal must be read whole), and
    the die under the cursor if it fits after the last line. ``error`` is a refusal of
    the command line's own (a line that does not parse), shown instead of the message."""
    text = error or session.message()[0]
    room = max(10, width - 4)  # after the " ✗ " or " ▸ " mark and a space
    lines = textwrap.wrap(text, room, max_lines=STATUS_LINES, placeholder=" …") or [""]
    note = None if error else cursor_words(session)
    if note is not None:
        note = f"   [{note}]"
        if len(lines[-1]) + len(note) > room:
            note = None
    return lines, note


def cursor_words(session: Session) -> str | None:
    """What the cursor is on, in words: a die and its face, or a hero face."""
    cursor, state = session.chooser.cursor, session.state
    if cursor is None or cursor[0] == "hero":
        return None
    if cursor[0] == "die":
        words = die_words(cursor[1], state.faces[cursor[1]])
        k = where(state.mountain, cursor[1])
        return words if k is None else f"{words}, {slot_words(*SLOTS[k])}"
    if cursor[0] == "face":
        faces = state.hero_faces(session.input_seat())
        if cursor[1] < len(faces):
            return f"hero face h{cursor[1]} ({face_words(faces[cursor[1]])})"
    return None


def status(
    session: Session, glyphs: Glyphs, width: int = 1000, error: str | None = None
) -> Fragments:
    """The status line: a refusal in red, else what to do now; and the die under the cursor.

    A message longer than the line wraps (up to ``STATUS_LINES``), indented under itself.
    """
    lines, note = status_lines(session, width, error)
    if error or session.message()[1] == "error":  # a red mark, then a space
        out: Fragments = [("bg:#af0000 fg:#ffffff bold", " ✗ ")]
        style, lead = "fg:#ff8787 bold", " "
    else:
        out = [("fg:#5fd7ff bold", " ▸ ")]
        style, lead = "", ""
    out.append((style, lead + f"\n   {lead}".join(lines)))
    if note:
        out.append((DIM, note))
    return out


def status_height(session: Session, width: int, error: str | None = None) -> int:
    """Lines the status line needs at ``width``."""
    return len(status_lines(session, width, error)[0])


KEYS = {
    "hero": [("↑↓", "move"), ("Enter", "choose"), ("1-6", "pick")],
    "take": [("←↑↓→ hjkl", "move"), ("Enter", "take"), ("b", "share a beer")],
    "magic": [("←↑↓→", "move"), ("Enter", "spend this"), ("e", "end magic turn")],
    "spend": [("←↑↓→", "move"), ("Enter", "pick"), ("space", "pick/unpick"), ("Esc", "back")],
    "cache": [("←↑↓→", "move"), ("space", "pick"), ("Enter", "cache"), ("Esc", "clear")],
    "solo": [
        ("←↑↓→ hjkl", "move"),
        ("Enter", "take"),
        ("m", "magic"),
        ("r", "refill"),
        ("s", "stop"),
    ],
    "recycle": [("←↑↓→", "move"), ("Enter", "pick"), ("space", "pick/unpick"), ("Esc", "back")],
    "menu": [("↑↓", "move"), ("Enter", "choose"), ("Esc", "cancel")],
}
#: After the keys of the moment, as many of these as fit (quit before the rules: it must show).
ALWAYS = [("u", "undo"), ("?", "help"), ("q", "quit"), ("R", "rules"), (":", "command")]
#: A spectator's keys (``./play watch``): it cannot move, undo or type a command.
WATCHING = [("?", "help"), ("q", "leave"), ("R", "rules")]
#: Keys shown only while their move is legal (no "share a beer" without a beer, no "take"
#: when the solo game's top dice can none be taken), by what the key does.
ONLY_IF_LEGAL = {"share a beer": ShareBeer, "magic": SpendMagic, "refill": Refill, "take": TakeDie}


def keys(session: Session, width: int) -> Fragments:
    """The keys that work now (as many as fit)."""
    if session.overlay == "handover":
        pairs = [("Enter", "play"), ("q", "quit")]
    elif session.overlay == "review":
        pairs = [("← →", "step"), ("Esc", "close the review"), ("q", "quit")]
    elif session.overlay == "over" and session.spectating:
        pairs = [("v", "review"), ("?", "help"), ("q", "leave")]
    elif session.overlay == "over":
        pairs = [("v", "review"), ("u", "undo"), ("?", "help"), ("q", "quit")]
        pairs = [pair for pair in pairs if pair[0] != "u" or session.can_undo()]
    elif session.overlay == "leave":
        pairs = [("y", "leave for good"), ("n Esc", "stay"), ("q", "quit")]
    elif session.overlay == "rules":
        pairs = [("→ Enter", "next page"), ("←", "back"), ("Esc", "close"), ("q", "quit")]
    elif session.overlay in ("round", "help"):
        pairs = [("Enter", "continue"), ("q", "quit")]
    elif session.spectating:
        pairs = list(WATCHING)
    else:
        pairs = [
            (key, what)
            for key, what in KEYS.get(session.chooser.mode(), [])
            if what not in ONLY_IF_LEGAL or session.chooser.can(ONLY_IF_LEGAL[what])
        ]
        if session.hints_on and session.human_to_act() is not None:
            pairs.append(("t", "hide the hint" if session.hint is not None else "hint"))
        pairs += [pair for pair in ALWAYS if pair[0] != "u" or session.can_undo()]
        if session.can_leave:
            pairs.append(("L", "leave the game"))
    if session.spectating:  # q leaves the game going on, as its players see it
        pairs = [(key, "leave" if what == "quit" else what) for key, what in pairs]
    out: Fragments = []
    used = 0
    for key, what in pairs:
        size = len(key) + len(what) + 5
        if used + size > width:
            break
        out += [("bg:#444444 fg:#ffffff bold", f" {key} "), ("", f" {what}  ")]
        used += size
    return out


def legend(glyphs: Glyphs, width: int = 1000) -> Fragments:
    """What the glyphs mean, each on a die of its colour, wrapped to ``width``."""
    out: Fragments = [("", " ")]
    used = 1
    for face, words in LEGEND:
        kind = "tunnel" if face == "beer" else face_kind(face)
        item = len(words) + 6
        if used + item > width:
            out.append(("", "\n "))
            used = 1
        out += [(kind_style(kind, face), glyphs.cell(face, 3)), (DIM, f" {words}  ")]
        used += item
    return out
