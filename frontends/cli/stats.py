"""``dice-miner stats``: the player's record, read from the games logged in the data folder.

Every terminal game is logged there (``play``), so the folder is the history: wins and
losses against each kind of bot, the best scores, and the solo games' ratings in the
order they were played (the solo score sheet's bands, rule D10). Only finished games
count; a game at one keyboard between several people is counted apart, since whose
record it is cannot be told.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterable
from pathlib import Path

from attrs import define, field, frozen

from core import RATINGS, solo_score
from frontends.cli.saved import SavedGame, data_dir, saved_games

#: How many best scores, and how many solo games of the history, are listed.
BEST = 5
HISTORY = 20


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``stats`` subcommand."""
    p = sub.add_parser(
        "stats",
        help="your record: wins and losses by opponent, best scores, solo ratings",
        description="Your record across the games logged in the data folder: wins and losses "
        "against each kind of bot, your best scores, and your solo games' ratings.",
    )
    p.add_argument(
        "--data",
        metavar="FOLDER",
        type=Path,
        help=f"the folder of game logs (default: {data_dir()})",
    )
    p.set_defaults(run=run)


@define
class Versus:
    """The record against one kind of opponent: head to head, and the games won."""

    games: int = 0
    ahead: int = 0  # games you ended with more points than it
    behind: int = 0
    level: int = 0  # the same points
    won: int = 0  # games you won (alone or shared), whoever else was there


@frozen
class Score:
    """One person's final points in one game."""

    points: int
    name: str
    against: str
    played: float
    won: bool


@define
class Record:
    """Everything the stats say, read from the finished games."""

    finished: int = 0
    unfinished: int = 0
    alone: int = 0  # games of one person against bots
    alone_won: int = 0
    versus: dict[str, Versus] = field(factory=dict)
    together: int = 0  # games of several people at one keyboard
    together_wins: dict[str, int] = field(factory=dict)
    best: list[Score] = field(factory=list)
    #: (played, score, rating) of each solo game, oldest first
    solo: list[tuple[float, int, str]] = field(factory=list)


def record(games: Iterable[SavedGame]) -> Record:
    """The record of these games."""
    out = Record()
    for saved in sorted(games, key=lambda g: g.played):
        state = saved.state
        if not state.is_over:
            out.unfinished += 1
            continue
        out.finished += 1
        if state.mode == "solo":
            final = solo_score(state)
            out.solo.append((saved.played, final.score, final.rating))
            continue
        _count_table(out, saved)
    out.best.sort(key=lambda s: (-s.points, s.played))
    del out.best[BEST:]
    return out


def _count_table(out: Record, saved: SavedGame) -> None:
    state = saved.state
    totals = state.totals()
    persons = saved.persons
    for seat in persons:
        out.best.append(
            Score(
                totals[seat],
                saved.names[seat],
                ", ".join(saved.opponents(seat)),
                saved.played,
                seat in state.winners,
            )
        )
    if len(persons) != 1:
        out.together += 1
        for seat in state.winners:
            out.together_wins[saved.names[seat]] = out.together_wins.get(saved.names[seat], 0) + 1
        return
    you = persons[0]
    won = you in state.winners
    out.alone += 1
    out.alone_won += won
    for seat in range(state.players):
        if seat == you:
            continue
        # a bot by its logged name, which says its kind: "Brok (greedy)"
        versus = out.versus.setdefault(state.names[seat], Versus())
        versus.games += 1
        versus.won += won
        if totals[you] > totals[seat]:
            versus.ahead += 1
        elif totals[you] < totals[seat]:
            versus.behind += 1
        else:
            versus.level += 1


def _date(when: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(when))


def _times(n: int) -> str:
    return f"{n} game{'s' if n != 1 else ''}"


def render(rec: Record, folder: Path) -> str:
    """The record as the terminal prints it."""
    if not rec.finished:
        more = f" ({_times(rec.unfinished)} not finished yet)" if rec.unfinished else ""
        return f"No finished games in {folder} yet{more}."
    lines = [f"{_times(rec.finished)} finished in {folder}", ""]
    if rec.unfinished:
        lines[0] += f" ({rec.unfinished} not finished)"
    if rec.alone:
        lines += [
            f"Against bots: {_times(rec.alone)}, {rec.alone_won} won",
            f"  {'opponent':<18}{'games':>6}{'you won':>9}{'ahead':>7}{'behind':>8}{'level':>7}",
        ]
        ranked = sorted(rec.versus.items(), key=lambda kv: (-kv[1].games, kv[0]))
        for name, v in ranked:
            lines.append(
                f"  {name[:17]:<18}{v.games:>6}{v.won:>9}{v.ahead:>7}{v.behind:>8}{v.level:>7}"
            )
        lines += ["  (ahead, behind, level: your points against that opponent's, game by game)", ""]
    if rec.together:
        wins = ", ".join(f"{n} {w}" for n, w in sorted(rec.together_wins.items()))
        lines += [f"At one keyboard: {_times(rec.together)} (wins: {wins or 'none'})", ""]
    if rec.best:
        lines.append("Best scores")
        for n, s in enumerate(rec.best, start=1):
            result = "won" if s.won else "lost"
            lines.append(
                f"  {n}. {s.points:>3}  {s.name} against {s.against}, {_date(s.played)}, {result}"
            )
        lines.append("")
    if rec.solo:
        best = max(score for _, score, _ in rec.solo)
        lines.append(f"Solo: {_times(len(rec.solo))}, best {best}")
        lines.append("  bands: " + ", ".join(f"{band} {low}+" for low, band in RATINGS))
        shown = rec.solo[-HISTORY:]
        if len(shown) < len(rec.solo):
            lines.append(f"  (the last {len(shown)})")
        for played, score, band in shown:
            lines.append(f"  {_date(played)}  {score:>3}  {'#' * (score // 5):<16} {band}")
        lines.append("")
    return "\n".join(lines).rstrip()


def run(args: argparse.Namespace) -> int:
    """Print the record of the data folder's games."""
    folder = args.data if args.data is not None else data_dir()
    print(render(record(saved_games(folder)), folder))
    return 0


__all__ = ["Record", "Score", "Versus", "record", "register", "render", "run"]
