"""Shared model encodings carry the state faithfully and have the documented shapes."""

from __future__ import annotations

import numpy as np

from cubebench.harness.cube import SOLVED, apply_sequence, parse_moves, random_states, to_cubies
from cubebench.harness.cube.encodings import (
    cubelet_tokens,
    face_grid,
    face_tensor,
    one_hot,
    sticker_tokens,
)
from cubebench.harness.cube.geometry import NON_CENTRES


def test_one_hot_shapes_and_content():
    states = random_states(10, np.random.default_rng(0))
    full = one_hot(states, drop_centres=False)
    assert full.shape == (10, 54, 6) and (full.sum(axis=2) == 1).all()
    assert np.array_equal(full.argmax(axis=2), states.T)
    small = one_hot(states)
    assert small.shape == (10, 48, 6)
    assert np.array_equal(small.argmax(axis=2), states[list(NON_CENTRES)].T)


def test_face_tensor_is_faces_as_3x3_one_hot():
    state = apply_sequence(SOLVED, parse_moves("R"))
    grid = face_grid(state)
    assert grid.shape == (1, 6, 3, 3)
    assert grid[0, 0, :, 2].tolist() == [2, 2, 2]  # U's right column shows F after R
    tensor = face_tensor(state)
    assert tensor.shape == (1, 6, 3, 3, 6)
    assert np.array_equal(tensor.argmax(axis=-1), grid)


def test_cubelet_tokens_solved_and_distinct():
    solved = cubelet_tokens(SOLVED)
    assert solved.shape == (1, 20)
    assert solved[0].tolist() == [3 * i for i in range(8)] + [24 + 2 * i for i in range(12)]
    states = random_states(200, np.random.default_rng(1))
    tokens = cubelet_tokens(states)
    assert (tokens[:, :8] < 24).all() and (tokens[:, 8:] >= 24).all()
    # every state occupies each slot exactly once
    assert (np.sort(tokens[:, :8] // 3, axis=1) == np.arange(8)).all()
    assert (np.sort((tokens[:, 8:] - 24) // 2, axis=1) == np.arange(12)).all()
    cp, co, _, _ = to_cubies(states)
    j = 5
    piece = int(cp[2, j])
    assert tokens[j, piece] == 3 * 2 + co[2, j]


def test_cubelet_tokens_determine_the_state():
    states = random_states(500, np.random.default_rng(3))
    tokens = cubelet_tokens(states)
    assert len(np.unique(tokens, axis=0)) == len(np.unique(states.T, axis=0))


def test_sticker_tokens_have_colours_and_grid_coordinates():
    tokens = sticker_tokens(SOLVED)
    assert tokens.shape == (1, 54, 4)
    assert np.array_equal(tokens[0, :, 0], SOLVED)
    coords = tokens[0, :, 1:].astype(int)
    assert coords.min() == 0 and coords.max() == 4
    assert len({tuple(c) for c in coords}) == 54  # every sticker has its own place
    # U stickers lie on the top plane y = 4, D on y = 0
    assert (coords[0:9, 1] == 4).all() and (coords[27:36, 1] == 0).all()
