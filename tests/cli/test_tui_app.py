"""The terminal game driven through prompt-toolkit's pipe input, as a player would drive it.

Keys go in through ``create_pipe_input``; the screen goes to ``DummyOutput``;
the tests read the session and the log to check what happened.
"""

from __future__ import annotations

import asyncio

import pytest

from core.commands import ChooseHero, TakeDie
from core.game import Game
from core.mountain import covering, dice_on, where
from frontends.cli.tui.session import Session
from frontends.cli.tui.table import seats_from_names
from tests.support.tui import ENTER, ESC, SEATS, Player, new_session, running, until


async def play_turn(player: Player) -> None:
    """One decision at the keyboard, the way a newcomer would make it."""
    s, c = player.session, player.session.chooser
    mode = c.mode()
    if s.overlay in ("round", "help") or mode in ("hero", "take"):
        await player.press(ENTER)
    elif mode == "magic":
        if c.source is None and len(s.lines) % 2:  # now and then, spend magic
            await player.press(ENTER)
            while c.mode() == "spend":
                await player.press(ENTER if c.cursor not in map(_die, c.picked) else "l")
        else:
            await player.press("e")
    elif mode == "cache":
        await player.press(" ")
        await player.press(ENTER)


def _die(d):
    return ("die", d)


def test_a_whole_game_against_bots_by_keyboard(tmp_path):
    """Keys alone play a game to its end; the log holds the same finished game."""

    async def scenario():
        session = new_session(tmp_path)
        async with running(session) as player:
            while session.overlay != "over":
                await player.ready()
                if session.overlay == "over":
                    break
                await play_turn(player)
            assert session.state.is_over
            assert any(line.kind == "round" for line in session.lines)
        return session

    session = asyncio.run(scenario())
    session.game.close()
    logged = Game.load(tmp_path / "game.dmlog")
    assert logged.state == session.state
    mine = [c for c in logged.timeline.commands() if getattr(c, "seat", None) == 0]
    assert any(isinstance(c, ChooseHero) for c in mine)
    assert sum(isinstance(c, TakeDie) for c in mine) >= 3


def test_u_undoes_your_move_and_the_bots_after_it(tmp_path):
    """u steps back to just before your own last move, bots' replies included."""

    async def scenario():
        session = new_session(tmp_path)
        async with running(session) as player:
            await player.ready()
            await player.press(ENTER)  # choose a hero
            await until(lambda: session.chooser.mode() == "take")
            before_state, before_depth = session.state, session.game.timeline.depth
            await player.press(ENTER)  # take a die; the bots answer
            await until(lambda: session.human_to_act() is not None or session.overlay)
            assert session.game.timeline.depth > before_depth + 1  # bots moved too
            await player.press("u")
            assert session.state == before_state
            assert session.game.timeline.depth == before_depth
            assert "Undid" in session.status
            assert session.lines[-1].kind == "undo"

    asyncio.run(scenario())


def test_a_refused_command_shows_the_rule_and_changes_nothing(tmp_path):
    """A covered die typed at the command line: the engine's message, nothing logged."""

    async def scenario():
        session = new_session(tmp_path)
        async with running(session) as player:
            await player.ready()
            await player.press("1")  # the first hero on the list
            await until(lambda: session.chooser.mode() == "take")
            mountain = session.state.mountain
            covered = next(
                d for d in dice_on(mountain) if len(covering(mountain, where(mountain, d))) == 2
            )
            seq, state = session.game.seq, session.state
            await player.press(":")
            assert player.play.cmdline_open
            player.pipe.send_text(f"take {covered}")
            await until(lambda: player.play.buffer.text == f"take {covered}")
            await player.press(ENTER)
            assert session.status_kind == "error"
            assert f"die {covered} is covered" in session.status
            assert session.game.seq == seq and session.state == state
            # a click on the same die is refused the same way
            session.say("")
            session.chooser.click(("die", covered))
            assert "covered" in session.status and session.game.seq == seq

    asyncio.run(scenario())


def test_quit_keeps_the_log_and_resume_continues(tmp_path):
    """q mid-game leaves a log that --resume opens at the same position, and play goes on."""

    async def first_part():
        session = new_session(tmp_path)
        async with running(session) as player:
            await player.ready()
            await player.press(ENTER)
            await until(lambda: session.chooser.mode() == "take")
            await player.press(ENTER)
            await player.ready()
            player.pipe.send_text("\x03")  # Ctrl-C
            await until(lambda: not player.play.app.is_running)
        session.game.close()
        return session.state

    async def second_part():
        game = Game.open(tmp_path / "game.dmlog", sync=False)
        seats, notes = seats_from_names(game.state.names)
        assert seats == SEATS and notes == []
        session = Session(game, seats, tmp_path / "game.dmlog")
        state = session.state
        async with running(session) as player:
            await player.ready()
            if session.chooser.mode() == "take":
                await player.press(ENTER)
                assert session.game.seq > 0 and session.state != state
        game.close()
        return state

    left = asyncio.run(first_part())
    resumed = asyncio.run(second_part())
    assert resumed == left


def test_bots_wait_for_the_score_table_and_help(tmp_path):
    """While an overlay is open the bots do not move; Enter closes it."""

    async def scenario():
        session = new_session(tmp_path)
        async with running(session) as player:
            await player.ready()
            await player.press("?")
            assert session.overlay == "help"
            await player.press(ENTER)
            assert session.overlay is None
            await player.press(ENTER)  # hero chosen: the bots may move now
            session.overlay = "round"
            seq = session.game.seq
            await asyncio.sleep(0.1)
            assert session.game.seq == seq
            await player.press(ESC)
            await until(lambda: session.human_to_act() is not None)

    asyncio.run(scenario())


@pytest.mark.parametrize("keys", ["j", "k", "h", "l"])
def test_hjkl_move_the_cursor_over_selectable_dice(tmp_path, keys):
    """The cursor only ever rests on a die the player may take."""

    async def scenario():
        session = new_session(tmp_path)
        async with running(session) as player:
            await player.ready()
            await player.press(ENTER)
            await until(lambda: session.chooser.mode() == "take")
            for _ in range(3):
                player.pipe.send_text(keys)
                await asyncio.sleep(0.02)
                assert session.chooser.cursor in session.chooser.selectable()

    asyncio.run(scenario())
