"""The meet-in-the-middle oracle against brute-force breadth-first search."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubebench.harness.cube import (
    apply_sequence,
    canonical_scrambles,
    expand,
    is_solved,
    solved_batch,
    state_keys,
)
from cubebench.harness.cube.movesets import move_set
from cubebench.harness.suites.oracle import STATES_AT_DISTANCE, DistanceOracle


@pytest.fixture(scope="module")
def small_oracle() -> DistanceOracle:
    return DistanceOracle.build(3)


def _brute_force_distances(max_depth: int) -> dict[bytes, int]:
    seen = {solved_batch(1)[:, 0].tobytes(): 0}
    frontier = solved_batch(1)
    for depth in range(1, max_depth + 1):
        children = expand(frontier)
        new = []
        for j in range(children.shape[1]):
            key = children[:, j].tobytes()
            if key not in seen:
                seen[key] = depth
                new.append(j)
        frontier = children[:, new]
    return seen


def test_build_counts_match_the_known_distance_distribution(small_oracle):
    assert len(small_oracle) == sum(STATES_AT_DISTANCE[:4])


def test_exact_distances_agree_with_brute_force(small_oracle):
    truth = _brute_force_distances(4)
    rng = np.random.default_rng(0)
    keys = list(truth)
    pick = rng.choice(len(keys), size=300, replace=False)
    states = np.stack([np.frombuffer(keys[i], np.uint8) for i in pick], axis=1)
    distance, exact = small_oracle.distances(states, max_levels=1)
    assert exact.all()
    assert distance.tolist() == [truth[keys[i]] for i in pick]


def test_meeting_in_the_middle_is_exact_beyond_the_table(small_oracle):
    # radius 3 + 3 levels: exact to 6; compare with a radius-4 table + 2 levels
    bigger = DistanceOracle.build(4)
    rng = np.random.default_rng(1)
    scrambles = canonical_scrambles(40, 6, rng)
    states = np.stack([apply_sequence(solved_batch(1), s)[:, 0] for s in scrambles], axis=1)
    d_small, exact_small = small_oracle.distances(states, max_levels=3)
    d_big, exact_big = bigger.distances(states, max_levels=2)
    assert exact_small.all() and exact_big.all()
    assert np.array_equal(d_small, d_big)
    assert (d_small <= 6).all() and (d_small >= 4).all()


def test_out_of_reach_gives_a_lower_bound(small_oracle):
    scrambles = canonical_scrambles(10, 14, np.random.default_rng(2))
    states = np.stack([apply_sequence(solved_batch(1), s)[:, 0] for s in scrambles], axis=1)
    distance, exact = small_oracle.distances(states, max_levels=1)
    assert not exact.any() and (distance == 5).all()


def test_cache_round_trip(tmp_path):
    built = DistanceOracle.cached(2, tmp_path)
    assert (tmp_path / "distance-table-r2.npz").exists()
    loaded = DistanceOracle.cached(2, tmp_path)
    assert len(loaded) == len(built) == 1 + 18 + 243
    probe = solved_batch(1)
    assert loaded._lookup(state_keys(probe)).tolist() == [0]


@given(
    metric=st.sampled_from(["htm", "qtm"]),
    length=st.integers(0, 6),
    seed=st.integers(0, 2**32 - 1),
)
@settings(max_examples=40, deadline=None)
def test_path_to_solved_is_optimal_and_solves(metric, length, seed):
    oracle = _table(metric)
    moves = move_set(metric)
    rng = np.random.default_rng(seed)
    state = apply_sequence(solved_batch(1), rng.choice(moves.moves, size=length))[:, 0]
    distance = int(oracle.table_distance(state[:, None])[0])
    if distance > oracle.radius:
        with pytest.raises(ValueError, match="beyond the table"):
            oracle.path_to_solved(state)
        return
    path = oracle.path_to_solved(state)
    assert len(path) == distance
    assert set(path) <= set(moves.moves.tolist())
    assert is_solved(apply_sequence(state[:, None], path))


@functools.cache
def _table(metric: str) -> DistanceOracle:
    return DistanceOracle.build(3, metric=metric)
