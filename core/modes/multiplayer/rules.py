"""The multiplayer game's rules (RULES.md section 3): each command becomes events or is refused.

Every handler validates first and emits only once everything is known to be
legal, so a refused command emits nothing. Follow-on transitions come from
``core.modes.multiplayer.flow.advance`` in the same batch.
"""

from __future__ import annotations

from core.commands import (
    CacheDice,
    ChooseHero,
    Command,
    EndMagicTurn,
    ShareBeer,
    SpendMagic,
    TakeDie,
)
from core.dice import BEER, HEROES
from core.errors import RuleError
from core.modes.multiplayer import events as ev
from core.modes.multiplayer.cache import cache_capacity, is_legal_cache
from core.modes.multiplayer.magic import MagicSource, magic_sources, reroll_targets
from core.mountain import SLOTS, is_top, slide_run
from core.projections.state import EXCAVATION, MAGIC, REPLENISH, SETUP
from core.rules.chance import roll_dice
from core.rules.checks import (
    check_die,
    check_distinct,
    check_flag,
    check_own_die,
    check_phase,
    check_seat,
    check_turn,
    mountain_slot,
    refuse_covered,
)
from core.rules.emitter import Emitter, Handler
from core.words import face_words


def choose_hero(out: Emitter, cmd: ChooseHero) -> None:
    """Heroes are chosen counter-clockwise from the first player's right; one each."""
    state = out.state
    seat = check_turn(state, cmd.seat)
    check_phase(state, SETUP, "choose a hero")
    if type(cmd.hero) is not str or cmd.hero not in HEROES:
        raise RuleError("unknown_hero", f"there is no hero {cmd.hero!r}; pick one of {_heroes()}")
    if cmd.hero in state.heroes:
        holder = state.names[state.heroes.index(cmd.hero)]
        raise RuleError("hero_taken", f"{holder} already chose the {cmd.hero}")
    out.emit(ev.HeroChosen(seat, cmd.hero, HEROES[cmd.hero]))


def _heroes() -> str:
    return ", ".join(HEROES)


def take_die(out: Emitter, cmd: TakeDie) -> None:
    """Take a top die, or a side die after sharing a beer; a side pick slides its run (D3)."""
    state = out.state
    seat = check_turn(state, cmd.seat)
    check_phase(state, EXCAVATION, "take dice from the mountain")
    die = check_die(cmd.die)
    if cmd.as_face is not None or check_flag(cmd.freeze, "freeze"):
        raise RuleError("solo_only", "choosing a face or freezing a gem is for the solo game")
    k = mountain_slot(state, die)
    if is_top(state.mountain, k):
        slides: tuple[tuple[int, int, int], ...] = ()  # nothing rests on a top die
    else:
        refuse_covered(state, die, k, side_allowed=state.beer_shared)
        slides = tuple((d, *SLOTS[t]) for d, t in slide_run(state.mountain, k))  # rule D3
    row, col = SLOTS[k]
    face = state.faces[die]
    assert face is not None, "a die on the mountain shows a face"
    out.emit(ev.DieTaken(seat, die, face, row, col, slides))


def share_beer(out: Emitter, cmd: ShareBeer) -> None:
    """At the start of a turn: reroll a beer die of your trove, give it away, take two dice."""
    state = out.state
    seat = check_turn(state, cmd.seat)
    check_phase(state, EXCAVATION, "share a beer")
    if state.beer_shared:
        raise RuleError("beer_already_shared", "you already shared a beer this turn")
    die = check_own_die(state, seat, cmd.die)
    if state.faces[die] != BEER:
        raise RuleError("not_beer", f"die {die} shows {face_words(state.faces[die])}, not beer")
    to = check_seat(state, cmd.to_seat)
    if to == seat:
        raise RuleError("bad_recipient", "share the beer with another player, not yourself")
    ((_, face),) = roll_dice((die,), out.rng)
    out.emit(ev.BeerShared(seat, die, to, face))


