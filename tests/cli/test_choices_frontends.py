"""Both frontends draw the one choices read model: the same words, the same forced spends.

The terminal's menus and the web's JSON carry the same labels for the same
options (``core.read.choice_words``); rule D6's forced spends come from
the model to both, the terminal issuing them at once and the web serving them
whole (its page sends them as given: ``tests/web/browser/test_choices.py``).
Frontends import only the front door (``tests/core/test_front_door.py``), and the
terminal's and the web's modules form no cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

from core.bots import RandomBot
from core.bots.play import bot_command
from core.commands import SpendMagic
from core.events.codec import command_to_dict
from core.game import Game
from core.modes.multiplayer import events as ev
from core.modes.solo import events as sev
from core.projections.state import EXCAVATION
from core.read.choices import choices
from frontends.cli.tui.session import Session
from frontends.cli.tui.table import Seat, bot_seat
from frontends.web.choices_json import choices_view
from frontends.web.readmodel import choices as readmodel_choices
from tests.support.solo_lines import FORCED_SOLO
from tests.support.tui import find

#: Three-player seed 9, played by random bots for 24 moves: You may spend die 57 (3 magic)
#: on your only two eligible dice.
FORCED_MULTI_MOVES = 24


def solo_game(seed: int, *lines: str) -> Game:
    game = Game.new(["You"], seed, mode="solo")
    for line in lines:
        game.issue_text(line)
    return game


def menu_labels(session: Session) -> list[str]:
    menu = session.chooser.menu
    assert menu is not None
    return [item.label for item in menu.items]


def test_the_terminal_menus_and_the_web_json_word_each_option_alike():
    """For the same option, the terminal's menu line and the web's label are one string:
    a beer to share, a solo take's ways, a solo magic die, the refill and the stop."""

    def can_share(s):
        return s.state.phase == EXCAVATION and s.chooser.choices.beers

    session = find(can_share)
    web = readmodel_choices(session.state, session.human_to_act())
    session.chooser.share_beer()
    assert menu_labels(session) == [o["label"] for o in web["beer"]]
    assert [item.command for item in session.chooser.menu.items] == [
        o.command for o in session.chooser.choices.beers
    ]

    game = solo_game(5, "spend 53 on 24", "take 22", "take 0", "take 12")  # a wild tunnel beer
    session = Session(game, (Seat("You"),))
    web = choices_view(game.state, 0)
    session.chooser.choose(("die", 21))
    assert menu_labels(session) == [o["label"] for o in web["take"]["21"]]
    session.back()
    session.chooser.refill()
    assert menu_labels(session) == [web["refill"]["label"]]
    session.back()
    session.chooser.stop()
    assert menu_labels(session) == [web["stop"]["label"]] == ["stop digging and score"]

    game = solo_game(5)  # two magic dice that show magic: which one to spend?
    session = Session(game, (Seat("You"),))
    session.chooser.magic()
    assert menu_labels(session) == [s["label"] for s in choices_view(game.state, 0)["spend"]]
    assert menu_labels(session) == ["die 53 (1 magic)", "die 54 (3 magic)"]


def test_the_web_serves_a_forced_spend_whole():
    """The JSON of a spend with no choice left carries its command, text and words."""
    game = solo_game(26, *FORCED_SOLO)
    (spend,) = choices_view(game.state, 0)["spend"]
    assert (spend["die"], spend["needed"], spend["eligible"]) == (52, 1, [32])
    assert spend["forced"] == {
        "label": "spend die 52 (1 magic): recycle die 32 (1 gem)",
        "text": "spend 52 on 32",
        "command": command_to_dict(SpendMagic(0, (32,), die=52)),
    }
    game = solo_game(5)
    assert all(s["forced"] is None for s in choices_view(game.state, 0)["spend"])


def test_the_terminal_spends_a_forced_solo_magic_die_at_once():
    """m with one magic die that can recycle only one top die: spent, no die to pick."""
    session = Session(solo_game(26, *FORCED_SOLO), (Seat("You"),))
    seq = session.game.seq
    session.chooser.magic()
    assert session.chooser.mode() == "solo" and session.chooser.source is None
    (event,) = [e for _, e in session.game.events(seq)]
    assert isinstance(event, sev.SoloMagicSpent) and event.recycled[0][0] == 32


def test_the_terminal_spends_a_forced_magic_die_at_once():
    """Enter on a 3-magic die with two eligible dice rerolls both (rule D6), as the model says."""
    seats = (Seat("You"), bot_seat("Brok", "random"), bot_seat("Cira", "random"))
    game = Game.new([s.name for s in seats], 9)
    for _ in range(FORCED_MULTI_MOVES):
        game.issue(bot_command(game, RandomBot()))
    session = Session(game, seats)
    forced = [s for s in choices(game.state, 0).spends if s.forced is not None]
    assert session.chooser.mode() == "magic" and [s.die for s in forced] == [57]
    seq = session.game.seq
    session.chooser.choose(("die", 57))
    event = session.game.events(seq)[0][1]
    assert isinstance(event, ev.MagicSpent) and event.die == 57
    assert sorted(d for d, _ in event.rolls) == sorted(forced[0].eligible) == [10, 46]
    assert session.chooser.source is None and session.chooser.mode() != "spend"


# -- the frontends' imports ------------------------------------------------------------

FRONTENDS = Path(__file__).resolve().parents[2] / "frontends"


def imports(path: Path) -> set[str]:
    """The modules a source file imports (anywhere in it, type-checking imports included)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def assert_no_cycle(folder: Path, package: str) -> None:
    """The modules of ``folder`` (the package ``package``) import one another in no loop."""
    depth = package.count(".") + 1
    graph = {
        f"{package}.{path.stem}": {
            m for m in imports(path) if m.startswith(f"{package}.") and m.count(".") == depth
        }
        for path in folder.glob("*.py")
    }
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join((*path, module))
        if module in done:
            return
        for other in graph.get(module, ()):
            visit(other, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())


def test_the_web_modules_import_one_another_without_a_cycle():
    assert_no_cycle(FRONTENDS / "web", "frontends.web")


def test_the_terminal_modules_import_one_another_without_a_cycle():
    assert_no_cycle(FRONTENDS / "cli" / "tui", "frontends.cli.tui")


def test_the_web_words_what_it_asks_from_the_seats_choices():
    """The page shows the server's ``prompt`` as sent: it names only what is open now."""
    game = Game.new(["Ada", "Brok"], seed=7)
    assert choices_view(game.state, game.to_act())["prompt"].startswith("Choose your hero")
    assert choices_view(game.state, 1 - game.to_act()) == {"seat": 1 - game.to_act(), "turn": False}
    solo, bot, seen = solo_game(11), RandomBot(), set()
    while solo.state.phase != "over":
        model, words = choices(solo.state, 0), choices_view(solo.state, 0)["prompt"]
        asked = words.lower()
        assert ("refill the mountain" in asked) == (model.refill is not None), asked
        assert ("spend a magic die" in asked) == bool(model.spends), asked
        assert ("take a glowing top die" in asked) == bool(model.takes), asked
        assert asked.endswith("stop.") and words[0].isupper()
        seen.add(asked)
        solo.issue(bot_command(solo, bot))
    assert len(seen) > 1  # the words followed what was open
