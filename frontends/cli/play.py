"""``dice-miner play``: a game in the terminal, you against bots (or friends at one keyboard).

With no arguments it starts a three-player game against two bots with a fresh
seed, logged to the per-user data directory. ``--resume LOG`` continues a
logged game. Quitting at any point keeps the log: every move is fsynced as it
is made.
"""

from __future__ import annotations

import argparse
import secrets
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from core import (
    DEFAULT_LEVEL,
    DEFAULT_SAMPLES,
    DEFAULT_SOLO_SAMPLES,
    GAME_MODES,
    DiceMinerError,
    Game,
    LogLocked,
    SetupError,
    TornRecord,
    bot_kind,
    check_seats,
    levels_help,
    second_person,
    solo_score,
)
from frontends.cli.args import EXIT_USAGE, positive_int
from frontends.cli.launcher import command
from frontends.cli.saved import LAST, SavedGame, data_dir, last_unfinished
from frontends.cli.tui.table import BOT_NAMES, Seat, bot_seat, default_bot, seats_from_names

if TYPE_CHECKING:  # imported when the screen opens, not at start-up
    from frontends.cli.tui.session import Session


class PlayError(DiceMinerError):
    """Options that cannot make a game (reported in one line, exit code 2)."""


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``play`` subcommand."""
    p = sub.add_parser(
        "play",
        help="play in the terminal against bots (or friends at one keyboard)",
        description="Play Dice Miner in the terminal. With no options: you against two bots.",
    )
    p.add_argument("--players", type=int, choices=(2, 3, 4), help="seats at the table (default 3)")
    p.add_argument(
        "--bots",
        metavar="SPEC",
        help="the bots: a number, or levels or kinds separated by commas, e.g. hard,easy "
        f"(default {DEFAULT_LEVEL}; by strength: {levels_help()})",
    )
    p.add_argument("--seed", type=int, help="the game's seed (default: a fresh one)")
    p.add_argument(
        "--hotseat", action="store_true", help="several people at one keyboard, taking turns"
    )
    p.add_argument(
        "--name", action="append", metavar="NAME", help="your name (repeat it for --hotseat)"
    )
    p.add_argument("--solo", action="store_true", help="the solo game")
    p.add_argument("--log", metavar="FILE", type=Path, help="where to log the game")
    p.add_argument(
        "--resume",
        metavar="LOG",
        type=Path,
        help=f"continue a logged game; '{LAST}': the last unfinished one of the data folder",
    )
    p.add_argument(
        "--pace",
        type=float,
        default=0.4,
        metavar="SECONDS",
        help="pause between bot moves (default 0.4)",
    )
    p.add_argument(
        "--practice",
        action="store_true",
        help="a practice game: you may undo even what the dice have shown (alone against "
        "bots, or --solo; the log says so)",
    )
    p.add_argument("--fast", action="store_true", help="bots move instantly")
    p.add_argument("--ascii", action="store_true", help="plain ASCII glyphs for the dice")
    p.add_argument(
        "--hints",
        action="store_true",
        help="the hint key (t) at one keyboard too (it is on against bots and alone)",
    )
    p.add_argument(
        "--samples",
        type=positive_int,
        metavar="N",
        help="sampled futures per position for the hints and the review (default: "
        f"the analysis's, {DEFAULT_SAMPLES}; solo {DEFAULT_SOLO_SAMPLES}): fewer is quicker",
    )
    p.set_defaults(run=run)


# -- options into seats ---------------------------------------------------------


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``n`` things in words that agree: ``"1 bot seat"``, ``"2 kinds"``, ``"3 people"``."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def _bot_kinds(spec: str | None) -> tuple[int | None, list[str] | None]:
    """``--bots`` as a count or a list of kinds."""
    if spec is None:
        return None, None
    spec = spec.strip()
    if spec.isdigit():
        return int(spec), None
    kinds = [k.strip() for k in spec.split(",") if k.strip()]
    try:
        return None, [bot_kind(kind) for kind in kinds]
    except ValueError as error:
        raise PlayError(str(error)) from None


def table_from_options(args: argparse.Namespace) -> tuple[Seat, ...]:
    """The seats the options ask for: people first, then bots."""
    count, kinds = _bot_kinds(args.bots)
    names = [n.strip() for n in args.name or []]
    if args.hotseat:
        bots = count if count is not None else len(kinds or [])
        players = args.players or (len(names) + bots if names else 3)
    else:
        if len(names) > 1:
            raise PlayError("several --name options need --hotseat")
        if args.players:
            players = args.players
        elif count is not None:  # --bots 3: three bots and you, as --bots a,b,c would be
            players = 1 + count
        else:
            players = 1 + len(kinds) if kinds and len(kinds) > 1 else 3
        bots = players - 1
        if count is not None and count != bots:
            raise PlayError(
                f"--bots {count} with {players} players: without --hotseat, "
                f"you play one seat and bots the other {bots}"
            )
    if not 2 <= players <= 4:
        raise PlayError(f"a game has 2 to 4 players, not {players}")
    humans = players - bots
    if humans < 1 or bots < 0:
        raise PlayError(
            f"{counted(bots, 'bot')} {'leaves' if bots == 1 else 'leave'} no seat for a person "
            f"in a {players}-player game"
        )
    if not kinds:
        kinds = [default_bot()]
    if len(kinds) == 1:
        kinds = kinds * bots
    if len(kinds) != bots:
        raise PlayError(
            f"--bots names {counted(len(kinds), 'kind')} for {counted(bots, 'bot seat')}"
        )
    if not names:
        names = ["You"] if humans == 1 else [f"Player {n + 1}" for n in range(humans)]
    if len(names) != humans:
        raise PlayError(
            f"{counted(len(names), 'name')} for {counted(humans, 'person', 'people')} "
            "at the keyboard"
        )
    seats = [Seat(n) for n in names]
    free = [n for n in BOT_NAMES if n.lower() not in {m.lower() for m in names}]
    seats += [bot_seat(name, kind) for name, kind in zip(free, kinds, strict=False)]
    return tuple(seats)


# -- where logs go -------------------------------------------------------------


def default_log(seed: int) -> Path:
    """A new log file named by today's date and the seed, never overwriting one."""
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"game-{time.strftime('%Y%m%d')}-seed{seed}"
    path, n = folder / f"{stem}.dmlog", 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.dmlog"
    return path


