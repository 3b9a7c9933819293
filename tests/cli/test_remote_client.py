"""The terminal's network client against a real server: links, choices, moves, refusals,
a lost answer and a dropped stream (``frontends.cli.remote``).

The server is the real web app on a real HTTP server (``tests.support.web_support.LiveServer``),
or ``dice-miner serve`` itself in its own process (``tests.support.serve_support.Server``) where
it must be killed and started again; nothing of the server is stubbed.
"""

from __future__ import annotations

import pytest

from core.commands import ChooseHero
from core.read.choices import choices
from frontends.cli.remote.client import Client, ServerError, refusal
from frontends.cli.remote.command import RemoteError, connect
from frontends.cli.remote.follow import Follower
from frontends.cli.remote.link import BadLink, Link, parse_link
from frontends.cli.remote.session import RemoteSession
from frontends.cli.remote.table import fetch
from frontends.web.readmodel import board_view
from tests.support.polling import wait_until
from tests.support.ports import free_port
from tests.support.remote_support import Proxy
from tests.support.serve_support import Server, call
from tests.support.web_support import LiveServer, api, make_app

PEOPLE = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": None}]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("web"), SSE_MAX_SECONDS=2.0)
    with LiveServer(app) as live:
        yield live


def new_game(server, players=PEOPLE, seed: int = 11, url: str | None = None) -> dict:
    game = api(server, "/api/games", {"players": players, "seed": seed})
    base = url or server.url
    game["links"] = {s["seat"]: base + s["link"] for s in game["seats"] if "link" in s}
    game["watch_url"] = base + game["watch"]
    return game


def join(link: str) -> RemoteSession:
    return RemoteSession(*connect(parse_link(link, need_seat=True)))


def first_move(session: RemoteSession):
    """The first complete move the server offers the seat to act (as a person would pick)."""
    model = session.chooser.choices
    assert model.turn
    if model.heroes:
        return model.heroes[0].option.command
    if model.takes:
        return model.takes[0].options[0].command
    if model.end is not None:
        return model.end.command
    if model.cache is not None:
        return model.cache.command(())
    raise AssertionError(f"nothing to play in {model.phase}")


def caught_up(session: RemoteSession) -> None:
    """Fetch and fold the server's game now (what the stream's wake-up does on the screen)."""
    session.catch_up_with(fetch(session.remote.client))


# -- links -------------------------------------------------------------------------------


def test_a_link_names_its_server_game_and_seat():
    link = parse_link("http://h:5000/games/abc-1#seat=2&token=s3cret", need_seat=True)
    assert link == Link("http://h:5000", "abc-1", 2, "s3cret")
    assert link.api == "http://h:5000/api/games/abc-1"
    behind = parse_link("https://example.org/dice/games/g9/", need_seat=False)
    assert behind == Link("https://example.org/dice", "g9") and behind.seat is None
    with pytest.raises(BadLink, match="holds no seat"):
        parse_link("http://h/games/abc", need_seat=True)
    with pytest.raises(BadLink, match="not a game's web address"):
        parse_link("h/games/abc", need_seat=False)
    with pytest.raises(BadLink, match="names no game"):
        parse_link("http://h/replays/abc", need_seat=False)


# -- a whole game, two terminals --------------------------------------------------------------


def test_two_joined_seats_play_a_whole_game_each_board_the_servers(server):
    """Two seats played through the client to the end: each move is the server's own
    offer, both boards are the server's board after every move, and the choices read
    from the server are core's read model exactly."""
    game = new_game(server)
    sessions = {seat: join(link) for seat, link in game["links"].items()}
    watcher = RemoteSession(*connect(parse_link(game["watch_url"], need_seat=False)))
    moves = 0
    while True:
        for session in (*sessions.values(), watcher):
            caught_up(session)
        state = api(server, f"/api/games/{game['id']}/state")
        for session in (*sessions.values(), watcher):
            assert board_view(session.game.state, session.game.seq) == state
        if watcher.game.state.is_over:
            break
        seat = state["table"]["to_act_seat"]
        session = sessions[seat]
        assert session.human_to_act() == seat
        assert session.chooser.choices == choices(session.game.state, seat)
        assert sessions[1 - seat].human_to_act() is None  # the other waits
        assert session.issue(first_move(session)), session.status
        moves += 1
    assert moves > 40
    winners = api(server, f"/api/games/{game['id']}")["winners"]
    assert winners and watcher.overlay == "over"
    assert all(name in watcher.lines[-1].text for name in winners)


