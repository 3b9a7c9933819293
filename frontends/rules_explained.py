"""The rules a player trips on, explained topic by topic in the words of ``docs/RULES.md``.

``rules_summary`` is the reminder of a round's flow; these are the rules behind it
that a newcomer cannot guess from the board: side dice, sharing a beer, freezing, the
hazard formula, beer beating 5 in the first roll. The terminal shows them on its rules
pages (``R``); any frontend may show them, so the words are kept here once. Each topic
is a title and plain sentences, to be wrapped by whoever draws them (a line break
keeps a formula on a line of its own).
"""

from __future__ import annotations

from typing import Final

Topic = tuple[str, str]

#: The multiplayer game's rules, in the order a game meets them.
MULTI_RULES: Final[tuple[Topic, ...]] = (
    (
        "Who starts",
        "Each player rolls a tunnel die; highest starts, beer beats 5; the players tied "
        "for highest roll again. Heroes are chosen starting with the player to the right "
        "of the first player, so the first player chooses last.",
    ),
    (
        "Top and side dice",
        "A top die has neither upper neighbour occupied: a normal turn takes one top die. "
        "A side die has exactly one upper neighbour occupied: only a player who shared a "
        "beer this turn may take side dice. A die with both upper neighbours occupied can "
        "never be taken. When a side die is taken, the diagonal run resting on its covered "
        "side slides down one step to fill the hole.",
    ),
    (
        "Share a beer (b)",
        "At the start of your turn, if a die in your trove shows beer, you may choose "
        "another player, reroll that one beer die and give it to them with its new face "
        "(any die type, hazards too). Then you take two dice this turn, one after the "
        "other, each either a top or a side die. Once per turn. If only one die is left, "
        "you take just that one.",
    ),
    (
        "Magic",
        "A magic die (or a hero magic face) showing N magic symbols rerolls exactly N "
        "distinct dice of your trove chosen by you: never hazard dice, never magic dice "
        "already spent this round, never hero faces, never the spending die itself. A "
        "beer-faced magic die has no symbols.",
    ),
    (
        "Tunnels",
        "Sequences must start at 1, each die in at most one sequence. Score = the sum for "
        "v = 1..5 of v x min(count of 1s, …, count of v's): 1,2,3 → 6; 1,2,4 → 3; "
        "2,3,4 → 0; 1,1,2,2,3 → 9.",
    ),
    (
        "Gems",
        "1 point per gem; the single player with strictly the most gems doubles their "
        "treasure points; a tie for most means nobody doubles.",
    ),
    (
        "Hazards",
        "With C cave-ins, D dragons, P pickaxes, S shields in the trove:\n"
        "(P > 0 ? P x C : -C) + (S > 0 ? S x D : -D)\n"
        "Each pickaxe scores every cave-in, "
        "and without one each cave-in costs a point; shields and dragons the same. "
        "(2 pickaxes, 3 cave-ins, no shield, 4 dragons → +2.) Chests, beer faces and "
        "magic dice score nothing.",
    ),
    (
        "Replenish",
        "You may keep dice of your trove as they are (hazards included), as many as the "
        "chests you use; a tool die whose chests are used is rerolled, not cached. Every "
        "other die is rerolled. The lowest total so far starts the next round.",
    ),
    (
        "The end",
        "After round 3's scoring the highest total wins. Tied players reroll their whole "
        "troves, play an extra magic phase and score an extra round; the highest extra "
        "score wins.",
    ),
)

#: The solo game's rules.
SOLO_RULES: Final[tuple[Topic, ...]] = (
    (
        "Top dice only",
        "You take top dice into your trove: no heroes, no beer sharing, no side picks.",
    ),
    (
        "Taking",
        "Magic, treasure and tool dice: always. Tunnel: a 1 always; another value only if "
        "it extends one of your sequences by the next number. Each sequence holds each "
        "number once and needs its own 1.",
    ),
    (
        "Freezing",
        "Taking a treasure die, you decide at once and for good whether to freeze it on a "
        "chest: a tool die showing K chests can hold K frozen treasure dice. Frozen "
        "treasure scores 2 per gem, unfrozen 1.",
    ),
    (
        "Hazards",
        "Only if an unassigned tool die of the matching kind is in your trove (pickaxe for "
        "cave-ins, shield for dragons); that tool die then neutralizes this one hazard die "
        "and can neutralize no other. A neutralized hazard die scores 1 per hazard symbol.",
    ),
    (
        "Beer is wild",
        "A die taken showing beer is turned to a face of your choice, and the taking rules "
        "apply to the chosen face. Starting dice rolled to beer are not wild.",
    ),
    (
        "Spend, recycle, refill",
        "Spend a magic die: it leaves the game. For each magic symbol it showed, recycle "
        "one top die from the mountain back into the bag. Refill the mountain at most "
        "twice a game: dice on it stay, the empty slots are filled from the bag.",
    ),
    (
        "Score",
        "Each tunnel sequence that reaches 5: 5 points. Rating: 0-14 Disaster, 15-30 A "
        "brave start, 31-45 Improving, 46-60 Average, 61-70 Excellent, 71+ Masterful.",
    ),
)


def rules(solo: bool) -> tuple[Topic, ...]:
    """The topics of one kind of game."""
    return SOLO_RULES if solo else MULTI_RULES


__all__ = ["MULTI_RULES", "SOLO_RULES", "Topic", "rules"]
