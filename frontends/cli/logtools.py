"""``dice-miner log``: show, verify, diff and repair game logs.

Exit codes: 0 all is well; 1 ``verify`` found damage or a difference, ``diff``
found the logs differ, ``repair`` met damage it must not remove; 2 a bad
argument or a file that cannot be read as a log.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator

from core import (
    Batch,
    CommandUndone,
    GameDamaged,
    LogDamaged,
    LogError,
    NewGame,
    Provenance,
    SeedRevealed,
    Step,
    TornRecord,
    branch_facts,
    branch_problems,
    event_line,
    event_record,
    event_text,
    event_to_dict,
    log_header,
    provenance,
    repair_log,
    rerun,
    salvage_log,
    second_person,
    walk,
)
from frontends.cli import loghash
from frontends.cli.args import EXIT_DIFFERENT, EXIT_OK, event_count, read_log
from frontends.cli.launcher import command
from frontends.cli.stored import add_store_option, read_game


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``log`` subcommand group."""
    p = sub.add_parser(
        "log",
        help="show, verify, diff or repair game logs",
        description="Tools for game logs. Exit codes: 0 ok; 1 damage or a difference found; "
        "2 a bad argument or an unreadable file.",
    )
    group = p.add_subparsers(dest="log_command", metavar="ACTION", required=True)

    show = group.add_parser(
        "show",
        help="one line per event, in words",
        description="List LOG's events: seq, type, player and what changed. With --json, "
        "JSON Lines: one object per event with seq (0-based), type, version, player, "
        "text, command, undone and the event's own fields.",
    )
    show.add_argument("log", metavar="LOG")
    add_store_option(show)
    show.add_argument("--json", action="store_true", help="print JSON Lines")
    loghash.add_show_option(show)
    show.set_defaults(run=run_show)

    verify = group.add_parser(
        "verify",
        help="check checksums, then re-run the game and compare every event",
        description="Check LOG's framing and checksums, then re-run the game from its seed "
        "and recorded commands and check that this reproduces the log event for event. "
        "Exit 0 if it does; 1 with the damage (byte offset, record) or the first difference.",
    )
    verify.add_argument("log", metavar="LOG")
    add_store_option(verify)
    verify.set_defaults(run=run_verify)

    diff = group.add_parser(
        "diff",
        help="the first event at which two logs diverge",
        description="Find the first event at which logs A and B differ and show both "
        "versions side by side. Exit 0 if they hold the same events, 1 if they differ.",
    )
    diff.add_argument("a", metavar="A")
    diff.add_argument("b", metavar="B")
    loghash.add_diff_option(diff)
    diff.set_defaults(run=run_diff)

    repair = group.add_parser(
        "repair",
        help="drop a torn final record (kept in a side file)",
        description="Drop a torn final record (the footprint of a crash mid-write) from LOG, "
        "keeping the removed bytes in a side file next to it. A good log is left as it is; "
        "other damage is reported (exit 1) and nothing is changed.",
    )
    repair.add_argument("log", metavar="LOG")
    repair.set_defaults(run=run_repair)

    salvage = group.add_parser(
        "salvage",
        help="write the longest good beginning of a damaged log to a new file",
        description="Write the records of LOG before its first damage (a flipped byte, junk "
        "appended, a record that cannot be replayed, a torn tail) as the new log OUT, which "
        "opens and plays on like any other. LOG is never changed; OUT is never overwritten. "
        "Exit 0 when OUT was written (saying what was left out), 2 when nothing could be.",
    )
    salvage.add_argument("log", metavar="LOG")
    salvage.add_argument("out", metavar="OUT")
    salvage.set_defaults(run=run_salvage)


# -- show ----------------------------------------------------------------------------


def run_show(args: argparse.Namespace) -> int:
    """Print every event, as text or as JSON Lines."""
    _, batches = read_game(args)
    out = sys.stdout
    hashed = getattr(args, "hash", False)
    if args.json:
        for step in walk(batches):
            record = event_record(step)
            out.write(json.dumps(loghash.hashed_record(record, step) if hashed else record) + "\n")
        return EXIT_OK
    for line in show_lines(batches, hashed=hashed):
        out.write(line + "\n")
    return EXIT_OK


def show_lines(batches: list[Batch], *, hashed: bool = False) -> Iterator[str]:
    """The lines ``log show`` prints, one per event: the player column as wide as the
    longest name, and a player named "You" spoken of as the terminal game does (with
    ``hashed``, each state's short hash after the seq: docs/reference/state-hash.md)."""
    undone_by = undo_events(batches)
    steps = list(walk(batches))
    names = steps[-1].after.names if steps else ()
    width = max((len(name) for name in names), default=1)
    for step in steps:
        line = show_line(step, undone_by, width)
        line = second_person(line) if "You" in names else line
        yield loghash.hashed_line(line, step) if hashed else line