# -- refusals and failures -----------------------------------------------------------------------


def test_refusals_and_failures_are_sentences_and_change_nothing(server):
    game = new_game(server, seed=12)
    first = api(server, f"/api/games/{game['id']}")["to_act"]
    waiting = join(game["links"][1 - first])
    seq = waiting.game.seq
    # out of turn: the engine's refusal, its sentence on the status line, nothing sent twice
    assert not waiting.issue(ChooseHero(1 - first, "Engineer"))
    assert waiting.status_kind == "error" and "turn" in waiting.status.lower()
    # a watcher cannot move or undo
    watcher = RemoteSession(*connect(parse_link(game["watch_url"], need_seat=False)))
    assert not watcher.issue(ChooseHero(first, "Engineer"))
    assert watcher.status == "You are watching this game: only its players move."
    assert not watcher.undo() and "watching" in watcher.status
    # a wrong secret: the server's 403, as a sentence
    forged = Link(server.url, game["id"], first, "not-the-token")
    with pytest.raises(ServerError) as refused:
        Client(forged).send(
            {"t": "hero", "seat": first, "hero": "Engineer"}, seq=seq, request_id="x1"
        )
    assert refused.value.status == 403
    assert refused.value.sentence == "A move needs the secret link of the seat it is for."
    # a game the server does not have
    with pytest.raises(RemoteError, match=r"no game 'nope'.*may have ended"):
        connect(parse_link(f"{server.url}/games/nope#seat=0&token=t", need_seat=True))
    # a server that is not there
    gone = Client(Link(f"http://127.0.0.1:{free_port()}", "g"))
    with pytest.raises(ServerError) as unreachable:
        gone.summary()
    assert not unreachable.value.reached
    assert "cannot be reached (connection refused)" in unreachable.value.sentence
    assert api(server, f"/api/games/{game['id']}")["seq"] == seq  # nothing was played


# -- a dropped connection --------------------------------------------------------------------


def test_a_move_whose_answer_is_lost_is_made_once_when_tried_again(server):
    """The server gets the move and answers, but the answer never arrives (the proxy drops
    it, as a dropped connection would): the player is told it was not confirmed, and
    trying the same move again sends the same request id, so it is made once."""
    proxy = Proxy(("127.0.0.1", int(server.url.rsplit(":", 1)[1])))
    try:
        game = new_game(server, seed=13, url=proxy.url)
        seat = api(server, f"/api/games/{game['id']}")["to_act"]
        session = join(game["links"][seat])
        move = first_move(session)
        before = len(api(server, f"/api/games/{game['id']}/events")["events"])
        proxy.drop_posts = 1 + 3  # the first try and each of the client's own retries
        assert not session.issue(move)
        assert proxy.dropped == 4
        assert "cannot be reached" in session.status and "not made yet" in session.status
        made = api(server, f"/api/games/{game['id']}/events")["events"]
        assert len(made) > before  # the server did make it
        assert session.issue(move), session.status  # the same move again: its first answer
        after = api(server, f"/api/games/{game['id']}/events")["events"]
        assert after == made  # nothing made twice
        assert board_view(session.game.state, session.game.seq) == api(
            server, f"/api/games/{game['id']}/state"
        )
    finally:
        proxy.close()


def follow(link: str) -> tuple[Follower, list[int]]:
    """A follower of the game's stream from its start, and the event ids it is told of."""
    seen: list[int] = []
    follower: Follower

    def wake() -> None:
        if follower.last_id not in seen[-1:]:
            seen.append(follower.last_id)

    follower = Follower(Client(parse_link(link, need_seat=False)), -1, wake)
    return follower.start(), seen


def test_a_stream_cut_mid_game_resumes_without_losing_or_repeating_events(server):
    proxy = Proxy(("127.0.0.1", int(server.url.rsplit(":", 1)[1])))
    try:
        game = new_game(server, seed=14, url=proxy.url)
        follower, seen = follow(game["watch_url"])
        seats = {seat: join(link) for seat, link in game["links"].items()}
        for _ in range(4):  # each cut waits out the follower's backoff
            seq = api(server, f"/api/games/{game['id']}")["seq"]
            assert wait_until(lambda seq=seq: seen[-1:] == [seq - 1])
            assert proxy.cut() >= 1  # the stream, cut in the middle of the game
            to_act = api(server, f"/api/games/{game['id']}")["to_act"]
            caught_up(seats[to_act])
            assert seats[to_act].issue(first_move(seats[to_act])), seats[to_act].status
        end = api(server, f"/api/games/{game['id']}")["seq"]
        assert wait_until(lambda: seen[-1:] == [end - 1])
        assert seen == list(range(end))  # each event once, in order, none missed
        follower.stop()
    finally:
        proxy.close()