def spend_magic(out: Emitter, cmd: SpendMagic) -> None:
    """Spend one magic face to reroll exactly its number of eligible dice (rule D6)."""
    state = out.state
    seat = check_turn(state, cmd.seat)
    check_phase(state, MAGIC, "spend magic")
    source = _source(state, seat, cmd)
    targets = tuple(check_own_die(state, seat, d) for d in cmd.targets)
    check_distinct(targets, "rerolled")
    eligible = reroll_targets(state, seat, source.die)
    for d in targets:
        if d not in eligible:
            raise RuleError(
                "bad_target", f"die {d} cannot be rerolled: {_why_not(state, d, source)}"
            )
    needed = min(source.symbols, len(eligible))  # targets_needed, rule D6
    if len(targets) != needed:
        raise RuleError(
            "wrong_target_count",
            f"{_source_name(source)} shows {source.symbols} magic; choose exactly {needed} "
            f"{'die' if needed == 1 else 'dice'} to reroll, not {len(targets)}",
        )
    out.emit(ev.MagicSpent(seat, source.die, source.hero_face, roll_dice(targets, out.rng)))


def _source(state, seat, cmd: SpendMagic) -> MagicSource:
    if (cmd.die is None) == (cmd.hero_face is None):
        raise RuleError("bad_source", "spend either a magic die or a hero face")
    sources = magic_sources(state, seat)
    if cmd.die is not None:
        die = check_own_die(state, seat, cmd.die)
        for s in sources:
            if s.die == die:
                return s
        if die in state.spent:
            raise RuleError("magic_spent", f"die {die} was already spent this round")
        raise RuleError(
            "no_magic", f"die {die} shows {face_words(state.faces[die])}, no magic to spend"
        )
    faces = state.hero_faces(seat)
    if type(cmd.hero_face) is not int or not 0 <= cmd.hero_face < len(faces):
        face = cmd.hero_face
        named = f"h{face}" if type(face) is int else repr(face)
        faces_are = f"its faces are h0 to h{len(faces) - 1}"
        raise RuleError("not_hero_face", f"your hero has no face {named} ({faces_are})")
    for s in sources:
        if s.hero_face == cmd.hero_face:
            return s
    if cmd.hero_face in state.hero_spent[seat]:
        raise RuleError("magic_spent", f"hero face h{cmd.hero_face} was already spent this round")
    raise RuleError(
        "no_magic", f"hero face h{cmd.hero_face} shows {face_words(faces[cmd.hero_face])}, no magic"
    )


def _source_name(source: MagicSource) -> str:
    return f"die {source.die}" if source.die is not None else f"hero face h{source.hero_face}"


def _why_not(state, die: int, source: MagicSource) -> str:
    if die == source.die:
        return "it is the die being spent"
    if die in state.spent:
        return "it is a magic die already spent this round"
    return "hazard dice are never rerolled"


def end_magic_turn(out: Emitter, cmd: EndMagicTurn) -> None:
    """Finish your magic turn; the last one scores the round."""
    state = out.state
    seat = check_turn(state, cmd.seat)
    check_phase(state, MAGIC, "end a magic turn")
    out.emit(ev.MagicTurnEnded(seat))


def cache_dice(out: Emitter, cmd: CacheDice) -> None:
    """Keep dice of your trove through the replenish, within your chests (rule D7)."""
    state = out.state
    seat = check_turn(state, cmd.seat)
    check_phase(state, REPLENISH, "cache dice")
    dice = tuple(check_own_die(state, seat, d) for d in cmd.dice)
    check_distinct(dice, "cached")
    if not is_legal_cache(state, seat, dice):
        room = cache_capacity(state, seat, dice)
        raise RuleError(
            "cache_too_big",
            f"you can cache {room} {'die' if room == 1 else 'dice'} with the chests you keep "
            f"in use, not {len(dice)} (a chest die that holds dice is rerolled, not cached)",
        )
    out.emit(ev.DiceCached(seat, tuple(sorted(dice))))


HANDLERS: dict[type[Command], Handler] = {
    ChooseHero: choose_hero,
    TakeDie: take_die,
    ShareBeer: share_beer,
    SpendMagic: spend_magic,
    EndMagicTurn: end_magic_turn,
    CacheDice: cache_dice,
}
