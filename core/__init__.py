"""Dice Miner's front door: ``import core`` or ``from core import ...`` is all a frontend,
a script or a notebook needs; every module behind it is the engine's own business.

    from core import SETUP, Game, RuleError, TakeDie, choices

    game = Game.new(["Ada", "Brok"], seed=7)
    while game.state.phase == SETUP:  # each seat takes the first hero it is offered
        game.issue(choices(game.state, game.to_act()).heroes[0].option.command)
    try:
        game.issue(TakeDie(game.to_act(), game.state.mountain[1]))  # under two dice
    except RuleError as refused:
        print(refused.code, refused)  # die_covered die 22 is covered by dice 12 and 29; ...

One verb per act (the engine has more spellings; these are the front door's):

- **issue**: a command is played by ``issue``: ``Game.issue(command)`` for a game in
  hand, ``Table.issue(seat, command)`` at a live table (the seat, the position and the
  undo policy checked there). Typed words become a command with ``parse_command(text,
  seat)``; ``Game.issue_text`` is only that, and a frontend's own ``issue`` (the
  terminal's session, the web's games) only hands on to the table's.
- **undo** is a command too: issue ``Undo(seat)``. At a table that takes back the
  seat's last move with the bots' replies (``Table.undo`` and ``Game.undo_turn`` are
  that, spelled out); on a bare game it steps back one command (``Game.undo``).
- **legal moves**: ``choices(state, seat)``, the read model both frontends draw (each
  option with its command, its typed text and its words); ``Game.legal()`` lists the
  bare commands. The rules' own entry points are not offered here.
- **reading**: ``game.state`` (a ``GameState``) and the read models below; a log or a
  stored game is opened through ``open_store`` (or ``Game.open`` / ``Game.load``).

Names are imported on first use (PEP 562), so ``import core`` costs nothing and
``from core import Game`` loads only what a game needs; ``_HOMES`` says where each
name lives. The boundary tests (``tests/core/test_front_door.py``) keep the frontends on
these names and every module behind them importing downward only.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core import events as events
    from core.analysis import DEFAULT_SAMPLES as DEFAULT_SAMPLES
    from core.analysis import DEFAULT_SOLO_SAMPLES as DEFAULT_SOLO_SAMPLES
    from core.analysis import Options as Options
    from core.analysis import analyse_log as analyse_log
    from core.analysis import cache as analysis_cache  # noqa: F401  (renamed; in __all__)
    from core.analysis.cache import dumps as analysis_dumps  # noqa: F401  (renamed; in __all__)
    from core.analysis.history import history as history
    from core.analysis.judge import Task as Task
    from core.analysis.judge import judge as judge
    from core.analysis.marks import BLUNDER as BLUNDER
    from core.analysis.marks import INACCURACY as INACCURACY
    from core.analysis.marks import MISTAKE as MISTAKE
    from core.analysis.report import report as report
    from core.analysis.report import tasks as tasks
    from core.analysis.run import judge_each as judge_each
    from core.analysis.text import analysis_text as analysis_text
    from core.analysis.words import move_words as move_words
    from core.bots import BOTS as BOTS
    from core.bots import make_bot as make_bot
    from core.bots.play import play_game as play_game
    from core.bots.registry import DEFAULT_LEVEL as DEFAULT_LEVEL
    from core.bots.registry import LEVELS as LEVELS
    from core.bots.registry import MEASURED as MEASURED
    from core.bots.registry import bot_kind as bot_kind
    from core.bots.registry import choices as bot_choices  # noqa: F401  (renamed; in __all__)
    from core.bots.registry import levels_help as levels_help
    from core.bots.registry import parse_bots as parse_bots
    from core.bots.series import GameResult as GameResult
    from core.bots.series import log_name as log_name
    from core.bots.series import logged_result as logged_result
    from core.bots.series import play_series as play_series
    from core.bots.valuation.verdict import Judgement as Judgement
    from core.branch import branch_facts as branch_facts
    from core.branch import branch_points as branch_points
    from core.branch import branch_problems as branch_problems
    from core.branch import write_branch as write_branch
    from core.commands import GAME_MODES as GAME_MODES
    from core.commands import BranchGame as BranchGame
    from core.commands import CacheDice as CacheDice
    from core.commands import ChooseHero as ChooseHero
    from core.commands import CloseGame as CloseGame
    from core.commands import Command as Command
    from core.commands import EndMagicTurn as EndMagicTurn
    from core.commands import EndSolo as EndSolo
    from core.commands import HandSeatToBot as HandSeatToBot
    from core.commands import NewGame as NewGame
    from core.commands import Refill as Refill
    from core.commands import ReturnSeat as ReturnSeat
    from core.commands import RevealSeed as RevealSeed
    from core.commands import ShareBeer as ShareBeer
    from core.commands import SpendMagic as SpendMagic
    from core.commands import TakeDie as TakeDie
    from core.commands import Undo as Undo
    from core.commands import parse_command as parse_command
    from core.dice import HERO_NAMES as HERO_NAMES
    from core.dice import HEROES as HEROES
    from core.dice import KIND_OF as KIND_OF
    from core.dice import face_kind as face_kind
    from core.errors import BranchError as BranchError
    from core.errors import CommandSyntaxError as CommandSyntaxError
    from core.errors import DiceMinerError as DiceMinerError
    from core.errors import EventFormatError as EventFormatError
    from core.errors import EventVersionError as EventVersionError
    from core.errors import GameBusy as GameBusy
    from core.errors import GameDamaged as GameDamaged
    from core.errors import GameExists as GameExists
    from core.errors import GameNotFound as GameNotFound
    from core.errors import LogChanged as LogChanged
    from core.errors import LogDamaged as LogDamaged
    from core.errors import LogError as LogError
    from core.errors import LogLocked as LogLocked
    from core.errors import LogVersionError as LogVersionError
    from core.errors import RuleError as RuleError
    from core.errors import SetupError as SetupError
    from core.errors import StaleCommand as StaleCommand
    from core.errors import StoreConflict as StoreConflict
    from core.errors import StoreError as StoreError
    from core.errors import StoreUnavailable as StoreUnavailable
    from core.errors import TornRecord as TornRecord
    from core.events import Batch as Batch
    from core.events import CommandUndone as CommandUndone
    from core.events import Event as Event
    from core.events import command_from_dict as command_from_dict
    from core.events import command_to_dict as command_to_dict
    from core.events import event_to_dict as event_to_dict
    from core.game import Game as Game
    from core.game import log_header as log_header
    from core.game import replay_scan as replay_scan
    from core.host import BotMove as BotMove
    from core.host import BotRunner as BotRunner
    from core.host import Lobby as Lobby
    from core.host import LobbyFull as LobbyFull
    from core.host import Table as Table
    from core.host import TakeUpReport as TakeUpReport
    from core.host import TooManyGames as TooManyGames
    from core.host.seats import BOT_NAMES as BOT_NAMES
    from core.host.seats import bot_name as bot_name
    from core.host.seats import check_seats as check_seats
    from core.host.seats import seating_from_names as seating_from_names
    from core.host.seats import short_name as short_name
    from core.host.shared import worker_name as worker_name
    from core.host.thinking import think_in as think_in
    from core.modes.multiplayer.events import GameEnded as GameEnded
    from core.modes.multiplayer.events import RoundScored as RoundScored
    from core.modes.multiplayer.events import TieBreakScored as TieBreakScored
    from core.modes.multiplayer.scoring import Breakdown as Breakdown
    from core.modes.solo.events import SoloGameEnded as SoloGameEnded
    from core.modes.solo.scoring import RATINGS as RATINGS
    from core.modes.solo.scoring import rating as rating
    from core.modes.solo.scoring import solo_score as solo_score
    from core.modes.table.events import GameClosed as GameClosed
    from core.modes.table.events import RematchStarted as RematchStarted
    from core.modes.table.events import SeatLeft as SeatLeft
    from core.modes.table.events import SeedRevealed as SeedRevealed
    from core.mountain import ROW_LENGTHS as ROW_LENGTHS
    from core.mountain import ROWS as ROWS
    from core.mountain import SLOTS as SLOTS
    from core.mountain import dice_on as dice_on
    from core.mountain import side_slots as side_slots
    from core.mountain import slot_index as slot_index
    from core.mountain import top_slots as top_slots
    from core.mountain import where as where
    from core.projections.snapshots import SNAPSHOT_EVERY as SNAPSHOT_EVERY
    from core.projections.snapshots import SnapshotIndex as SnapshotIndex
    from core.projections.state import EXCAVATION as EXCAVATION
    from core.projections.state import MAGIC as MAGIC
    from core.projections.state import OVER as OVER
    from core.projections.state import REPLENISH as REPLENISH
    from core.projections.state import SETUP as SETUP
    from core.projections.state import SOLO as SOLO
    from core.projections.state import GameState as GameState
    from core.projections.statehash import state_hash as state_hash
    from core.projections.steps import Commit as Commit
    from core.projections.steps import Step as Step
    from core.projections.timeline import UnreplayableBatch as UnreplayableBatch
    from core.projections.timeline import replay as replay
    from core.read.choices import CacheChoice as CacheChoice
    from core.read.choices import Choices as Choices
    from core.read.choices import HeroChoice as HeroChoice
    from core.read.choices import Option as Option
    from core.read.choices import SpendChoice as SpendChoice
    from core.read.choices import TakeChoice as TakeChoice
    from core.read.choices import choices as choices
    from core.read.status_words import addressed as addressed
    from core.read.status_words import all_face_words as all_face_words
    from core.read.status_words import second_person as second_person
    from core.read.status_words import status_sentence as status_sentence
    from core.read.text import describe as describe
    from core.read.views import StepReader as StepReader
    from core.read.views import board_text as board_text
    from core.read.views import event_line as event_line
    from core.read.views import event_record as event_record
    from core.read.views import event_text as event_text
    from core.read.views import replay_batches as replay_batches
    from core.read.views import score_so_far as score_so_far
    from core.read.views import state_view as state_view
    from core.read.views import walk as walk
    from core.rng import derive_seed as derive_seed
    from core.store import FileStore as FileStore
    from core.store import GameEntry as GameEntry
    from core.store import LogScan as LogScan
    from core.store import MemoryStream as MemoryStream
    from core.store import Seating as Seating
    from core.store import SeatRecord as SeatRecord
    from core.store import Store as Store
    from core.store import check_game_id as check_game_id
    from core.store import import_log as import_log
    from core.store import load_batches as load_batches
    from core.store import load_batches_bytes as load_batches_bytes
    from core.store import open_store as open_store
    from core.store import repair_log as repair_log
    from core.store.pgurl import public_url as public_url
    from core.store.postgres import PostgresStore as PostgresStore
    from core.store.salvage import salvage_log as salvage_log
    from core.verify import Provenance as Provenance
    from core.verify import provenance as provenance
    from core.verify import rerun as rerun
    from core.words import die_words as die_words
    from core.words import face_words as face_words
    from core.words import slot_words as slot_words

#: Where each name lives: module -> the names the front door takes from it
#: (``name=attr`` where the front door renames one: two read models are called ``choices``).
_HOMES: dict[str, tuple[str, ...]] = {
    # Playing a game: one game, a live table with its seats, a server's lobby
    "core.game": (
        "Game",
        "log_header",
        "replay_scan",
    ),
    "core.host": (
        "Table",
        "Lobby",
        "LobbyFull",
        "TooManyGames",
        "TakeUpReport",
        "BotMove",
        "BotRunner",
    ),
    "core.host.seats": (
        "BOT_NAMES",
        "bot_name",
        "check_seats",
        "seating_from_names",
        "short_name",
    ),
    "core.host.shared": ("worker_name",),
    "core.host.thinking": ("think_in",),
    # What a player (or the table) asks: every command, and the typed form
    "core.commands": (
        "Command",
        "NewGame",
        "ChooseHero",
        "TakeDie",
        "ShareBeer",
        "SpendMagic",
        "EndMagicTurn",
        "CacheDice",
        "Refill",
        "EndSolo",
        "Undo",
        "RevealSeed",
        "CloseGame",
        "HandSeatToBot",
        "ReturnSeat",
        "BranchGame",
        "GAME_MODES",
        "parse_command",
    ),
    # The error family: one root, a stable code on every refusal
    "core.errors": (
        "DiceMinerError",
        "RuleError",
        "SetupError",
        "BranchError",
        "StaleCommand",
        "CommandSyntaxError",
        "StoreError",
        "StoreConflict",
        "GameNotFound",
        "GameExists",
        "GameBusy",
        "StoreUnavailable",
        "GameDamaged",
        "LogError",
        "LogDamaged",
        "TornRecord",
        "LogChanged",
        "LogVersionError",
        "LogLocked",
        "EventFormatError",
        "EventVersionError",
    ),
    # Events: the facts a log keeps, and the one converter
    "core.events": (
        "Event",
        "Batch",
        "command_from_dict",
        "command_to_dict",
        "event_to_dict",
        "CommandUndone",
    ),
    # Stores: where games live
    "core.store": (
        "open_store",
        "Store",
        "FileStore",
        "GameEntry",
        "LogScan",
        "MemoryStream",
        "SeatRecord",
        "Seating",
        "check_game_id",
        "import_log",
        "load_batches",
        "load_batches_bytes",
        "repair_log",
    ),
    "core.store.postgres": ("PostgresStore",),
    "core.store.pgurl": ("public_url",),
    "core.store.salvage": ("salvage_log",),
    # Read models: what a frontend draws
    "core.projections.state": (
        "GameState",
        "SETUP",
        "EXCAVATION",
        "MAGIC",
        "REPLENISH",
        "SOLO",
        "OVER",
    ),
    "core.read.choices": (
        "choices",
        "CacheChoice",
        "Choices",
        "HeroChoice",
        "Option",
        "SpendChoice",
        "TakeChoice",
    ),
    "core.read.views": (
        "StepReader",
        "board_text",
        "event_line",
        "event_record",
        "event_text",
        "replay_batches",
        "score_so_far",
        "state_view",
        "walk",
    ),
    "core.projections.steps": (
        "Step",
        "Commit",
    ),
    "core.read.text": ("describe",),
    "core.words": (
        "die_words",
        "face_words",
        "slot_words",
    ),
    "core.projections.timeline": (
        "replay",
        "UnreplayableBatch",
    ),
    "core.projections.snapshots": (
        "SNAPSHOT_EVERY",
        "SnapshotIndex",
    ),
    "core.projections.statehash": ("state_hash",),
    # The pieces: dice, the mountain, seeds, scores
    "core.dice": (
        "HEROES",
        "HERO_NAMES",
        "KIND_OF",
        "face_kind",
    ),
    "core.mountain": (
        "ROWS",
        "ROW_LENGTHS",
        "SLOTS",
        "dice_on",
        "side_slots",
        "slot_index",
        "top_slots",
        "where",
    ),
    "core.rng": ("derive_seed",),
    "core.modes.multiplayer.scoring": ("Breakdown",),
    "core.modes.solo.scoring": (
        "RATINGS",
        "rating",
        "solo_score",
    ),
    "core.modes.multiplayer.events": ("GameEnded", "RoundScored", "TieBreakScored"),
    "core.modes.solo.events": ("SoloGameEnded",),
    "core.modes.table.events": ("GameClosed", "RematchStarted", "SeatLeft", "SeedRevealed"),
    # Bots
    "core.bots": (
        "BOTS",
        "make_bot",
    ),
    "core.bots.registry": (
        "DEFAULT_LEVEL",
        "LEVELS",
        "MEASURED",
        "bot_kind",
        "levels_help",
        "parse_bots",
        "bot_choices=choices",
    ),
    "core.bots.play": ("play_game",),
    "core.bots.series": (
        "GameResult",
        "log_name",
        "logged_result",
        "play_series",
    ),
    # The analysis of a finished game
    "core.analysis": (
        "DEFAULT_SAMPLES",
        "DEFAULT_SOLO_SAMPLES",
        "Options",
        "analyse_log",
    ),
    "core.analysis.cache": ("analysis_dumps=dumps",),
    "core.analysis.history": ("history",),
    "core.analysis.judge": (
        "Task",
        "judge",
    ),
    "core.analysis.marks": (
        "BLUNDER",
        "INACCURACY",
        "MISTAKE",
    ),
    "core.analysis.report": (
        "report",
        "tasks",
    ),
    "core.analysis.run": ("judge_each",),
    "core.analysis.text": ("analysis_text",),
    "core.bots.valuation.verdict": ("Judgement",),
    "core.analysis.words": ("move_words",),
    # What-if branches and re-running a log
    # The pages' words: where the game stands, every face (the web page shows them as sent)
    "core.read.status_words": (
        "addressed",
        "all_face_words",
        "second_person",
        "status_sentence",
    ),
    "core.branch": (
        "branch_facts",
        "branch_points",
        "branch_problems",
        "write_branch",
    ),
    "core.verify": (
        "Provenance",
        "provenance",
        "rerun",
    ),
}
#: Modules offered whole, as a namespace: every event class, the analysis's cache beside a log.
_MODULES: dict[str, str] = {"events": "core.events", "analysis_cache": "core.analysis.cache"}

_WHERE: dict[str, tuple[str, str]] = {
    name.partition("=")[0]: (module, name.partition("=")[2] or name)
    for module, names in _HOMES.items()
    for name in names
}

__all__ = sorted([*_WHERE, *_MODULES])


def __getattr__(name: str) -> Any:
    """Import a front-door name on first use, and keep it."""
    if name in _MODULES:
        value: Any = importlib.import_module(_MODULES[name])
    elif name in _WHERE:
        module, attr = _WHERE[name]
        value = getattr(importlib.import_module(module), attr)
    else:
        raise AttributeError(f"module 'core' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
