"""The solo game's side panel and result: the score by category, the sequences, the
frozen gems and the neutralized hazards, the refills left (RULES.md section 4).

The score is ``core.modes.solo.scoring.solo_score`` of the projected state; this
module only lays it out.
"""

from __future__ import annotations

from core import RATINGS, SoloGameEnded, solo_score
from frontends.cli.tui.board import Fragments
from frontends.cli.tui.glyphs import Glyphs, die_style
from frontends.cli.tui.panels import DIM, TITLE
from frontends.cli.tui.session import Session


def _die(session: Session, glyphs: Glyphs, die: int) -> tuple[str, str]:
    face = session.state.faces[die]
    return (die_style(die, face), glyphs.cell(face, 3))


def side(session: Session, glyphs: Glyphs, width: int) -> Fragments:
    """Score so far, sequences, frozen and neutralized dice, refills and the bag."""
    state = session.state
    result = solo_score(state)
    b = result.breakdown
    out: Fragments = [(TITLE, " Score so far\n")]
    # a narrow panel shortens the words, never the points (the total must show)
    words_w = max(6, min(22, width - 8))
    short = words_w < 20
    for words, brief, points in (
        ("hazards neutralized", "hazards", b.hazards),
        ("loose treasure", "treasure", b.treasure),
        ("frozen treasure (x2)", "frozen x2", b.frozen),
        ("tunnel runs to 5", "runs to 5", b.tunnels),
    ):
        out += [
            (DIM, f"   {(brief if short else words)[:words_w]:<{words_w}}"),
            ("", f"{points:>4}\n"),
        ]
    out += [("bold", f"   {'total':<{words_w}}{result.score:>4}")]
    rating = f"  {result.rating}" if 3 + words_w + 4 + 2 + len(result.rating) <= width else ""
    out.append(("fg:#ffd700 bold", f"{rating}\n"))
    out.append((DIM, " Runs    "))
    for seq in state.solo.sequences:
        out += [_die(session, glyphs, d) for d in seq] + [("", "  ")]
    out.append(("", "\n" if state.solo.sequences else "none yet\n"))
    for title, pairs, joint in (
        (" Frozen  ", state.solo.frozen, " on "),
        (" Guarded ", state.solo.neutralized, " by "),
    ):
        out.append((DIM, title))
        for shown, (die, holder) in enumerate(pairs):
            if shown and shown % 2 == 0:
                out.append(("", "\n" + " " * len(title)))
            out += [
                _die(session, glyphs, die),
                (DIM, joint),
                _die(session, glyphs, holder),
                ("", "  "),
            ]
        out.append(("", "\n" if pairs else "none\n"))
    out.append(
        (
            DIM,
            f" Refills left {state.solo.refills_left} · bag {len(state.bag)} · "
            f"out of the game {len(state.solo.out_of_game)}\n",
        )
    )
    return out


def ending(session: Session) -> str:
    """Why the game ended, from its last event (the state does not keep it)."""
    game = session.game
    for _, event in game.events(max(0, game.seq - 1)):
        if isinstance(event, SoloGameEnded):
            if event.stopped:
                return "You stopped digging."
            return "You could do nothing more (no die to take, magic or refill)."
    return ""


def bands() -> list[str]:
    """The rating bands in words, ``"0-14 Disaster"`` ... ``"71+ Masterful"`` (rule D10)."""
    highs = [lowest - 1 for lowest, _ in RATINGS[1:]]
    return [
        f"{lowest}-{high} {name}" if high is not None else f"{lowest}+ {name}"
        for (lowest, name), high in zip(RATINGS, [*highs, None], strict=True)
    ]


def result(session: Session) -> Fragments:
    """The end of a solo game: why it ended, the score, its rating band and where the
    points came from."""
    final = solo_score(session.state)
    out: Fragments = [
        ("fg:#ffd700 bold", f"  {final.score} points: {final.rating}\n"),
        (DIM, f"  {ending(session)}\n\n"),
    ]
    b = final.breakdown
    for words, points in (
        ("hazards neutralized", b.hazards),
        ("loose treasure", b.treasure),
        ("frozen treasure (x2)", b.frozen),
        ("tunnel runs reaching 5", b.tunnels),
    ):
        out += [(DIM, f"  {words:<24}"), ("", f"{points:>4}\n")]
    out.append(("", "\n"))
    for n, band in enumerate(bands()):
        lead = "  " if n % 3 == 0 else " · "
        mine = band.split(" ", 1)[1] == final.rating
        out.append((DIM, lead))
        out.append(("fg:#ffd700 bold reverse", band) if mine else (DIM, band))
        if n % 3 == 2:
            out.append(("", "\n"))
    return out