def test_a_server_restarted_mid_game_is_followed_again_and_played_on(tmp_path):
    """``dice-miner serve`` killed and started again on its port (its games kept in its
    file store): the terminal says it is disconnected, then catches up and plays on."""
    port = free_port()
    options = ("--port", str(port), "--data", str(tmp_path / "data"), "--access-log", "off")
    first = Server(*options)
    try:
        people = {"players": PEOPLE, "seed": 15}
        status, game, _ = call(first, "POST", "/api/games", people)
        assert status == 201
        links = {s["seat"]: first.url + s["link"] for s in game["seats"]}
        sessions = {seat: join(link) for seat, link in links.items()}
        follower, seen = follow(first.url + game["watch"])
        for _ in range(3):
            session = next(s for s in sessions.values() if s.human_to_act() is not None)
            assert session.issue(first_move(session))
            for other in sessions.values():
                caught_up(other)
        first.kill()
        assert wait_until(lambda: follower.problem is not None, timeout=15)
        assert "cannot be reached" in follower.problem
        session = next(s for s in sessions.values() if s.human_to_act() is not None)
        assert not session.issue(first_move(session))
        assert "not made yet" in session.status
        again = Server(*options)
        try:
            assert wait_until(lambda: follower.problem is None, timeout=30)
            assert session.issue(first_move(session)), session.status
            for _ in range(3):
                for other in sessions.values():
                    caught_up(other)
                session = next(s for s in sessions.values() if s.human_to_act() is not None)
                assert session.issue(first_move(session))
            status, now, _ = call(again, "GET", f"/api/games/{game['id']}")
            assert wait_until(lambda: seen[-1:] == [now["seq"] - 1], timeout=15)
            assert seen == list(range(now["seq"]))
            status, state, _ = call(again, "GET", f"/api/games/{game['id']}/state")
            assert board_view(session.game.state, session.game.seq) == state
        finally:
            follower.stop()
            again.stop()
    finally:
        first.stop()


def test_the_commands_say_what_is_wrong_in_one_line(server, capsys):
    from frontends.cli.main import main

    assert main(["join", "localhost/games/x"]) == 2
    assert "is not a game's web address" in capsys.readouterr().err
    assert main(["join", f"{server.url}/games/x"]) == 2
    assert "that link holds no seat" in capsys.readouterr().err
    assert main(["watch", f"http://127.0.0.1:{free_port()}/games/x"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dice-miner: The server at") and "cannot be reached" in err
    assert err.count("\n") == 1
    game = new_game(server, seed=16)
    assert main(["watch", game["watch_url"]]) == 2  # pytest's output is no terminal
    last = capsys.readouterr().err.splitlines()[-1]  # after the test server's own log lines
    assert last == "dice-miner: join and watch need a terminal"


def test_an_undo_is_the_servers_and_both_boards_go_back(server):
    game = new_game(server, seed=17)
    sessions = {seat: join(link) for seat, link in game["links"].items()}
    for _ in range(4):  # both heroes, and a die or two
        for session in sessions.values():
            caught_up(session)
        session = next(s for s in sessions.values() if s.human_to_act() is not None)
        assert session.issue(first_move(session))
    mover = session
    before = api(server, f"/api/games/{game['id']}/state")
    assert mover.undo(), mover.status
    assert mover.status.startswith("Undid ")
    after = api(server, f"/api/games/{game['id']}/state")
    assert after["seq"] > before["seq"]  # the log only grows: the undo is an event
    for session in sessions.values():
        caught_up(session)
        assert board_view(session.game.state, session.game.seq) == after
        assert session.lines[-1].text.startswith("undone: ")


def test_a_busy_server_and_a_stranger_are_answered_in_sentences():
    busy = refusal(503, b'{"error": {"code": "store_unavailable", "message": "db down"}}')
    assert busy.sentence == "The server is busy or its store is away (db down); try again."
    assert busy.reached and busy.code == "store_unavailable"
    html = refusal(502, b"<html>Bad Gateway</html>")
    assert html.sentence == "The server answered 502." and html.code == "http_502"
