"""The solo bot's model reduced to a comparable key: two models with equal keys hold the
same position (the expert's and the solo tools' tests compare a model with the rules')."""

from __future__ import annotations

from core.bots.solo_model import SoloModel


def model_key(m: SoloModel):
    on_mountain = [m.faces[d] for d in m.mountain if d is not None]
    return (m.mountain, m.on, sorted(m.bag), m.bag_kinds, m.ends, m.picks, m.shields, m.room,
            m.magic, m.score, m.refills, on_mountain)  # fmt: skip