def show_line(step: Step, undone_by: dict[int, int], width: int = 12) -> str:
    """``event_line`` with its player column ``width`` wide (the longest name), and an
    undone event naming the event that undid it."""
    line = event_line(step, player_width=width)
    by = undone_by.get(step.batch.seq) if step.undone else None
    if by is not None:
        line = line.removesuffix("(undone)") + f"(undone by event {by})"
    return line


def undo_events(batches: list[Batch]) -> dict[int, int]:
    """For each undone command (the seq its batch began at), the seq of the event undoing it."""
    return {
        event.seq: batch.seq + i
        for batch in batches
        for i, event in enumerate(batch.events)
        if isinstance(event, CommandUndone)
    }


# -- verify --------------------------------------------------------------------------


def run_verify(args: argparse.Namespace) -> int:
    """Checksums first, then a re-run from the seed; report the first problem."""
    try:
        scan, batches = read_game(args)
    except LogDamaged as exc:
        print(f"{args.log}: DAMAGED at byte {exc.offset} (record {exc.record}): {exc.reason}")
        if isinstance(exc, TornRecord):
            repair = command("log", "repair", args.log)
            print(f"  the final record is incomplete; '{repair}' drops it")
        return EXIT_DIFFERENT
    except GameDamaged as exc:  # a game in a database (--store): its place, not a byte
        print(f"{args.log}: DAMAGED in {exc.where} (record {exc.record}): {exc.reason}")
        return EXIT_DIFFERENT
    events = event_count(batches)
    origin = provenance(batches)
    found = None if origin.kind == "secret" else rerun(batches)
    if found is None:
        start = batches[0].command
        assert isinstance(start, NewGame), "a re-run that found nothing ran from a NewGame"
        wrong = header_differences(scan.header, start)
        if wrong:
            print(f"{args.log}: DIFFERS in its header (record 0) from the game it holds:")
            for key, logged, rerun_value in wrong:
                print(f"  {key}: the header says {logged!r}, the game {rerun_value!r}")
            return EXIT_DIFFERENT
        problems = branch_problems(scan.header, batches)
        if problems:
            print(f"{args.log}: DIFFERS in what it says of the game it was branched from:")
            for problem in problems:
                print(f"  {problem}")
            return EXIT_DIFFERENT
        checked = _checked(origin, batches)
        print(f"{args.log}: ok: {len(batches)} records, {events} events; {checked}")
        for line in branch_lines(batches):
            print(f"  {line}")
        return EXIT_OK
    offset = scan.offsets[found.record - 1]
    print(f"{args.log}: DIFFERS at event {found.seq} (record {found.record}, byte {offset})")
    print(f"  command: {found.command.text()}  ({found.reason})")
    print(f"  logged:  {_event_words(found.logged)}")
    print(f"  re-run:  {_event_words(found.rerun)}")
    return EXIT_DIFFERENT


def branch_lines(batches: list[Batch]) -> list[str]:
    """A branch's facts in words for ``verify``: its parent's SHA-256, N and its luck."""
    lines = []
    for _, fact in branch_facts(batches):
        luck = (
            "the same luck (the parent's dice at every position)"
            if fact.luck == "same"
            else f"fresh luck (seed {fact.seed} from there on)"
        )
        lines.append(
            f"a branch of the log whose SHA-256 is {fact.parent}, after its first "
            f"{fact.at} events, with {luck}"
        )
    return lines


def _checked(origin: Provenance, batches: list[Batch]) -> str:
    """What the verification proved, in words, by where the dice came from."""
    if origin.kind == "secret_then_fresh":
        return (
            "checksums good; the dice before the branch at event "
            f"{origin.fresh_from} came from a secret seed not revealed (commitment "
            f"{origin.commitment[:16]}...), so those rolls cannot be re-derived; re-running "
            f"from the branch on, from its seed {origin.fresh_seed}, reproduces every event"
        )
    if origin.kind == "secret":
        return (
            "checksums good; the dice come from a secret seed not revealed yet "
            f"(commitment {origin.commitment[:16]}...), so the rolls cannot be re-derived "
            "until the game ends"
        )
    if origin.kind == "revealed":
        return (
            "checksums good; commitment checked: the SHA-256 of the secret revealed "
            f"{_where_revealed(batches)} is the commitment made at the start "
            f"({origin.commitment[:16]}...), and re-running from that secret reproduces "
            "every event, so every roll came from it"
        )
    chosen = f", chosen by {origin.chosen_by}" if origin.kind == "chosen" else ""
    return f"checksums good, and re-running from seed {origin.seed}{chosen} reproduces every event"