def check_new_log(path: Path) -> None:
    """Refuse a ``--log`` that cannot be a new log, saying what is wrong with it."""
    if path.is_dir():
        raise PlayError(
            f"{path} is a folder; --log names the game's log file, e.g. {path / 'game.dmlog'}"
        )
    if path.exists() or path.is_symlink():
        raise PlayError(
            f"{path} already exists; pick another --log, or continue the game it holds "
            f"with: {command('play', '--resume', path)}"
        )
    folder = path.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise PlayError(f"cannot log the game to {path}: the folder {folder} {what}")


def open_log(path: Path) -> Game:
    """The logged game to continue, or why not with what to do about it.

    A finished game is read into memory, never opened for writing: nothing a
    player does with it (an undo) may change its log, a sample in ``replays/`` say.
    """
    try:
        finished = Game.load(path)
        if finished.state.is_over or finished.state.facts.secret_dice:
            return finished  # to be shown: a secret game's dice are its host's to roll
        return Game.open(path)
    except TornRecord as exc:
        raise PlayError(
            f"{exc}\nThe game stopped while writing its last move. Drop that unfinished "
            f"record (its bytes are kept aside) with: {command('log', 'repair', path)}\n"
            f"then resume again."
        ) from None
    except LogLocked as exc:
        raise PlayError(
            f"{exc}: the game is open elsewhere (another terminal, or a web server); "
            "close it there first"
        ) from None


# -- running -------------------------------------------------------------------


def start(args: argparse.Namespace) -> tuple[Game, tuple[Seat, ...], Path, list[str]]:
    """The game the options ask for: resumed from a log, or new."""
    if args.resume is not None:
        given = [f"--{k}" for k in ("players", "bots", "seed", "name", "log") if getattr(args, k)]
        given += [f"--{k}" for k in ("hotseat", "solo", "practice") if getattr(args, k)]
        if given:
            raise PlayError(
                f"--resume continues the game as it was set up; drop {', '.join(given)}"
            )
        path = last_log() if str(args.resume) == LAST else args.resume
        game = open_log(path)
        seats, notes = seats_from_names(game.state.names)
        return game, seats, path, notes
    if args.solo:
        if "solo" not in GAME_MODES:
            raise PlayError("the solo game is not available yet")
        crowd = [f"--{k}" for k in ("players", "bots", "hotseat") if getattr(args, k)]
        if crowd or len(args.name or []) > 1:
            raise PlayError(f"the solo game has one player: drop {', '.join(crowd) or '--name'}")
        seats = (Seat((args.name or ["You"])[0]),)
        mode = "solo"
    else:
        seats, mode = table_from_options(args), "multi"
    try:  # a name the boards can draw, that passes for no bot and no other seat
        check_seats([(seat.name, seat.bot) for seat in seats])
    except SetupError as refused:
        raise PlayError(f"--name: {refused}") from None
    seed = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
    path = args.log if args.log is not None else default_log(seed)
    check_new_log(path)
    persons = [s.name for s in seats if s.bot is None]
    if args.practice and len(persons) != 1:
        raise PlayError(
            "--practice is for one person against bots, or --solo: between people, what the "
            "dice have shown is never taken back"
        )
    practice = persons[0] if args.practice else ""
    game = Game.new([s.name for s in seats], seed, mode=mode, log=path, practice=practice)
    return game, seats, path, []


