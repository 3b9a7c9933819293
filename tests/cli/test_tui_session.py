"""The play session without a terminal: what can be selected, menus, spends, caches,
the command line and the solo game, each checked against the engine's legal commands."""

from __future__ import annotations

import pytest
from prompt_toolkit.document import Document
from prompt_toolkit.validation import ValidationError

from core import second_person
from core.commands import ShareBeer, SpendMagic, TakeDie
from core.game import Game
from core.modes.multiplayer import events as ev
from core.modes.multiplayer.cache import cache_capacity
from core.modes.multiplayer.magic import magic_sources, reroll_targets, targets_needed
from core.modes.solo import events as sev
from core.projections.state import EXCAVATION, MAGIC, OVER, REPLENISH
from frontends.cli.tui import overlays
from frontends.cli.tui.commandline import CommandCompleter, CommandValidator, candidates
from frontends.cli.tui.session import Session
from frontends.cli.tui.table import Seat
from tests.support.tui import advance, find, session_for, step


def legal_take_dice(session: Session) -> set:
    return {("die", c.die) for c in session.legal() if isinstance(c, TakeDie)}


def test_the_selectable_dice_are_the_legal_takes_all_game():
    """At every turn of the excavation the cursor's choices are exactly the legal takes."""
    session = session_for(5)
    checked = 0
    for _ in range(300):
        if session.state.is_over:
            break
        if session.chooser.mode() == "take":
            assert set(session.chooser.selectable()) == legal_take_dice(session)
            assert session.chooser.cursor in session.chooser.selectable()
            checked += 1
        step(session)
    assert checked > 10


def test_sharing_a_beer_opens_a_menu_of_the_legal_shares_then_side_dice_are_selectable():
    """b lists exactly the legal ShareBeer commands; choosing one shares and allows side dice."""

    def can_share(s):
        return s.state.phase == EXCAVATION and any(isinstance(c, ShareBeer) for c in s.legal())

    session = find(can_share)
    shares = [c for c in session.legal() if isinstance(c, ShareBeer)]
    session.chooser.share_beer()
    assert session.chooser.mode() == "menu"
    assert [item.command for item in session.chooser.menu.items] == shares
    session.chooser.pick_number(1)
    assert isinstance(session.game.events()[-1][1], ev.BeerShared)
    assert session.state.beer_shared and session.chooser.menu is None
    assert set(session.chooser.selectable()) == legal_take_dice(session)


def test_no_beer_to_share_is_said_and_changes_nothing():
    session = session_for(3)
    advance(session, lambda s: s.chooser.mode() == "take")
    seq = session.game.seq
    if not any(isinstance(c, ShareBeer) for c in session.legal()):
        session.chooser.share_beer()
        assert session.status_kind == "error" and session.game.seq == seq


def test_spending_magic_picks_the_source_then_exactly_the_dice_to_reroll():
    """Enter on a magic die, then Enter on N dice: one MagicSpent rerolling those dice."""

    def can_choose(s):
        if s.state.phase != MAGIC:
            return False
        seat = s.human_to_act()
        return any(
            0 < targets_needed(s.state, seat, src) < len(reroll_targets(s.state, seat, src.die))
            for src in magic_sources(s.state, seat)
        )

    session = find(can_choose)
    seat = session.human_to_act()
    spot = next(
        sp
        for sp in session.chooser.selectable()
        for src in magic_sources(session.state, seat)
        if sp in (("die", src.die), ("face", src.hero_face))
        and 0
        < targets_needed(session.state, seat, src)
        < len(reroll_targets(session.state, seat, src.die))
    )
    session.chooser.cursor = spot
    session.chooser.choose()
    assert session.chooser.mode() == "spend"
    needed = session.chooser.needed()
    eligible = {("die", d) for d in reroll_targets(session.state, seat, session.chooser.source.die)}
    assert set(session.chooser.selectable()) == eligible
    chosen = []
    for _ in range(needed):
        assert session.chooser.cursor not in [("die", d) for d in chosen]
        chosen.append(session.chooser.cursor[1])
        session.chooser.choose()
    event = session.game.events()[-1][1]
    assert isinstance(event, ev.MagicSpent)
    assert sorted(d for d, _ in event.rolls) == sorted(chosen)
    assert session.chooser.mode() in ("magic", "wait", "cache") or session.overlay


def test_a_cache_too_big_is_refused_with_the_rule_message_and_a_fitting_one_goes_through():
    def can_cache(s):
        return s.state.phase == REPLENISH

    session = find(can_cache)
    seat = session.human_to_act()
    room = cache_capacity(session.state, seat)
    trove = session.state.troves[seat]
    seq = session.game.seq
    if len(trove) > room:
        for die in sorted(trove)[: room + 1]:
            session.chooser.toggle(("die", die))
        session.chooser.choose()
        assert session.status_kind == "error" and "cache" in session.status
        assert session.game.seq == seq
        session.back()
    session.chooser.toggle(("die", sorted(trove)[0]))
    session.chooser.choose()
    event = next(e for _, e in session.game.events(seq) if isinstance(e, ev.DiceCached))
    assert event.seat == seat and len(event.dice) <= room


