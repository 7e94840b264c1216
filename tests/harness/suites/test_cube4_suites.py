"""The 4×4×4's built-in suites: scrambles of one axis a step, and uniform states."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from cubebench.harness.cube.layers import corner_stickers
from cubebench.harness.cube.pieces import validate_puzzle_state, wing_slots
from cubebench.harness.cube.puzzle import puzzle
from cubebench.harness.suites.catalog import load_suite
from cubebench.harness.suites.cube4_suites import (
    CUBE4_DEPTHS,
    CUBE4_RANDOM_STATE_SUITE,
    cube4_depth_instances,
    cube4_depth_suite_name,
    cube4_random_state_instances,
)
from cubebench.harness.suites.model import serialize


@pytest.mark.parametrize("depth", [1, 10, 40])
def test_depth_scrambles_turn_another_axis_every_step(depth):
    cube = puzzle("cube4")
    suite = load_suite(cube4_depth_suite_name(depth))
    assert suite.puzzle == "cube4" and len(suite) == 1000
    for instance in suite.instances:
        moves = cube.parse_moves(instance.scramble or "")
        axes = [int(cube.layer_turns[m].any(axis=1).argmax()) for m in moves]
        assert len(moves) == depth and all(m < 36 for m in moves)  # outer and wide turns
        assert all(a != b for a, b in itertools.pairwise(axes))


def test_the_committed_files_are_what_generation_gives():
    assert serialize(cube4_depth_instances(5)) == serialize(
        load_suite(cube4_depth_suite_name(5)).instances
    )
    assert serialize(cube4_random_state_instances()) == serialize(
        load_suite(CUBE4_RANDOM_STATE_SUITE).instances
    )
    assert len(CUBE4_DEPTHS) == 14


def test_random_states_are_valid_and_spread_over_every_piece():
    cube = puzzle("cube4")
    states = load_suite(CUBE4_RANDOM_STATE_SUITE).states()  # (96, 1000)
    for column in range(states.shape[1]):
        validate_puzzle_state(cube, states[:, column])
    wings = wing_slots(cube)
    home = (states[wings[0]] == cube.solved[wings[0]][:, None]).all(axis=0)
    assert 15 < home.sum() < 70  # its own wing in slot 0: 1 in 24, about 42 of 1000
    corner = corner_stickers(4)[0]
    up = states[corner[0]]  # the colour facing U in corner slot 0: U or D on a third of them
    assert 0.2 < np.isin(up, [0, 3]).mean() < 0.47
    assert len({states[:, i].tobytes() for i in range(1000)}) == 1000  # no state twice