#: The options that set up a new game: with any of them, nothing is offered to continue.
NEW_GAME_OPTIONS = (
    "players",
    "bots",
    "seed",
    "name",
    "log",
    "resume",
    "hotseat",
    "solo",
    "practice",
)


def last_log() -> Path:
    """``--resume last``: the log of the data folder's last unfinished game."""
    saved = last_unfinished(data_dir())
    if saved is None:
        raise PlayError(
            f"there is no unfinished game in {data_dir()}; start one with: {command('play')}"
        )
    return saved.path


def offer_to_continue(args: argparse.Namespace, ask=input) -> None:
    """A plain ``play`` (no options that set up a game) with an unfinished game in the
    data folder asks whether to continue it, and if so sets ``--resume`` to it: a
    player who quit should not have to find the log's path to go on."""
    if any(getattr(args, option) for option in NEW_GAME_OPTIONS):
        return
    saved = last_unfinished(data_dir())
    if saved is not None and _wants(saved, ask):
        args.resume = saved.path


def _wants(saved: SavedGame, ask) -> bool:
    print(f"Your last game is not finished: {saved.summary()}.")
    print(f"  ({saved.path})")
    while True:
        try:
            answer = ask("Continue it? [Y/n] ").strip().lower()
        except EOFError:
            answer = "n"
        if answer in ("", "y", "yes"):
            return True
        if answer in ("n", "no"):
            print(f"A new game, then; that one stays ({command('play', '--resume', LAST)}).")
            return False
        print("Answer y (continue it) or n (a new game).")


def run(args: argparse.Namespace) -> int:
    """Play until the game ends or the player quits; the log keeps everything."""
    from frontends.cli.tui.app import PlayApp
    from frontends.cli.tui.session import Session

    if args.pace < 0:
        raise PlayError("--pace is a number of seconds, 0 or more")
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise PlayError(f"play needs a terminal; '{command('demo')}' shows a game without one")
    offer_to_continue(args)
    game, seats, path, notes = start(args)
    try:
        session = Session(
            game,
            seats,
            path.resolve(),
            hints=True if args.hints else None,
            samples=args.samples,
            read_only=game.state.is_over or game.state.facts.secret_dice,
        )
        for line in [*notes, f"The game is logged in {path}"]:
            session.note(line)
        ascii_only = args.ascii or "utf" not in (sys.stdout.encoding or "").lower()
        PlayApp(session, pace=0.0 if args.fast else args.pace, ascii_only=ascii_only).run()
    finally:
        game.close()
    code, words = farewell(session, game, path.resolve())
    print(words)
    return code


def farewell(session: Session, game: Game, path: Path) -> tuple[int, str]:
    """The exit code and what is printed after the screen closes: the result, how to go
    on, or (the log could not keep a move) one line saying so, never claiming a save."""
    if session.failed is not None:
        again = command("play", "--resume", path)
        return EXIT_USAGE, (
            f"The game stopped: {session.failed}; its log {path} keeps the moves made "
            f"before. Free some space, then: {again}"
        )
    return 0, summary(game, path)


def summary(game: Game, path: Path) -> str:
    """What is printed after the screen closes: the result, or how to continue."""
    state = game.state
    if state.is_over and state.mode == "solo":
        final = solo_score(state)
        return f"{final.score} points: {final.rating}.\nThe game's log: {path}"
    if state.is_over:
        names = " and ".join(state.names[s] for s in state.winners)
        totals = ", ".join(f"{n} {t}" for n, t in zip(state.names, state.totals(), strict=True))
        won = "wins" if len(state.winners) == 1 else "share the win"
        return second_person(f"{names} {won} ({totals}).\nThe game's log: {path}")
    if state.facts.secret_dice:
        return (
            f"This game's dice come from a secret its host keeps until the game ends, so it "
            f"was only shown here; play it on where it was started. Its log: {path}"
        )
    words = f"The game is saved in {path}\nContinue it with: {command('play', '--resume', path)}"
    if path.parent == data_dir().resolve():  # where --resume last and a plain play look
        words += f"\n(or {command('play', '--resume', LAST)}; {command('play')} offers it too)"
    return words
