"""The expert's correction of the later rounds (``later``); do not edit. Made by

    python -m scripts.fit_later_rounds --players 3 --games 700 --seed 4242 --futures 96
        --lineup montecarlo --samples montecarlo-3.jsonl
    python -m scripts.fit_later_rounds --players 2 --games 1200 --seed 4242 --futures 96
        --lineup expert@scripts/later_fits/generation_1.py,montecarlo --samples
        expert-2.jsonl
    python -m scripts.fit_later_rounds --players 4 --games 948 --seed 4242 --futures 96
        --lineup expert@scripts/later_fits/generation_1.py,montecarlo --samples
        expert-4.jsonl
    and then
    python -m scripts.fit_later_rounds --from-samples montecarlo-3.jsonl expert-2.jsonl
        expert-4.jsonl --players 2,3,4 --ridge 20

Per (players, round): one weight per ``later.FEATURES``. ``WEIGHTS`` correct the
expert's own seat (every seat where ``RIVALS`` has no weights for the table),
``RIVALS`` the seats of its rivals (``later.LaterRounds.seen_by``).
"""

WEIGHTS: dict[tuple[int, int], tuple[float, ...]] = {
    (2, 1): (
        -0.055,  # own tunnel
        -0.134,  # own treasure
        1.644,  # own hazard
        1.28,  # own tool
        1.754,  # own magic
        -0.085,  # rivals' tunnel
        -0.017,  # rivals' treasure
        -1.047,  # rivals' hazard
        -1.6,  # rivals' tool
        -1.741,  # rivals' magic
        0.0,  # hero Alchemist
        1.354,  # hero Dragon Slayer
        -0.629,  # hero Engineer
        -1.567,  # hero Prospector
        0.842,  # hero Surveyor
        0.0,  # hero Treasurer
        1.982,  # chests shown
        13.754,  # constant
    ),
    (2, 2): (
        -0.122,  # own tunnel
        -0.227,  # own treasure
        1.159,  # own hazard
        0.188,  # own tool
        0.62,  # own magic
        0.159,  # rivals' tunnel
        0.108,  # rivals' treasure
        -0.326,  # rivals' hazard
        -0.345,  # rivals' tool
        -1.214,  # rivals' magic
        0.0,  # hero Alchemist
        0.36,  # hero Dragon Slayer
        -0.614,  # hero Engineer
        -0.664,  # hero Prospector
        0.918,  # hero Surveyor
        0.0,  # hero Treasurer
        2.142,  # chests shown
        7.174,  # constant
    ),
    (3, 1): (
        -0.958,  # own tunnel
        -2.957,  # own treasure
        -0.213,  # own hazard
        0.165,  # own tool
        0.074,  # own magic
        0.604,  # rivals' tunnel
        2.515,  # rivals' treasure
        -1.221,  # rivals' hazard
        0.815,  # rivals' tool
        -0.769,  # rivals' magic
        0.0,  # hero Alchemist
        -1.707,  # hero Dragon Slayer
        0.178,  # hero Engineer
        1.128,  # hero Prospector
        0.402,  # hero Surveyor
        0.0,  # hero Treasurer
        -0.185,  # chests shown
        16.337,  # constant
    ),
    (3, 2): (
        0.199,  # own tunnel
        -0.424,  # own treasure
        0.705,  # own hazard
        -0.039,  # own tool
        0.599,  # own magic
        0.249,  # rivals' tunnel
        0.719,  # rivals' treasure
        -0.605,  # rivals' hazard
        -0.143,  # rivals' tool
        -0.74,  # rivals' magic
        0.0,  # hero Alchemist
        -0.38,  # hero Dragon Slayer
        -0.45,  # hero Engineer
        0.877,  # hero Prospector
        -0.047,  # hero Surveyor
        0.0,  # hero Treasurer
        1.499,  # chests shown
        4.365,  # constant
    ),
    (4, 1): (
        -0.104,  # own tunnel
        -2.364,  # own treasure
        0.701,  # own hazard
        0.286,  # own tool
        1.214,  # own magic
        0.91,  # rivals' tunnel
        1.34,  # rivals' treasure
        -1.446,  # rivals' hazard
        -0.104,  # rivals' tool
        -0.611,  # rivals' magic
        0.0,  # hero Alchemist
        -0.558,  # hero Dragon Slayer
        0.08,  # hero Engineer
        0.078,  # hero Prospector
        0.4,  # hero Surveyor
        0.0,  # hero Treasurer
        0.974,  # chests shown
        9.615,  # constant
    ),
    (4, 2): (
        0.401,  # own tunnel
        -0.206,  # own treasure
        0.863,  # own hazard
        0.391,  # own tool
        1.048,  # own magic
        0.397,  # rivals' tunnel
        0.253,  # rivals' treasure
        -0.797,  # rivals' hazard
        0.11,  # rivals' tool
        -0.795,  # rivals' magic
        0.0,  # hero Alchemist
        -0.021,  # hero Dragon Slayer
        0.044,  # hero Engineer
        -0.062,  # hero Prospector
        0.039,  # hero Surveyor
        0.0,  # hero Treasurer
        1.79,  # chests shown
        0.982,  # constant
    ),
}

RIVALS: dict[tuple[int, int], tuple[float, ...]] = {}
