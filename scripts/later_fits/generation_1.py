"""The first generation of the expert's correction of the later rounds, learned from
``montecarlo``'s games against itself; kept because the committed generation
(``core/bots/valuation/later_weights.py``) learned from games the expert played
with these weights (``--lineup expert@scripts/later_fits/generation_1.py``). Made by

    python -m scripts.fit_later_rounds --players 2,3,4 --games 700 --seed 4242
    --futures 96 --ridge 20

Per (players, round): one weight per ``later.FEATURES``.
"""

WEIGHTS: dict[tuple[int, int], tuple[float, ...]] = {
    (2, 1): (
        -0.672,  # own tunnel
        -0.972,  # own treasure
        -0.021,  # own hazard
        0.782,  # own tool
        1.105,  # own magic
        -0.318,  # rivals' tunnel
        0.914,  # rivals' treasure
        -0.553,  # rivals' hazard
        0.034,  # rivals' tool
        -0.298,  # rivals' magic
        0.0,  # hero Alchemist
        -0.366,  # hero Dragon Slayer
        -1.496,  # hero Engineer
        0.016,  # hero Prospector
        1.845,  # hero Surveyor
        0.0,  # hero Treasurer
        1.579,  # chests shown
        17.961,  # constant
    ),
    (2, 2): (
        -0.001,  # own tunnel
        -0.877,  # own treasure
        0.318,  # own hazard
        -0.086,  # own tool
        0.725,  # own magic
        0.463,  # rivals' tunnel
        0.147,  # rivals' treasure
        -0.253,  # rivals' hazard
        0.108,  # rivals' tool
        -0.545,  # rivals' magic
        0.0,  # hero Alchemist
        0.199,  # hero Dragon Slayer
        -0.635,  # hero Engineer
        -0.116,  # hero Prospector
        0.552,  # hero Surveyor
        0.0,  # hero Treasurer
        2.796,  # chests shown
        3.892,  # constant
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
        -0.873,  # own tunnel
        -2.986,  # own treasure
        0.054,  # own hazard
        -0.09,  # own tool
        0.436,  # own magic
        0.462,  # rivals' tunnel
        2.306,  # rivals' treasure
        -0.898,  # rivals' hazard
        0.193,  # rivals' tool
        -0.91,  # rivals' magic
        0.554,  # hero Alchemist
        -1.272,  # hero Dragon Slayer
        0.564,  # hero Engineer
        0.475,  # hero Prospector
        0.248,  # hero Surveyor
        -0.57,  # hero Treasurer
        0.496,  # chests shown
        12.549,  # constant
    ),
    (4, 2): (
        0.426,  # own tunnel
        -0.173,  # own treasure
        0.475,  # own hazard
        0.165,  # own tool
        0.888,  # own magic
        0.28,  # rivals' tunnel
        0.651,  # rivals' treasure
        -0.876,  # rivals' hazard
        0.116,  # rivals' tool
        -0.764,  # rivals' magic
        0.294,  # hero Alchemist
        0.018,  # hero Dragon Slayer
        -0.098,  # hero Engineer
        -0.101,  # hero Prospector
        -0.203,  # hero Surveyor
        0.09,  # hero Treasurer
        1.351,  # chests shown
        2.134,  # constant
    ),
}