def _where_revealed(batches: list[Batch]) -> str:
    """Where a log revealed its secret seed: at the game's end, or in a branch's fact."""
    at_the_end = any(isinstance(e, SeedRevealed) for b in batches for e in b.events)
    return "at the end" if at_the_end else "in its branch fact"


def header_differences(header: dict, start: NewGame) -> list[tuple[str, object, object]]:
    """The header's fields that disagree with the header its opening command writes.

    Readers (the web viewer's list, for one) take the players and seed from the
    header, so a header that does not match the game is a difference too. Only
    the fields this program writes are compared: readers ignore keys they do not
    know (docs/reference/log-format.md), such as those a newer version may add.
    """
    return [
        (key, header.get(key), value)
        for key, value in log_header(start).items()
        if header.get(key) != value
    ]


def _event_words(event) -> str:
    if event is None:
        return "(nothing)"
    fields = event_to_dict(event)
    tag = fields.pop("t")
    fields.pop("v")
    return f"{tag} " + " ".join(f"{k}={v!r}" for k, v in fields.items())


# -- diff ----------------------------------------------------------------------------


def run_diff(args: argparse.Namespace) -> int:
    """Walk both logs side by side up to the first event that differs."""
    if getattr(args, "hash", False):  # the states instead of the events
        return loghash.run_diff(args)
    a = list(walk(read_log(args.a)[1]))
    b = list(walk(read_log(args.b)[1]))
    for i in range(max(len(a), len(b))):
        left = a[i] if i < len(a) else None
        right = b[i] if i < len(b) else None
        if left is None or right is None or left.event != right.event:
            print(f"the logs differ at event {i}:")
            print(side_by_side(args.a, left, args.b, right))
            return EXIT_DIFFERENT
    print(f"the logs hold the same {len(a)} events")
    return EXIT_OK


def _rows(step: Step | None) -> dict[str, str]:
    if step is None:
        return {"type": "(no such event: the log ends here)"}
    rows = {
        "type": type(step.event).TAG,
        "text": event_text(step),
        "command": step.batch.command.text(),
    }
    fields = event_to_dict(step.event)
    fields.pop("t")
    fields.pop("v")
    rows.update({key: json.dumps(value) for key, value in fields.items()})
    return rows


def side_by_side(name_a: str, a: Step | None, name_b: str, b: Step | None) -> str:
    """Two events as a table: one row per field, ``*`` where they differ."""
    left, right = _rows(a), _rows(b)
    keys = list(left) + [k for k in right if k not in left]
    width = max(24, *(len(left.get(k, "")) for k in keys))
    width = min(width, 60)
    label = max(len(k) for k in keys)
    lines = [f"  {'':{label}}  {_cut('A: ' + name_a, width):{width}}  B: {name_b}"]
    for key in keys:
        l_val, r_val = left.get(key, ""), right.get(key, "")
        mark = "*" if l_val != r_val else " "
        lines.append(f"{mark} {key:{label}}  {_cut(l_val, width):{width}}  {r_val}")
    return "\n".join(lines)


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


# -- salvage -------------------------------------------------------------------------


def run_salvage(args: argparse.Namespace) -> int:
    """Keep what comes before the first damage, in a new file; say what was left out."""
    if os.path.isdir(args.log):
        raise LogError(f"{args.log}: is a directory, not a log")
    found = salvage_log(args.log, args.out)
    kept = f"{found.kept} records ({found.events} events)"
    if not found.reason:
        print(f"{args.log}: no damage found; all {kept} copied to {args.out}")
        return EXIT_OK
    print(
        f"{args.log}: kept the {kept} before the damage at byte {found.offset} "
        f"(record {found.record}: {found.reason}) in {args.out}; the rest is left out"
    )
    return EXIT_OK


# -- repair --------------------------------------------------------------------------


def run_repair(args: argparse.Namespace) -> int:
    """Drop a torn final record, keeping its bytes; report what was done."""
    try:
        result = repair_log(args.log)
    except LogDamaged as exc:
        print(
            f"{args.log}: cannot repair: damaged at byte {exc.offset} (record {exc.record}): "
            f"{exc.reason}; only a torn final record is ever removed"
        )
        return EXIT_DIFFERENT
    if result.side_file is None:
        print(f"{args.log}: nothing to repair ({result.kept_records} records, all intact)")
        return EXIT_OK
    print(
        f"{args.log}: removed a torn final record ({result.removed_bytes} bytes from byte "
        f"{os.path.getsize(args.log)}); "
        f"{result.kept_records} records kept; the removed bytes are in {result.side_file}"
    )
    return EXIT_OK
