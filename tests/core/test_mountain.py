"""The mountain's top, side and sliding rules on hand-built mountains (rules D2, D3)."""

from core.mountain import (
    EMPTY,
    SLOT_COUNT,
    SLOTS,
    fillable_slots,
    is_side,
    is_top,
    remove,
    side_slots,
    slide_run,
    slot_index,
    top_slots,
)


def build(*coords):
    """A mountain with die ``n`` at the n-th listed slot."""
    slots = list(EMPTY)
    for die, (r, i) in enumerate(coords):
        slots[slot_index(r, i)] = die
    return tuple(slots)


def full():
    return build(*SLOTS)


def test_pyramid_has_rows_of_six_to_two():
    """rule D2: rows of 6, 5, 4, 3, 2 from the bottom."""
    assert SLOT_COUNT == 20
    assert [sum(1 for r, _ in SLOTS if r == row) for row in range(5)] == [6, 5, 4, 3, 2]
    assert slot_index(4, 2) is None and slot_index(0, 6) is None


def test_full_mountain_has_only_the_two_summit_dice_on_top():
    m = full()
    assert [SLOTS[k] for k in top_slots(m)] == [(4, 0), (4, 1)]


def test_full_mountain_side_dice_are_those_with_one_neighbour():
    """Edge dice have one upper neighbour; with it occupied they are side dice."""
    m = full()
    sides = {SLOTS[k] for k in side_slots(m)}
    assert sides == {(0, 0), (0, 5), (1, 0), (1, 4), (2, 0), (2, 3), (3, 0), (3, 2)}


def test_a_die_with_both_neighbours_is_neither_top_nor_side():
    m = full()
    k = slot_index(1, 2)
    assert not is_top(m, k) and not is_side(m, k)


def test_removing_the_summit_uncovers():
    m = full()
    m = remove(m, slot_index(4, 0))
    assert is_top(m, slot_index(3, 0))
    assert is_side(m, slot_index(3, 1))  # still under (4, 1)


def test_side_pick_slides_the_run_on_the_right_diagonal():
    """rule D3: (r+1, i) occupied -> (r+1, i), (r+2, i), ... move to (r, i), (r+1, i), ..."""
    m = build((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0))
    k = slot_index(0, 0)  # covered on the right by (1, 0) only: a side die
    assert is_side(m, k)
    moves = slide_run(m, k)
    # die 3 at (1, 0) slides to (0, 0); die 5 at (2, 0) slides to (1, 0)
    assert [(d, SLOTS[t]) for d, t in moves] == [(3, (0, 0)), (5, (1, 0))]
    after = remove(m, k, moves)
    assert after[slot_index(0, 0)] == 3 and after[slot_index(1, 0)] == 5
    assert after[slot_index(2, 0)] is None


def test_side_pick_slides_the_run_on_the_left_diagonal():
    """rule D3: (r+1, i-1) occupied -> (r+1, i-1), (r+2, i-2), ... move to (r, i), ..."""
    m = build((0, 3), (0, 4), (0, 5), (1, 3), (1, 4), (2, 3))
    k = slot_index(0, 5)  # its only upper neighbour (1, 4) is occupied
    assert is_side(m, k)
    moves = slide_run(m, k)
    assert [(d, SLOTS[t]) for d, t in moves] == [(4, (0, 5)), (5, (1, 4))]
    after = remove(m, k, moves)
    assert after[slot_index(2, 3)] is None and after[slot_index(1, 4)] == 5


def test_slide_stops_at_the_first_empty_slot():
    m = build((0, 0), (0, 1), (0, 2), (1, 0), (1, 1))
    moves = slide_run(m, slot_index(0, 0))
    assert [(d, SLOTS[t]) for d, t in moves] == [(3, (0, 0))]


def test_top_pick_slides_nothing():
    m = build((0, 0), (0, 1), (1, 0))
    assert slide_run(m, slot_index(1, 0)) == ()


def test_every_side_pick_keeps_every_die_supported():
    """After any side pick and its slide, every die above the bottom rests on two dice."""
    m = full()
    for k in side_slots(m):
        after = remove(m, k, slide_run(m, k))
        for j, die in enumerate(after):
            r, i = SLOTS[j]
            if die is not None and r > 0:
                assert after[slot_index(r - 1, i)] is not None
                assert after[slot_index(r - 1, i + 1)] is not None


def test_filling_goes_bottom_row_first_left_to_right():
    order = fillable_slots(EMPTY)
    assert [SLOTS[k] for k in order] == list(SLOTS)


def test_filling_skips_slots_without_support():
    m = build((0, 0), (0, 1), (0, 3), (0, 4), (0, 5))  # (0, 2) is empty
    order = [SLOTS[k] for k in fillable_slots(m)]
    assert order[0] == (0, 2)  # the hole is filled first, so everything above can follow
    assert len(order) == 15
