"""Group laws and known patterns: the move tables behave like the real cube."""

from __future__ import annotations

import numpy as np
from hypothesis import given

from cubebench.harness.cube import (
    MOVE_INVERSE,
    SOLVED,
    apply_move,
    apply_sequence,
    invert_sequence,
    is_solved,
    parse_moves,
    to_cubies,
)
from cubebench.harness.cube.moves import MOVE_FACE, MOVE_TABLES, OPPOSITE_FACE

from .strategies import move_ids, move_sequences


def _order(sequence: str) -> int:
    moves = parse_moves(sequence)
    state, count = apply_sequence(SOLVED, moves), 1
    while not is_solved(state):
        state, count = apply_sequence(state, moves), count + 1
    return count


def test_tables_are_permutations_that_fix_centres():
    for table in MOVE_TABLES:
        assert sorted(table) == list(range(54))
        assert all(table[9 * f + 4] == 9 * f + 4 for f in range(6))
    assert len({tuple(t) for t in MOVE_TABLES}) == 18


@given(move_ids)
def test_move_then_inverse_is_identity(move):
    state = apply_move(apply_move(SOLVED, move), int(MOVE_INVERSE[move]))
    assert np.array_equal(state, SOLVED)


@given(move_ids)
def test_quarter_turn_has_order_four_and_half_turn_two(move):
    quarter = 3 * int(MOVE_FACE[move])
    assert np.array_equal(apply_sequence(SOLVED, [quarter] * 4), SOLVED)
    assert not is_solved(apply_sequence(SOLVED, [quarter] * 2))
    assert np.array_equal(apply_sequence(SOLVED, [quarter + 1] * 2), SOLVED)
    assert np.array_equal(apply_sequence(SOLVED, [quarter] * 2), apply_move(SOLVED, quarter + 1))


def test_opposite_faces_commute_and_others_do_not():
    for a in range(18):
        for b in range(18):
            ab = apply_sequence(SOLVED, [a, b])
            ba = apply_sequence(SOLVED, [b, a])
            fa, fb = MOVE_FACE[a], MOVE_FACE[b]
            commute = fa == fb or OPPOSITE_FACE[fa] == fb
            assert np.array_equal(ab, ba) == commute, (a, b)


@given(move_sequences)
def test_sequence_then_its_inverse_is_identity(moves):
    state = apply_sequence(apply_sequence(SOLVED, moves), invert_sequence(moves))
    assert np.array_equal(state, SOLVED)


def test_known_orders():
    assert _order("R U R' U'") == 6
    assert _order("R U") == 105
    assert _order("R") == 4
    assert _order("R U2 D' B D'") == 1260  # the largest order of any cube element


def test_superflip_flips_every_edge_and_is_its_own_inverse():
    superflip = parse_moves("U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2")
    state = apply_sequence(SOLVED, superflip)
    cp, co, ep, eo = (a[:, 0] for a in to_cubies(state[:, None]))
    assert list(cp) == list(range(8)) and not co.any()
    assert list(ep) == list(range(12)) and eo.all()
    assert np.array_equal(apply_sequence(state, superflip), SOLVED)


def test_checkerboard_pattern():
    state = apply_sequence(SOLVED, parse_moves("U2 D2 F2 B2 L2 R2"))
    opposite = {0: 3, 1: 4, 2: 5, 3: 0, 4: 1, 5: 2}
    for face in range(6):
        stickers = state[9 * face : 9 * face + 9]
        assert all(stickers[k] == face for k in (0, 2, 4, 6, 8))
        assert all(stickers[k] == opposite[face] for k in (1, 3, 5, 7))
    assert np.array_equal(apply_sequence(state, parse_moves("U2 D2 F2 B2 L2 R2")), SOLVED)
