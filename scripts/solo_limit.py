"""How far the expert is from the solo game's limit: ``python -m scripts.solo_limit``.

A player who knew every die to come could do at least as well as any real player
on the same dice, so a clairvoyant's mean over many games bounds what any policy
can average. This plays ``--games`` seeded solo games in the bots' model of the
solo game (``SoloModel``, which the tests check against the rules), the dice to
come dealt once per game (``Future``: a draw order and faces for every bag die,
from a stream of the game's seed), and lets three players meet exactly the same
dice:

- ``greedy`` and ``expert``, who see only what a player sees (their own imagined
  futures, never the dealt one);
- ``clairvoyant``, who plays out each of its candidates (every action, up to
  ``--width``) on the dealt future itself and takes the best: exact where the
  expert guesses, then greedy to the end. It is a lower estimate of the perfect
  player with hindsight (a real search could still beat it), so the fraction
  reported is an upper estimate of how close the expert comes.

The report gives each player's mean (95% interval), the games per rating band,
and the expert's mean as a fraction of the clairvoyant's. Last, a yardstick for
the dice themselves (``ceiling``): the score of every die of the game taken once,
as first rolled, in the best order, every beer turned to its best face and every
tool and chest put to its best use, with the mountain, the two refills and the
taking order ignored. No player reaches it (a recycled die may come back with
another face, so it is no strict bound either); if even it falls short of a
band, that band asks for more than the dice set as built (rule D1) holds.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from itertools import product
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.bots.expert_solo import decide
from core.bots.solo_eval import FREE, best_of, greedy_action, ranked
from core.bots.solo_model import CAVE, CHESTS, DIE_KIND, GEMS, HAZ, KINDS, Action, SoloModel
from core.bots.solo_search import Future, head, shortlist
from core.dice import BEER
from core.game import Game
from core.modes.solo.scoring import RATINGS, SEQUENCE_POINTS, rating
from core.rng import DiceRng, derive_seed
from scripts.bot_strength import mean_interval

#: A player in the model: (position, the dealt future, its own generator) -> action.
Player = Callable[[SoloModel, Future, DiceRng], Action | None]
#: Most actions a game takes (a solo game needs well under 100).
MAX_STEPS = 400


def greedy(m: SoloModel, dealt: Future, rng: DiceRng) -> Action | None:
    """The greedy policy (``core.bots.solo_eval``)."""
    return greedy_action(m, rng)


def expert(m: SoloModel, dealt: Future, rng: DiceRng) -> Action | None:
    """The expert's policy (``core.bots.expert_solo``); it never reads ``dealt``."""
    return decide(m, ranked(m, m.actions(prune=True)), rng)


def clairvoyant(width: int) -> Player:
    """Every candidate (up to ``width``) played out on the dealt future; the best."""

    def play(m: SoloModel, dealt: Future, rng: DiceRng) -> Action | None:
        found = ranked(m, m.actions())
        if not found or found[0][0] == FREE:
            return best_of(found, rng)
        actions = shortlist(found, width)
        tie_seed = rng.next_u64()
        scores = [dealt.finish(head(m, a, tie_seed)) for a in actions]
        return best_of([(0, s, a) for s, a in zip(scores, actions, strict=True)], rng)

    return play


def ceiling(seed: int) -> int:
    """The dice's own ceiling for a game (see the module docstring): the starting
    mountain's faces and each bag die's face at the first refill of ``Future``."""
    state = Game.new(["solo"], seed, mode="solo").state
    m = SoloModel.from_state(state)
    first = Future(DiceRng(seed, 1), m.refills).faces[m.refills - 1]
    faces = [m.faces[d] if d in state.mountain else first[d] for d in (*state.mountain, *m.bag)]
    kinds = [DIE_KIND[d] for d in (*state.mountain, *m.bag)]
    by_kind: list[list[str]] = [[f for f, k in zip(faces, kinds, strict=True) if k == kind]
                                for kind in range(len(KINDS))]  # fmt: skip
    tunnels, treasures, hazards, tools, _ = by_kind
    counts = [sum(f == str(v) for f in tunnels) for v in range(1, 6)]
    beers = tunnels.count(BEER)
    runs = max(
        k for k in range(len(tunnels) // 5 + 1) if sum(max(0, k - c) for c in counts) <= beers
    )
    gems = sorted((3 if f == BEER else GEMS[f] for f in treasures), reverse=True)
    caves = sorted((HAZ[f] for f in hazards if f != BEER and CAVE[f]), reverse=True)
    dragons = sorted((HAZ[f] for f in hazards if f != BEER and not CAVE[f]), reverse=True)
    wild_hazards, wild_tools = hazards.count(BEER), tools.count(BEER)
    picks, shields = tools.count("pickaxe"), tools.count("shield")
    chest_room = sum(CHESTS[f] for f in tools if f != BEER)
    best = 0
    for to_pick, to_shield in product(range(wild_tools + 1), repeat=2):
        if to_pick + to_shield > wild_tools:
            continue
        room = chest_room + 2 * (wild_tools - to_pick - to_shield)  # a wild tool: 2 chests
        for as_dragons in range(wild_hazards + 1):
            cave = sorted(caves + [2] * (wild_hazards - as_dragons), reverse=True)
            dragon = sorted(dragons + [4] * as_dragons, reverse=True)
            points = sum(gems) + sum(gems[:room])
            points += sum(cave[: picks + to_pick]) + sum(dragon[: shields + to_shield])
            best = max(best, points)
    return SEQUENCE_POINTS * runs + best


def play(seed: int, player: Player) -> int:
    """The final score of one game in the model, the dice to come dealt from ``seed``."""
    m = SoloModel.from_state(Game.new(["solo"], seed, mode="solo").state)
    dealt, rng = Future(DiceRng(seed, 1), m.refills), DiceRng(seed, 2)
    for _ in range(MAX_STEPS):
        action = player(m, dealt, rng)
        if action is None:
            return m.score
        if action[0] == "refill":
            dealt.refill(m)
        else:
            m.apply(action)
    raise RuntimeError(f"a solo game did not end within {MAX_STEPS} actions")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2019)
    parser.add_argument("--width", type=int, default=40, help="the clairvoyant's candidates")
    args = parser.parse_args(argv)
    players = {"greedy": greedy, "expert": expert, "clairvoyant": clairvoyant(args.width)}
    bands = [band for _, band in RATINGS]
    print(f"{args.games} solo games in the model, seed {args.seed}, the same dice for each")
    print(f"{'player':<12} {'mean':>6} {'95%':>7} {'s':>6}  " + "  ".join(bands))
    means = {}
    for name, player in players.items():
        started = time.perf_counter()
        scores = [play(derive_seed(args.seed, i), player) for i in range(args.games)]
        mean, half = mean_interval([float(s) for s in scores])
        means[name] = mean
        counts = [sum(rating(s) == band for s in scores) for band in bands]
        cells = "  ".join(f"{c:>{len(b)}}" for c, b in zip(counts, bands, strict=True))
        elapsed = time.perf_counter() - started
        print(f"{name:<12} {mean:>6.2f} {'±' + format(half, '.2f'):>7} {elapsed:>6.0f}  {cells}")
    print(f"expert / clairvoyant: {means['expert'] / means['clairvoyant']:.1%}")
    tops = [ceiling(derive_seed(args.seed, i)) for i in range(args.games)]
    mean, half = mean_interval([float(t) for t in tops])
    share = sum(t >= 61 for t in tops) / len(tops)
    print(
        f"the dice's ceiling: {mean:.2f} ± {half:.2f}; at 61 or more (Excellent) in {share:.0%} "
        "of the games"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
