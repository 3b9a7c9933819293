"""Random legal and illegal commands, undo included, through whole solo games.

After every step: all 60 dice exist exactly once across bag, mountain, trove and
out of the game; a refused command left the log's bytes and the state unchanged;
rebuilding from the log equals the live state; the solo bookkeeping holds (every
hazard neutralized by its own matching tool, chests within capacity, sequences
1, 2, 3... with each tunnel die in one); and the end's score is the trove's.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from core.commands import EndSolo, Refill, SpendMagic, TakeDie
from core.dice import ALL_DICE, ALL_FACES, KIND_OF, cave_ins, chests, dragons
from core.errors import RuleError
from core.game import Game
from core.modes.solo import events as sev
from core.modes.solo.scoring import solo_score
from core.mountain import dice_on
from core.projections.timeline import replay
from core.rules import resolve
from core.rules.legal import legal_commands
from tests.support.builders import dice_places

ANY_INT = st.one_of(st.integers(-2, 64), st.sampled_from([10**9, -(10**9)]))
JUNK = st.one_of(ANY_INT, st.none(), st.text(max_size=3), st.floats(allow_nan=False))
FACE_CHOICES = st.one_of(st.none(), st.sampled_from(sorted(ALL_FACES)), JUNK)


class SoloGame(RuleBasedStateMachine):
    """One in-memory solo game driven by random legal and illegal commands."""

    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None

    @initialize(seed=st.integers(0, 2**64 - 1), magic=st.sampled_from([3, 3, 2, 1, 0]))
    def start(self, seed: int, magic: int) -> None:
        self.game = Game.new(["Ada"], seed=seed, mode="solo", starting_magic=magic)

    def issue_or_refuse(self, command) -> None:
        before, payloads = self.game.state, list(self.game.stream.payloads())
        try:
            self.game.issue(command)
        except RuleError as refused:
            assert refused.code and refused.message
            assert self.game.state == before, "a refused command changed the state"
            assert self.game.stream.payloads() == payloads, "a refused command changed the log"

    @rule(data=st.data())
    def legal_command(self, data) -> None:
        """Any legal command but stopping; once the game is over, an undo to play on."""
        if self.game.state.is_over:
            if self.game.timeline.can_undo():  # a game can end at setup: nothing to undo
                self.game.undo()
            return
        legal = [c for c in self.game.legal() if not isinstance(c, EndSolo)]
        if legal:
            command = legal[data.draw(st.integers(0, len(legal) - 1))]
            self.game.issue(command)
            event(f"issued {type(command).__name__}")  # statistics: what the games exercise

    @rule(data=st.data())
    def legal_command_again(self, data) -> None:
        """Weighted three times, so games reach their end."""
        self.legal_command(data)

    @rule(data=st.data())
    def legal_command_once_more(self, data) -> None:
        self.legal_command(data)

    @rule(
        kind=st.sampled_from(["take", "take", "spend", "refill", "stop"]),
        seat=st.one_of(st.just(0), st.just(0), ANY_INT, JUNK),
        die=st.one_of(st.integers(0, 59), JUNK),
        as_face=FACE_CHOICES,
        freeze=st.one_of(st.booleans(), JUNK),
        recycled=st.lists(st.one_of(st.integers(0, 59), JUNK), max_size=4),
    )
    def random_command(self, kind, seat, die, as_face, freeze, recycled) -> None:
        command = {
            "take": lambda: TakeDie(seat, die, as_face, freeze),
            "spend": lambda: SpendMagic(seat, tuple(recycled), die=die),
            "refill": lambda: Refill(seat),
            "stop": lambda: EndSolo(seat),
        }[kind]()
        self.issue_or_refuse(command)

    @rule()
    def decide_accepts_exactly_the_legal_takes(self) -> None:
        """Every way of taking every mountain die: accepted if and only if it is legal."""
        state = self.game.state
        if state.is_over:
            return
        legal = set(legal_commands(state))
        for die in dice_on(state.mountain):
            for as_face in (None, *sorted(ALL_FACES)):
                for freeze in (False, True):
                    command = TakeDie(0, die, as_face, freeze)
                    try:
                        resolve(state, command, self.game.rng())
                        accepted = True
                    except RuleError:
                        accepted = False
                    assert accepted == (command in legal), command
        assert (Refill(0) in legal) == self.accepts(Refill(0))

    def accepts(self, command) -> bool:
        try:
            resolve(self.game.state, command, self.game.rng())
        except RuleError:
            return False
        return True

    @rule()
    def undo(self) -> None:
        payloads = list(self.game.stream.payloads())
        if self.game.timeline.can_undo():
            self.game.undo()
            return
        try:
            self.game.undo()
        except RuleError as refused:
            assert refused.code == "nothing_to_undo"
        assert self.game.stream.payloads() == payloads

    @invariant()
    def every_die_exists_exactly_once(self) -> None:
        if self.game is None:
            return
        state = self.game.state
        assert dice_places(state) == list(ALL_DICE)
        assert all((state.faces[d] is None) == (d in state.bag) for d in ALL_DICE)
        assert all(KIND_OF[d] == "magic" for d in state.solo.out_of_game)

    @invariant()
    def the_log_rebuilds_the_live_state(self) -> None:
        if self.game is not None:
            assert replay(self.game.batches()).state == self.game.state

    @invariant()
    def the_solo_bookkeeping_holds(self) -> None:
        if self.game is None:
            return
        state = self.game.state
        trove, faces = state.troves[0], state.faces
        assert 0 <= state.solo.refills_left <= 2
        hazards = [d for d in trove if KIND_OF[d] == "hazard"]
        assert sorted(h for h, _ in state.solo.neutralized) == sorted(hazards)
        tools = [t for _, t in state.solo.neutralized]
        assert len(set(tools)) == len(tools) and set(tools) <= set(trove)
        for hazard, tool in state.solo.neutralized:
            assert faces[tool] == ("pickaxe" if cave_ins(faces[hazard]) else "shield")
            assert cave_ins(faces[hazard]) or dragons(faces[hazard])
        held = Counter(chest for _, chest in state.solo.frozen)
        assert all(n <= chests(faces[chest]) and chest in trove for chest, n in held.items())
        assert all(KIND_OF[d] == "treasure" and d in trove for d, _ in state.solo.frozen)
        sequenced = [d for seq in state.solo.sequences for d in seq]
        assert sorted(sequenced) == sorted(d for d in trove if KIND_OF[d] == "tunnel")
        for seq in state.solo.sequences:
            assert [faces[d] for d in seq] == [str(v) for v in range(1, len(seq) + 1)]

    @invariant()
    def the_end_scores_the_trove(self) -> None:
        if self.game is None or not self.game.state.is_over:
            return
        ended = self.game.events()[-1][1]
        assert isinstance(ended, sev.SoloGameEnded)
        event(f"ended, {'stopped' if ended.stopped else 'nothing left to do'}")
        result = solo_score(self.game.state)
        assert (ended.score, ended.rating) == (result.score, result.rating)
        if not ended.stopped:
            assert [type(c) for c in self.game.legal()] == []
            state = self.game.state
            assert self.game.state.is_over and state.phase == "over"


SoloGame.TestCase.settings = settings(max_examples=25, stateful_step_count=70, deadline=None)
TestSoloGame = SoloGame.TestCase


def test_the_game_never_waits_with_only_stopping_left():
    """The automatic end fires as soon as taking, spending and refilling are all impossible."""
    ends = Counter()
    for seed in range(30):
        game = Game.new(["Ada"], seed=seed, mode="solo", starting_magic=seed % 4)
        while not game.state.is_over:
            legal = [c for c in game.legal() if not isinstance(c, EndSolo)]
            assert legal, "a game waiting for a command must offer more than stopping"
            game.issue(legal[(seed * 7 + game.seq) % len(legal)])
        ended = game.events()[-1][1]
        ends[ended.stopped] += 1
    assert ends == {False: 30}
