"""Shared helpers for the command-line tests: run ``dice-miner`` in-process, make logs."""

from __future__ import annotations

from core.bots.series import play_one
from core.events.codec import encode_batch
from core.game import Game
from core.log.framing import encode_log
from core.store import load_batches
from frontends.cli.main import main


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    """Run ``dice-miner ARGV``; return the exit code, stdout and stderr."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:  # argparse's own usage errors and --help
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def recorded_game(directory, bots=("greedy", "random"), seed: int = 5) -> str:
    """A complete game between bots, logged into ``directory``; returns the log's path."""
    return play_one(list(bots), seed, 0, out_dir=str(directory)).path


def game_with_undo(path) -> Game:
    """A short logged game in which two commands are undone."""
    game = Game.new(["Ada", "Brok"], 21, log=str(path), sync=False)
    for text in ["hero Engineer", "hero Surveyor"]:
        game.issue_text(text)
    for _ in range(3):
        game.issue(game.legal()[0])
    game.undo()
    game.undo()
    game.issue(game.legal()[-1])
    return game


def rewrite_log(source: str, target: str, change) -> None:
    """Copy a log with ``change(batches)`` applied, re-framed so its checksums are good."""
    scan, batches = load_batches(source)
    batches = change(list(batches))
    with open(target, "wb") as f:
        f.write(encode_log(scan.header, map(encode_batch, batches)))


def flip_byte(source: str, target: str, offset: int) -> None:
    """Copy a log with one bit flipped at ``offset`` (negative: from the end)."""
    with open(source, "rb") as f:
        data = bytearray(f.read())
    data[offset] ^= 0x01
    with open(target, "wb") as f:
        f.write(data)


def truncate(source: str, target: str, cut: int) -> None:
    """Copy a log without its last ``cut`` bytes."""
    with open(source, "rb") as f:
        data = f.read()
    with open(target, "wb") as f:
        f.write(data[: len(data) - cut])


__all__ = [
    "flip_byte",
    "game_with_undo",
    "recorded_game",
    "rewrite_log",
    "run_cli",
    "truncate",
]
