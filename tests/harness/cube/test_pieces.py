"""Facelet strings of every size, and the 2×2×2's and 4×4×4's piece checks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubebench.harness.cube import InvalidCubeError
from cubebench.harness.cube.layers import corner_stickers
from cubebench.harness.cube.pieces import (
    facelets_to_state,
    state_to_facelets,
    validate_puzzle_state,
    wing_slots,
)
from cubebench.harness.cube.puzzle import puzzle


@pytest.mark.parametrize("name", ["cube2", "cube3", "cube4"])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_every_scrambled_state_is_valid_and_its_facelets_read_back(name, data):
    cube = puzzle(name)
    moves = data.draw(st.lists(st.integers(0, cube.num_moves - 1), max_size=40))
    state = cube.apply(cube.solved, moves)
    validate_puzzle_state(cube, state)
    assert np.array_equal(facelets_to_state(cube, state_to_facelets(cube, state)), state)


@pytest.mark.parametrize("name", ["cube2", "cube4"])
def test_a_corner_twisted_in_place_is_refused(name):
    cube = puzzle(name)
    state = cube.apply(cube.solved, cube.parse_moves("R U F' D2 L B'"))
    corner = corner_stickers(cube.size)[3]
    state[corner] = state[np.roll(corner, 1)]
    with pytest.raises(InvalidCubeError, match="twists sum to . mod 3"):
        validate_puzzle_state(cube, state)


@pytest.mark.parametrize("name", ["cube2", "cube4"])
def test_a_corner_in_mirror_order_names_the_corner(name):
    cube = puzzle(name)
    state = cube.solved.copy()
    corner = corner_stickers(cube.size)[0]
    state[corner[1:]] = state[corner[1:][::-1]]
    with pytest.raises(InvalidCubeError, match=r"^corner U1-\w+-\w+ has colours U, [A-Z], [A-Z], "):
        validate_puzzle_state(cube, state)


def test_a_wing_flipped_in_place_is_refused_by_name():
    cube = puzzle("cube4")
    state = cube.solved.copy()
    wing = wing_slots(cube)[0]
    state[wing] = state[wing[::-1]]
    with pytest.raises(InvalidCubeError, match=r"^edges \w+-\w+ and \w+-\w+ are both the"):
        validate_puzzle_state(cube, state)


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("cube2", "U" * 23, "a cube2 facelet string has 24 letters, got 23"),
        ("cube2", "UUUURRRRFFFFDDDDLLLLBBBX", r"letter 'X' at position 24 \(face B, sticker 4\)"),
        ("cube4", "U" * 96, "each colour must appear 16 times; U 96 times"),
    ],
)
def test_bad_facelets_get_one_line_naming_the_place(name, text, message):
    with pytest.raises(InvalidCubeError, match=message):
        facelets_to_state(puzzle(name), text)


def test_the_3x3x3_keeps_its_own_checks():
    letters = list("".join(face * 9 for face in "URFDLB"))
    letters[4], letters[13] = letters[13], letters[4]  # the U and R centres swapped
    with pytest.raises(InvalidCubeError, match="centre of face U"):
        facelets_to_state(puzzle("cube3"), "".join(letters))
