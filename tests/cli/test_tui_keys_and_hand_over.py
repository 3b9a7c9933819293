"""What a newcomer's full games in the terminal found, each pinned by a test of the session
(the screen's own checks are in ``tests/cli/tmux/test_keys_and_hand_over.py``): space
that took a die, no hand-over between people at one keyboard, words that were not a
person's."""

from __future__ import annotations

import itertools

from core.game import Game
from frontends.cli.tui import overlays, panels
from frontends.cli.tui.session import Session
from frontends.cli.tui.table import Seat, bot_seat
from tests.support.tui import advance, session_for


def text_of(fragments) -> str:
    return "".join(f[1] for f in fragments)


def test_space_never_takes_a_die_it_says_what_enter_does():
    session = session_for(5)
    assert advance(session, lambda s: s.chooser.mode() == "take")
    seq = session.game.seq
    session.chooser.toggle()
    assert session.game.seq == seq  # nothing taken
    assert session.status == (
        "Enter takes the die; space only picks dice, to reroll, cache or recycle."
    )
    session.chooser.choose()
    assert session.game.seq > seq


HOTSEAT = (Seat("Ada"), Seat("Bo"), bot_seat("Cira", "random"))


def hotseat(seed: int = 3) -> Session:
    return Session(Game.new([s.name for s in HOTSEAT], seed), HOTSEAT)


def test_hot_seat_hands_the_keyboard_over_and_waits_for_the_next_person():
    """When the game turns from one person to another, the screen says whose turn it is and
    waits for a key; the same person moving again, or a bot, is not announced."""
    session = hotseat()
    handed = []
    for _ in range(200):
        if session.state.is_over or len(handed) >= 6:
            break
        if session.overlay == "handover":
            seat = session.human_to_act()
            assert seat is not None and seat != session.at_keyboard
            shown = text_of(overlays.handover(session))
            assert f"Pass the keyboard to {session.names[seat]}." in shown
            assert text_of(panels.keys(session, 100)).startswith(" Enter  play")
            assert session.chooser.mode() != "wait"  # the game waits for that person
            handed.append(seat)
            session.back()  # Enter: the next person has the keyboard
            assert session.overlay is None and session.at_keyboard == seat
            continue
        if session.overlay in ("round", "help"):
            session.back()
            continue
        mover = session.human_to_act()
        if mover is not None:
            assert mover == session.at_keyboard  # no one plays at another's turn unannounced
        if session.bot_step():
            continue
        if session.chooser.mode() == "magic":
            session.chooser.end_turn()
        else:
            session.chooser.choose()
    assert len(handed) == 6 and set(handed) == {0, 1}
    assert all(a != b for a, b in itertools.pairwise(handed))


def test_a_game_against_bots_never_hands_over():
    session = session_for(5)
    for _ in range(60):
        assert session.overlay != "handover"
        if session.overlay in ("round", "help"):
            session.back()
        elif not session.bot_step():
            session.chooser.choose()


def test_every_line_of_an_undone_command_is_shown_undone_the_end_of_a_solo_game_too():
    """The refill that left nothing to do ended the game ("... can do nothing more"); undone,
    that line stayed as if it still held. Now each of the command's lines is marked."""
    from tests.support.solo_lines import TO_THE_BEER, TO_THE_END, played

    session = Session(played(*TO_THE_BEER, *TO_THE_END, practice=True), (Seat("You"),))
    assert session.state.is_over
    last = session.game.seq - 1
    batch_seq = session.game.batches(last)[-1].seq
    ending = [line for line in session.lines if line.seq >= batch_seq]
    assert len(ending) >= 2 and "nothing more" in ending[-1].text
    drawn = text_of(panels.events(session, 30, 200))
    assert "(undone)" not in drawn
    assert session.undo()
    assert set(range(batch_seq, last + 1)) <= session.undone
    events = panels.events(session, 30, 200)
    for line in ending:
        marked = [f for f in events if f[1].strip() == f"{line.text} (undone)"]
        assert marked and "strike" in marked[0][0], line.text
    assert "undone: " in text_of(events)


def test_serve_help_names_the_data_folder_it_will_really_use(capsys, monkeypatch, tmp_path):
    """With XDG_DATA_HOME set, ``serve --help`` said ~/.local/share all the same."""
    from tests.support.cli_helpers import run_cli

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("COLUMNS", "300")  # one line per option, as the words are checked
    code, out, _ = run_cli(capsys, "serve", "--help")
    assert code == 0
    assert f"(default: {tmp_path / 'xdg' / 'dice-miner' / 'web'})" in out
    assert ".local/share" not in out
