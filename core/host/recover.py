"""Mending a crash's footprints when a server takes up its store, with no person needed.

Two faults used to need someone at a shell: a log ending in a torn record (the
disk filled, or the process died, mid-append) refused to open until ``dice-miner
log repair`` was run by hand; and a game that ended while its store could not
keep the reveal never revealed its secret, so it could never be verified. Both
are mended here, each in one line saying what was done. Only a torn *final*
record is ever removed, its bytes kept beside the log (as ``log repair`` does);
any other damage is still refused and left for a person.
"""

from __future__ import annotations

from core.errors import TornRecord
from core.game import Game
from core.store import Seating, Store, repair_log


def set_aside_torn(store: Store, game_id: str, what: str) -> str:
    """Drop the torn final record of a stored game's log, its bytes kept in a side file;
    the line that says so. Raises what the store raises if that is not all there is."""
    log_path = getattr(store, "log_path", None)
    if log_path is None:  # only a file ends in a torn record
        raise TornRecord(what, 0, 0, "a torn record in a store that is not a file")
    result = repair_log(log_path(game_id))
    if result.side_file is None:  # mended meanwhile by someone else
        return f"{what}: its torn final record was already set aside"
    return (
        f"{what}: its final record was torn (a crash or a full disk mid-write): "
        f"{result.removed_bytes} bytes set aside in {result.side_file}; the game goes on "
        f"from its last whole move ({result.kept_records} records)"
    )


def unrevealed(game: Game, seating: Seating) -> bool:
    """True for a game over whose dice came from a secret it has not revealed, where the
    seating still holds that secret (the store failed to keep the reveal at its end)."""
    facts = game.state.facts
    return bool(game.state.is_over and facts.secret_dice and not facts.revealed and seating.secret)


def reveal_stored(store: Store, game_id: str, secret: bytes | None, what: str) -> str:
    """Reveal the secret of a stored game that ended without it; the line that says so."""
    with Game.resume(store, game_id, secret=secret) as game:
        commit = game.reveal()
    if commit is None:
        return f"{what}: its secret seed was already revealed"
    return (
        f"{what}: the game had ended without revealing the secret its dice came from "
        f"(its store could not keep the reveal then): revealed now, at event {commit.batch.seq}"
    )


__all__ = ["reveal_stored", "set_aside_torn", "unrevealed"]
