"""Random legal and illegal commands, undo included, through whole multiplayer games.

After every step: all 60 dice exist exactly once across bag, mountain and troves;
a refused command left the log's bytes unchanged; rebuilding from the log file
equals the live state; every round's scores equal an independent recomputation.
"""

from __future__ import annotations

import shutil
import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import event as note_event
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from core.commands import (
    CacheDice,
    ChooseHero,
    EndMagicTurn,
    ShareBeer,
    SpendMagic,
    TakeDie,
)
from core.dice import ALL_DICE, HERO_NAMES
from core.errors import RuleError
from core.events.codec import decode_batch
from core.game import Game
from core.log import follow_log
from core.modes.multiplayer import events as ev
from core.projections.apply import apply
from core.projections.timeline import replay
from core.store import load_batches
from tests.support.builders import dice_places

# -- an independent scorer, written from RULES.md without the engine's code -------


def reference_tunnels(faces: list[str]) -> int:
    """Build sequences greedily from 1 upward; a die joins at most one sequence."""
    left = Counter(f for f in faces if f in "12345" and f)
    total = 0
    while left["1"]:
        value = 0
        for v in "12345":
            if not left[v]:
                break
            left[v] -= 1
            value += int(v)
        total += value
    return total


def reference_round(troves: list[list[str]], compared: list[int]) -> list[tuple[int, int, int]]:
    """(tunnel, treasure, hazard) per seat, comparing only ``compared`` for the doubling."""
    gem_value = {"gem1": 1, "gem2": 2, "gem3": 3}
    gems = [sum(gem_value.get(f, 0) for f in t) for t in troves]
    best = max(gems[s] for s in compared)
    leaders = [s for s in compared if gems[s] == best]
    out = []
    for seat, faces in enumerate(troves):
        c = sum({"cavein1": 1, "cavein2": 2}.get(f, 0) for f in faces)
        d = sum({"dragon1": 1, "dragon2": 2, "dragon4": 4}.get(f, 0) for f in faces)
        p, s = faces.count("pickaxe"), faces.count("shield")
        hazard = (p * c if p else -c) + (s * d if s else -d)
        doubled = best > 0 and leaders == [seat]
        out.append((reference_tunnels(faces), gems[seat] * (2 if doubled else 1), hazard))
    return out


# -- the machine ------------------------------------------------------------------

ANY_INT = st.one_of(st.integers(-2, 64), st.sampled_from([10**9, -(10**9)]))
JUNK = st.one_of(ANY_INT, st.none(), st.text(max_size=3), st.floats(allow_nan=False))


