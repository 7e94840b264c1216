"""Random legal states pass; every kind of single corruption fails with its own message."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given

from cubebench.harness.cube import (
    SOLVED,
    InvalidCubeError,
    facelets_to_state,
    from_cubies,
    random_states,
    state_to_facelets,
    to_cubies,
    validate_state,
)
from cubebench.harness.cube.cubie import CORNER_FACELETS, EDGE_FACELETS

from .strategies import seeds


@given(seeds)
def test_random_legal_states_validate(seed):
    states = random_states(30, np.random.default_rng(seed))
    for j in range(30):
        validate_state(states[:, j])


def _cubies(seed=0):
    return [a[:, 0].copy() for a in to_cubies(random_states(1, np.random.default_rng(seed)))]


def _state(cp, co, ep, eo):
    return from_cubies(cp[:, None], co[:, None], ep[:, None], eo[:, None])[:, 0]


def test_twisted_corner():
    cp, co, ep, eo = _cubies()
    co[3] = (co[3] + 1) % 3
    with pytest.raises(InvalidCubeError, match="corner twists sum to 1 mod 3"):
        validate_state(_state(cp, co, ep, eo))


def test_flipped_edge():
    cp, co, ep, eo = _cubies()
    eo[5] ^= 1
    with pytest.raises(InvalidCubeError, match="edge flips sum to 1 mod 2"):
        validate_state(_state(cp, co, ep, eo))


def test_swapped_edges_break_parity():
    cp, co, ep, eo = _cubies()
    ep[[0, 1]] = ep[[1, 0]]
    with pytest.raises(InvalidCubeError, match="two pieces are swapped"):
        validate_state(_state(cp, co, ep, eo))


def test_piece_twice_and_missing_named():
    # URF and DBL replaced by UFL and DRB: the same stickers in total, so colour counts pass
    cp, co, ep, eo = (a[:, 0].copy() for a in to_cubies(SOLVED[:, None]))
    cp[0], cp[6] = 1, 7
    with pytest.raises(
        InvalidCubeError,
        match=r"corner UFL appears 2 times \(in slots URF, "
        r"UFL\); corners URF, DBL are missing",
    ):
        validate_state(_state(cp, co, ep, eo))


def _swap(a, b):
    state = SOLVED.copy()
    state[a], state[b] = state[b], state[a]
    return state


def test_impossible_corner_colours_named():
    # URF's U sticker swapped with UR's R sticker: URF reads R, R, F
    state = _swap(CORNER_FACELETS[0][0], EDGE_FACELETS[0][1])
    with pytest.raises(InvalidCubeError, match="corner URF has colours R, R, F, which no corner"):
        validate_state(state)


def test_impossible_edge_colours_named():
    # UR's R sticker swapped with DF's D sticker: UR reads U, D
    state = _swap(EDGE_FACELETS[0][1], EDGE_FACELETS[5][0])
    with pytest.raises(InvalidCubeError, match="edge UR has colours U, D, which no edge piece"):
        validate_state(state)


def test_centre_out_of_place():
    state = SOLVED.copy()
    state[4], state[13] = state[13], state[4]
    with pytest.raises(InvalidCubeError, match="centre of face U .* shows colour R"):
        validate_state(state)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("U" * 53, "54 letters, got 53"),
        (
            "X" + "U" * 8 + "R" * 9 + "F" * 9 + "D" * 9 + "L" * 9 + "B" * 9,
            r"letter 'X' at position 1 \(facelet U1\) is not a face",
        ),
        ("U" * 10 + "R" * 8 + "F" * 9 + "D" * 9 + "L" * 9 + "B" * 9, "U 10 times, R 8 times"),
    ],
)
def test_facelet_string_errors(text, message):
    with pytest.raises(InvalidCubeError, match=message):
        facelets_to_state(text)


def test_facelet_string_round_trip_of_solved():
    text = state_to_facelets(SOLVED)
    assert np.array_equal(facelets_to_state(text), SOLVED)
