"""The 2×2×2's built-in suites: their scrambles, their uniform states and their exact optima."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from cubebench.harness.cube.puzzle import puzzle
from cubebench.harness.suites.catalog import load_suite
from cubebench.harness.suites.cube2_distances import cube2_distances
from cubebench.harness.suites.cube2_suites import (
    CUBE2_MAX_DEPTH,
    CUBE2_RANDOM_STATE_SUITE,
    cube2_depth_instances,
    cube2_depth_suite_name,
)
from cubebench.harness.suites.model import serialize

NAMES = [cube2_depth_suite_name(d) for d in range(1, CUBE2_MAX_DEPTH + 1)]


@pytest.mark.parametrize("name", [*NAMES, CUBE2_RANDOM_STATE_SUITE])
def test_every_instance_carries_the_tables_optima_in_both_metrics(name):
    suite = load_suite(name)
    assert suite.puzzle == "cube2" and len(suite) == 1000
    states = suite.states()
    table = cube2_distances()
    for metric in ("htm", "qtm"):
        exact = [getattr(i, f"optimal_{metric}") for i in suite.instances]
        assert np.array_equal(table.distances(states, metric), exact), metric


@pytest.mark.parametrize("depth", [1, 6, 11])
def test_depth_scrambles_are_canonical_turns_of_u_r_and_f(depth):
    cube = puzzle("cube2")
    suite = load_suite(cube2_depth_suite_name(depth))
    for instance in suite.instances:
        moves = cube.parse_moves(instance.scramble or "")
        faces = [cube.move_names[m][0] for m in moves]
        assert len(moves) == depth and set(faces) <= set("URF")
        assert all(a != b for a, b in itertools.pairwise(faces))
    distinct = len({i.scramble for i in suite.instances})
    assert distinct == 9 if depth == 1 else distinct > 900  # drawn with replacement


def test_the_committed_files_are_what_generation_gives():
    committed = load_suite(cube2_depth_suite_name(7))
    assert serialize(cube2_depth_instances(7)) == serialize(committed.instances)


def test_random_states_spread_like_the_whole_puzzle():
    """9 face turns hold 51% of all positions, 10 hold 17% (the published counts)."""
    optima = [i.optimal_htm for i in load_suite(CUBE2_RANDOM_STATE_SUITE).instances]
    share = {d: optima.count(d) / len(optima) for d in (9, 10)}
    assert 0.45 < share[9] < 0.57 and 0.13 < share[10] < 0.21
