"""``dice-miner simulate``: play many seeded games between bots, log each, summarise.

    dice-miner simulate --players 4 --bots montecarlo,greedy --seed 1 --games 200 --out runs/
    dice-miner simulate --players 1 --bots montecarlo --games 1000     # solo games
    dice-miner simulate ... --out runs/ --resume    # go on with an interrupted series

The same arguments give byte-identical logs (they hold no wall-clock time). Logs
are written in one piece per game without fsync: a simulation can be run again.
A multiplayer summary gives wins and mean score per bot; a solo one (one seat,
one bot) gives the mean solo score and how many games fell in each rating band.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterable
from contextlib import ExitStack, contextmanager

from core import (
    GAME_MODES,
    RATINGS,
    DiceMinerError,
    GameResult,
    derive_seed,
    load_batches,
    log_name,
    logged_result,
    parse_bots,
    play_series,
    rating,
)
from core import bot_choices as choices
from frontends.cli.args import CliError, positive_int, seed_int

#: The exit code after Ctrl-C (128 + SIGINT), as ``main`` gives too.
EXIT_INTERRUPTED = 130


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``simulate`` subcommand."""
    p = sub.add_parser(
        "simulate",
        help="play many seeded games between bots and summarise them",
        description="Play GAMES complete games between bots (game i uses a seed derived "
        "from SEED and i), write one log per game into DIR, and print wins and mean "
        "score per bot and games per second (solo, --players 1: the mean solo score and "
        "the games per rating band). The same arguments give byte-identical logs.",
    )
    p.add_argument("--players", type=int, default=4, choices=(1, 2, 3, 4), help="seats (1: solo)")
    p.add_argument(
        "--bots",
        default="greedy",
        metavar="NAMES",
        help=f"bots by seat, comma-separated, repeated to fill the table "
        f"(by strength: {choices()}; default greedy)",
    )
    p.add_argument("--seed", type=seed_int, default=1, help="the series' seed (default 1)")
    p.add_argument("--games", type=positive_int, default=10, help="how many games (default 10)")
    p.add_argument("--out", metavar="DIR", help="write each game's log into DIR")
    p.add_argument(
        "--resume",
        action="store_true",
        help="read back the series' logs already in DIR instead of playing them again "
        "(an interrupted series goes on where it stopped; needs --out)",
    )
    p.add_argument(
        "--jobs",
        type=positive_int,
        default=1,
        help="play the games in this many processes (the same logs and figures; default 1)",
    )
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help="show a progress bar: auto = when the output is a terminal",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the series and print its summary (of the games played, if interrupted)."""
    try:
        bots = parse_bots(args.bots, args.players)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if args.players == 1 and "solo" not in GAME_MODES:
        raise CliError("the solo game is not available in this version")
    if args.resume and args.out is None:
        raise CliError("--resume reads the logs in --out: name the directory")
    resumed = _prepare(args, bots) if args.out is not None else []
    skip = {result.index for result in resumed}
    started = time.perf_counter()
    results: list[GameResult] = []
    interrupted = False
    try:
        with _progress(args) as bar:
            games = play_series(
                bots, args.seed, args.games, out_dir=args.out, jobs=args.jobs, skip=skip
            )
            for result in bar(games, total=args.games - len(skip)) if bar else games:
                results.append(result)
    except KeyboardInterrupt:
        interrupted = True
    elapsed = time.perf_counter() - started
    summary = summarise(results, args, elapsed, resumed)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(summary_text(summary))
    if interrupted:
        print(f"dice-miner: {interrupted_note(args, resumed + results)}", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


def interrupted_note(args: argparse.Namespace, results: list[GameResult]) -> str:
    """What an interrupted series leaves: the games summarised, the logs in --out.

    A log is written in one piece, so one is cut short only if the interrupt came
    between creating its file and writing it; such a file (made by this run, as
    ``_prepare`` found none there) is removed, so every log left is whole.
    """
    note = f"interrupted after {len(results)} of {args.games} games (the summary is theirs)"
    if args.out is None:
        return note
    kept, removed = len(results), []
    played = {result.index for result in results}  # their logs were written before they came
    for index in range(args.games):
        path = os.path.join(args.out, log_name(index, derive_seed(args.seed, index)))
        if index in played or not os.path.exists(path):
            continue
        try:  # another process's game (--jobs), or the one the interrupt cut short
            load_batches(path)
        except DiceMinerError:
            os.remove(path)
            removed.append(os.path.basename(path))
            continue
        kept += 1
    note += f"; {kept} whole logs in {args.out}"
    if removed:
        note += f" (removed {', '.join(removed)}: cut short)"
    return note + "; the same command with --resume goes on"


def _prepare(args: argparse.Namespace, bots: list[str]) -> list[GameResult]:
    """Make DIR; refuse to start if a log to write is already there, or, with
    ``--resume``, read each one back (refusing one that is not that game's, whole)."""
    out, seed, games = args.out, args.seed, args.games
    if not out:
        raise CliError("--out needs the name of a directory")
    if os.path.exists(out) and not os.path.isdir(out):
        raise CliError(f"{out}: exists and is not a directory")
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as exc:
        raise CliError(f"{out}: cannot make the --out directory ({exc.strerror or exc})") from None
    if not os.access(out, os.W_OK | os.X_OK):  # found now, not after the first game
        raise CliError(f"{out}: cannot write logs into this directory (permission denied)")
    resumed = []
    for index in range(games):
        path = os.path.join(out, log_name(index, derive_seed(seed, index)))
        if not os.path.exists(path):
            continue
        if not args.resume:
            raise CliError(
                f"{path} already exists; choose another --out directory "
                "(or --resume to go on with this series)"
            )
        try:
            resumed.append(logged_result(bots, seed, index, path))
        except (DiceMinerError, ValueError) as exc:
            raise CliError(f"{path}: cannot resume from it: {exc}; move it away") from None
    return resumed


@contextmanager
def _progress(args: argparse.Namespace):
    """A progress bar on stderr (stdout is the summary's, perhaps piped into jq), or None.

    It reads keys from the terminal when there is one; otherwise (stdin from a
    pipe or /dev/null) from an idle pipe, as prompt-toolkit cannot run without input.
    """
    show = args.progress == "always" or (args.progress == "auto" and sys.stderr.isatty())
    if not show:
        yield None
        return
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import create_output
    from prompt_toolkit.shortcuts import ProgressBar

    with ExitStack() as stack:
        keys = None if sys.stdin.isatty() else stack.enter_context(create_pipe_input())
        bar = ProgressBar(
            title=f"simulating {args.games} games",
            output=create_output(stdout=sys.stderr),
            input=keys,
        )
        yield stack.enter_context(bar)


def summarise(
    results: Iterable[GameResult],
    args: argparse.Namespace,
    elapsed: float,
    resumed: Iterable[GameResult] = (),
) -> dict:
    """Wins and mean score per bot (seats played by the same bot counted together);
    for solo games, the mean solo score and the games in each rating band.

    ``resumed`` games (read back from their logs) count in the results, not in
    the games per second, which are the games played now."""
    played = list(results)
    resumed = list(resumed)
    results = sorted(played + resumed, key=lambda r: r.index)
    games = len(played)
    summary = {
        "games": len(results),
        "resumed": len(resumed),
        "players": args.players,
        "mode": "solo" if args.players == 1 else "multi",
        "seed": args.seed,
        "bots": args.bots,
        "out": args.out,
        "seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed, 2) if elapsed > 0 else None,
    }
    summary["results"] = solo_rows(results) if args.players == 1 else multi_rows(results)
    return summary


def solo_rows(results: list[GameResult]) -> list[dict]:
    """Per bot: games, mean solo score, and the games in each rating band (all bands, in order)."""
    per_bot: dict[str, list[int]] = {}
    for result in results:
        per_bot.setdefault(result.bots[0], []).append(result.totals[0])
    rows = []
    for bot, scores in per_bot.items():
        bands = dict.fromkeys((band for _, band in RATINGS), 0)
        for score in scores:
            bands[rating(score)] += 1
        rows.append(
            {
                "bot": bot,
                "seats": 1,
                "games": len(scores),
                "mean_score": sum(scores) / len(scores),
                "ratings": bands,
            }
        )
    return rows


def multi_rows(results: list[GameResult]) -> list[dict]:
    """Per bot: seats, wins (shared ones counted too), win rate and mean score."""
    per_bot: dict[str, dict] = {}
    for result in results:
        for seat, bot in enumerate(result.bots):
            row = per_bot.setdefault(
                bot, {"bot": bot, "seats": 0, "wins": 0, "shared": 0, "sum": 0}
            )
            row["seats"] += 1
            row["sum"] += result.totals[seat]
            if seat in result.winners:
                row["wins"] += 1
                row["shared"] += len(result.winners) > 1
    games = len(results)
    rows = []
    for row in per_bot.values():
        rows.append(
            {
                "bot": row["bot"],
                "seats": row["seats"] // games if games else 0,
                "wins": row["wins"],
                "shared_wins": row["shared"],
                "win_rate": row["wins"] / games if games else 0.0,
                "mean_score": row["sum"] / row["seats"] if row["seats"] else 0.0,
            }
        )
    return rows


def summary_text(summary: dict) -> str:
    """The summary as a small table."""
    table = "solo games" if summary["mode"] == "solo" else f"games, {summary['players']} players"
    lines = [
        f"{summary['games']} {table}, seed {summary['seed']}: "
        f"{summary['seconds']:.1f} s, {summary['games_per_second']} games/s"
    ]
    if summary["resumed"]:
        lines[0] += f" ({summary['resumed']} read back from their logs, not played again)"
    if summary["out"]:
        lines.append(f"logs in {summary['out']} (written without fsync)")
    if summary["mode"] == "solo":
        return "\n".join(lines + solo_table(summary["results"]))
    lines.append(f"{'bot':<12} {'seats':>5} {'wins':>6} {'win %':>7} {'mean score':>11}")
    for row in summary["results"]:
        shared = f" ({row['shared_wins']} shared)" if row["shared_wins"] else ""
        lines.append(
            f"{row['bot']:<12} {row['seats']:>5} {row['wins']:>6} {100 * row['win_rate']:>6.1f}% "
            f"{row['mean_score']:>11.1f}{shared}"
        )
    return "\n".join(lines)


def solo_table(rows: list[dict]) -> list[str]:
    """Per bot: its mean solo score, then its games in each rating band."""
    highs = [low - 1 for low, _ in RATINGS[1:]]
    spans = [f"{low}-{high}" for (low, _), high in zip(RATINGS, highs, strict=False)]
    spans.append(f"{RATINGS[-1][0]}+")
    lines = []
    for row in rows:
        games = row["games"]
        lines.append(f"{row['bot']}: {games} games, mean solo score {row['mean_score']:.1f}")
        lines.append(f"  {'rating':<14} {'scores':<7} {'games':>6} {'share':>7}")
        for (_, band), span in zip(RATINGS, spans, strict=True):
            count = row["ratings"][band]
            lines.append(f"  {band:<14} {span:<7} {count:>6} {100 * count / games:>6.1f}%")
    return lines