class MultiplayerGame(RuleBasedStateMachine):
    """One logged game driven by random legal and illegal commands."""

    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="dm-machine-"))
        self.game: Game | None = None

    def start(self, players: int, seed: int) -> None:
        names = ["Ada", "Brok", "Cira", "Dain"][:players]
        self.path = self.dir / "game.dmlog"
        self.game = Game.new(names, seed=seed, log=self.path, sync=False)

    def teardown(self) -> None:
        if self.game is not None:
            note_event(f"{self.game.state.players} players, game over: {self.game.state.is_over}")
            self.game.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def issue_or_refuse(self, command) -> None:
        before, data = self.game.state, self.path.read_bytes()
        try:
            self.game.issue(command)
        except RuleError as refused:
            assert refused.code and refused.message
            assert self.game.state == before, "a refused command changed the state"
            assert self.path.read_bytes() == data, "a refused command changed the log"

    @precondition(lambda self: self.game is not None and not self.game.state.is_over)
    @rule(data=st.data())
    def legal_command(self, data) -> None:
        legal = self.game.legal()
        self.game.issue(legal[data.draw(st.integers(0, len(legal) - 1))])

    @precondition(lambda self: self.game is not None and not self.game.state.is_over)
    @rule(data=st.data())
    def legal_command_again(self, data) -> None:
        """Weighted twice, so games reach their end."""
        self.legal_command(data)

    @precondition(lambda self: self.game is not None)
    @rule(
        kind=st.sampled_from(["take", "beer", "spend", "end", "cache", "hero"]),
        seat=st.one_of(st.integers(-1, 4), JUNK),
        die=st.one_of(st.integers(0, 59), JUNK),
        other=st.one_of(st.integers(0, 59), JUNK),
        hero=st.sampled_from([*HERO_NAMES, "Wizard"]),
    )
    def random_command(self, kind, seat, die, other, hero) -> None:
        command = {
            "take": lambda: TakeDie(seat, die),
            "beer": lambda: ShareBeer(seat, die, other),
            "spend": lambda: SpendMagic(seat, (other,), die=die),
            "end": lambda: EndMagicTurn(seat),
            "cache": lambda: CacheDice(seat, (die, other)),
            "hero": lambda: ChooseHero(seat, hero),
        }[kind]()
        self.issue_or_refuse(command)

    @precondition(lambda self: self.game is not None and not self.game.state.is_over)
    @rule(data=st.data())
    def legal_command_once_more(self, data) -> None:
        """Weighted three times, so games reach their end despite undos."""
        self.legal_command(data)

    @precondition(lambda self: self.game is not None)
    @rule(chance=st.integers(0, 3))
    def undo(self, chance: int) -> None:
        """Undo, now and then (one time in four when this rule runs)."""
        if chance:
            return
        if self.game.timeline.can_undo():
            self.game.undo()
        else:
            self.issue_or_refuse_undo()

    def issue_or_refuse_undo(self) -> None:
        data = self.path.read_bytes()
        try:
            self.game.undo()
        except RuleError as refused:
            assert refused.code == "nothing_to_undo"
        assert self.path.read_bytes() == data

    @invariant()
    def every_die_exists_exactly_once(self) -> None:
        if self.game is None:
            return
        state = self.game.state
        assert dice_places(state) == list(ALL_DICE)

    @invariant()
    def the_log_file_rebuilds_the_live_state(self) -> None:
        """Follow the file as a reader would, folding what was appended since last time;
        every 25 steps, and at the end, rebuild from the first byte."""
        if self.game is None:
            return
        self.steps = getattr(self, "steps", 0) + 1
        if self.steps % 25 == 0 or self.game.state.is_over or not hasattr(self, "follow"):
            scan, batches = load_batches(self.path)
            self.follow = (scan.end, scan.records + 1, replay(batches))
        else:
            offset, record, timeline = self.follow
            payloads, offset, record = follow_log(self.path, offset, record)
            for payload in payloads:
                timeline = timeline.apply_batch(decode_batch(payload))
            self.follow = (offset, record, timeline)
        assert self.follow[2].state == self.game.state

    @invariant()
    def scores_match_an_independent_recomputation(self) -> None:
        if self.game is None or getattr(self, "scored_upto", 0) >= self.game.seq:
            return
        new = self.game.batches(getattr(self, "scored_upto", 0))
        self.scored_upto = self.game.seq
        for batch in new:
            if not any(isinstance(e, ev.RoundScored | ev.TieBreakScored) for e in batch.events):
                continue
            state = replay(self.game.batches(), upto=batch.seq).state
            for event in batch.events:
                if isinstance(event, ev.RoundScored | ev.TieBreakScored):
                    troves = [list(state.trove_faces(s)) for s in range(state.players)]
                    if isinstance(event, ev.RoundScored):
                        expected = reference_round(troves, list(range(state.players)))
                    else:
                        scored = reference_round(troves, list(event.seats))
                        expected = [scored[s] for s in event.seats]
                    assert list(event.scores) == expected
                state = apply(state, event)


def machine_for(players: int) -> type[MultiplayerGame]:
    """The machine with a fixed number of players, so each table size gets whole games."""

    class Machine(MultiplayerGame):
        @initialize(seed=st.integers(0, 2**64 - 1))
        def start(self, seed: int) -> None:
            MultiplayerGame.start(self, players, seed)

    Machine.__name__ = f"Game{players}Players"
    Machine.TestCase.settings = settings(max_examples=4, stateful_step_count=400, deadline=None)
    return Machine


TestTwoPlayers = machine_for(2).TestCase
TestThreePlayers = machine_for(3).TestCase
TestFourPlayers = machine_for(4).TestCase