def test_the_command_line_completes_to_legal_commands_and_validates_syntax():
    session = session_for(2)
    advance(session, lambda s: s.chooser.mode() == "take")
    completer = CommandCompleter(session)
    offered = [c.text for c in completer.get_completions(Document("take "), None)]
    takes = [c for c in session.legal() if isinstance(c, TakeDie)]
    assert sorted(offered) == sorted(f"take #{c.die}" for c in takes)  # ids as the board shows
    assert sorted(map(session.parse, offered), key=str) == sorted(takes, key=str)
    # the # may be left out while typing
    die = takes[0].die
    loose = completer.get_completions(Document(f"take {die}"), None)
    assert f"take #{die}" in [c.text for c in loose]
    assert [c.text for c in completer.get_completions(Document("he"), None)] == ["help"]
    validator = CommandValidator(session)
    validator.validate(Document("take 17"))
    validator.validate(Document("quit"))
    with pytest.raises(ValidationError, match="must be a number"):
        validator.validate(Document("take seventeen"))
    with pytest.raises(ValidationError, match="unknown command"):
        validator.validate(Document("dig"))
    assert ("undo", "your last move") in candidates(session)


def test_typed_words_help_quit_undo_and_nonsense():
    session = session_for(2)
    advance(session, lambda s: s.chooser.mode() == "take")
    session.run_line("help")
    assert session.overlay == "help"
    session.back()
    depth = session.game.timeline.depth
    session.run_line(session.legal()[0].text())
    assert session.game.timeline.depth > depth
    session.run_line("undo")
    assert session.game.timeline.depth == depth and session.chooser.mode() == "take"
    session.run_line("dig deeper")
    assert session.status_kind == "error" and "unknown command" in session.status
    assert "take" in session.status and "refill" not in session.status  # this game's verbs
    session.run_line("quit")
    assert session.quit_requested


def test_undo_with_nothing_of_yours_says_so():
    session = session_for(4)
    seq = session.game.seq
    assert session.undo() is False
    assert session.status_kind == "error" and session.game.seq == seq


def test_a_game_runs_to_its_end_with_a_score_table_each_round():
    session = session_for(9)
    tables = 0
    for _ in range(2000):
        if session.state.is_over:
            break
        if session.overlay == "round":
            tables += 1
        step(session)
    assert session.state.phase == OVER and session.overlay == "over"
    assert tables == 2  # rounds 1 and 2; round 3's table is part of the result
    text = "".join(f[1] for f in overlays.result(session, 100))
    assert "Final scores" in text and "Round 3" in text
    assert all(session.state.names[s] in text for s in session.state.winners)


def test_second_person_for_a_player_named_you():
    assert second_person("You wins") == "You win"
    assert second_person("You ended their magic turn") == "You ended your magic turn"
    assert second_person("Brok shared a beer with You: die 3 rolled 2; Brok takes two dice") == (
        "Brok shared a beer with you: die 3 rolled 2; Brok takes two dice"
    )


# -- the solo game -------------------------------------------------------------


def solo_session(seed: int) -> Session:
    return Session(Game.new(["You"], seed, mode="solo"), (Seat("You"),))


def test_solo_takes_spends_refills_and_stops_from_the_keys():
    """A solo game from the keys alone: takes (with options), a spend, a refill, the stop."""
    seen = set()
    for seed in range(30):
        session = solo_session(seed)
        for _ in range(200):
            if session.state.is_over:
                break
            assert session.chooser.mode() in ("solo", "menu", "recycle")
            spots = session.chooser.selectable()
            if session.chooser.mode() == "solo" and spots:
                assert set(spots) == legal_take_dice(session)
                session.chooser.choose()
                if session.chooser.mode() == "menu":
                    seen.add("take options")
                    session.chooser.choose()
            elif session.chooser.mode() == "solo" and any(
                isinstance(c, SpendMagic) for c in session.legal()
            ):
                session.chooser.magic()
                if session.chooser.mode() == "menu":
                    session.chooser.choose()
                while session.chooser.mode() == "recycle":
                    seen.add("recycle")
                    session.chooser.choose()
            elif session.state.solo.refills_left:
                session.chooser.refill()
                assert session.chooser.mode() == "menu"  # a refill is asked for first: two a game
                session.chooser.choose()
                seen.add("refill")
            else:
                session.chooser.stop()
                assert session.chooser.mode() == "menu"
                session.chooser.choose()
                seen.add("stop")
        assert session.state.is_over and session.overlay == "over"
        kinds = {type(e) for _, e in session.game.events()}
        assert sev.SoloGameEnded in kinds
        if {"take options", "recycle", "refill"} <= seen:
            break
    assert {"take options", "recycle", "refill"} <= seen
