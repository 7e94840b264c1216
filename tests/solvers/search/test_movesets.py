"""Every search over both move sets, against an exact oracle in each metric: optimal paths
on shallow cubes, quarter-turn paths without half turns, and pruning that loses nothing."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubebench.harness.cube import SOLVED, apply_sequence, is_solved
from cubebench.harness.cube.moves import MOVE_QTM
from cubebench.harness.cube.movesets import MOVE_SETS, move_set
from cubebench.harness.suites.oracle import DistanceOracle
from cubebench.solvers.search import CheckedModel, astar, beam_search, greedy_rollout

RADIUS = 4


@pytest.fixture(scope="module", params=["htm", "qtm"])
def oracle(request) -> DistanceOracle:
    return DistanceOracle.build(RADIUS, metric=request.param)


def _cubes(oracle: DistanceOracle, n: int = 12) -> list[tuple[np.ndarray, int]]:
    """Random sequences of 1..6 moves of the oracle's set, with their exact distances, where
    the table value is a perfect guide (distance <= radius + 1: every child is in the table)."""
    rng = np.random.default_rng(3)
    moves, out = oracle.moves.moves, []
    while len(out) < n:
        state = apply_sequence(SOLVED, rng.choice(moves, size=rng.integers(1, 7)))
        distance, exact = oracle.distances(state[:, None], max_levels=2)
        assert exact[0]
        if distance[0] <= RADIUS + 1:
            out.append((state, int(distance[0])))
    return out


def _value(oracle):
    return lambda s: oracle.table_distance(s).astype(np.float32)


def _policy(oracle):
    """Log-probabilities from the exact distance of each child (over the 18; the searches
    must read only their set's columns)."""
    every = MOVE_SETS["htm"]

    def policy(states):
        n = states.shape[1]
        child = oracle.table_distance(every.expand(states)).reshape(18, n).T
        logits = -3.0 * child
        logits[:, np.flatnonzero(oracle.moves.local < 0)] = 50.0  # tempting, but not allowed
        return logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))

    return policy


def _check(state, result, oracle, optimum):
    assert result.moves is not None, result.info
    assert is_solved(apply_sequence(state, result.moves))
    if oracle.moves.name == "qtm":
        assert (MOVE_QTM[list(result.moves)] == 1).all(), "a half turn in a QTM path"
    assert oracle.moves.length(result.moves) == optimum


def test_every_search_is_optimal_on_shallow_cubes_in_its_metric(oracle):
    moves, cubes = oracle.moves, _cubes(oracle)
    assert max(d for _, d in cubes) == RADIUS + 1  # beyond the table: the pruning is tested
    for state, optimum in cubes:
        _check(
            state,
            beam_search(state, CheckedModel(_policy(oracle), "policy"), 16, moves=moves),
            oracle,
            optimum,
        )
        value = CheckedModel(_value(oracle), "value")
        _check(state, beam_search(state, value, 16, "value", moves), oracle, optimum)
        _check(
            state,
            astar(state, CheckedModel(_value(oracle), "value"), 1, 1.0, moves),
            oracle,
            optimum,
        )
        greedy = greedy_rollout(state, CheckedModel(_value(oracle), "value"), "value", True, moves)
        _check(state, greedy, oracle, optimum)


def test_an_uninformed_search_is_breadth_first_and_still_optimal(oracle):
    """A constant value makes a wide beam a breadth-first search: the pruning alone decides
    whether an optimal path survives."""
    flat = lambda s: np.zeros(s.shape[1], np.float32)  # noqa: E731
    for state, optimum in _cubes(oracle, 6):
        if optimum <= 4:
            result = beam_search(state, CheckedModel(flat, "value"), 200_000, "value", oracle.moves)
            _check(state, result, oracle, optimum)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 11), min_size=0, max_size=8))
def test_quarter_turn_sequences_have_canonical_forms_no_longer(seq):
    """Pruning check by hypothesis: the shortest canonical QTM sequence to a state reached by
    any QTM sequence is never longer (BFS over canonical children finds it)."""
    qtm = move_set("qtm")
    target = apply_sequence(SOLVED, qtm.moves[seq]) if seq else SOLVED.copy()
    oracle = _QTM_ORACLE
    distance, exact = oracle.distances(target[:, None], max_levels=4)
    assert exact[0] and distance[0] <= len(seq)


_QTM_ORACLE = DistanceOracle.build(RADIUS, metric="qtm")


def test_move_sets_are_what_they_say():
    htm, qtm = move_set("htm"), move_set("qtm")
    assert htm.size == 18 and qtm.size == 12
    assert (MOVE_QTM[qtm.moves] == 1).all()
    assert qtm.walk_next.shape == (12, 11) and htm.walk_next.shape == (18, 15)
    assert qtm.length([0, 0]) == 2 and htm.length([1]) == 1 and qtm.length([1]) == 2
    with pytest.raises(ValueError, match="metric 'ftm'"):
        move_set("ftm")
