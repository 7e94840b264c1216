"""Searches with an exact oracle: they solve, they are optimal where they promise to be,
they respect budgets, merge duplicates, and refuse broken models."""

from __future__ import annotations

import time

import numpy as np
import pytest

from cubebench.harness.cube import (
    SOLVED,
    apply_sequence,
    expand,
    facelets_to_state,
    is_solved,
    random_states,
    solved_batch,
)
from cubebench.harness.cube.movesets import MOVE_SETS
from cubebench.harness.cube.notation import parse_moves
from cubebench.harness.suites.catalog import load_suite
from cubebench.harness.suites.oracle import DistanceOracle
from cubebench.solvers.search import (
    CheckedModel,
    SearchError,
    SearchLimits,
    astar,
    beam_search,
    greedy_rollout,
)
from cubebench.solvers.search.beam import _dedup
from cubebench.solvers.search.models import ModelClock


@pytest.fixture(scope="module")
def oracle() -> DistanceOracle:
    return DistanceOracle.build(5)  # exact to 5 moves, admissible (6) beyond


@pytest.fixture(scope="module")
def cubes() -> list[tuple[np.ndarray, int]]:
    instances = load_suite("depth-05-v1").instances[:25] + load_suite("depth-03-v1").instances[:5]
    return [(facelets_to_state(i.facelets), i.optimal_htm) for i in instances]


def _value(oracle):
    return lambda states: oracle.table_distance(states).astype(np.float32)


def _policy(oracle):
    def policy(states):
        n = states.shape[1]
        child = oracle.table_distance(expand(states)).reshape(18, n).T  # (n, 18)
        logits = -3.0 * child
        return logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))

    return policy


def _check(state, result, optimum=None):
    assert result.moves is not None, result.info
    assert is_solved(apply_sequence(state, result.moves))
    if optimum is not None:
        assert len(result.moves) == optimum


def test_beam_by_policy_and_by_value_find_optimal_paths(oracle, cubes):
    for state, optimum in cubes:
        _check(state, beam_search(state, CheckedModel(_policy(oracle), "policy"), 16), optimum)
        _check(
            state, beam_search(state, CheckedModel(_value(oracle), "value"), 16, "value"), optimum
        )


def test_greedy_with_an_exact_model_is_optimal(oracle, cubes):
    for state, optimum in cubes[:10]:
        _check(state, greedy_rollout(state, CheckedModel(_policy(oracle), "policy")), optimum)
        _check(
            state,
            greedy_rollout(
                state, CheckedModel(_value(oracle), "value"), "value", avoid_revisits=True
            ),
            optimum,
        )


@pytest.mark.parametrize("bias", [1e-3, -1e-3])
@pytest.mark.parametrize("scramble", ["R L", "U D'", "F2 B'", "L2 R"])
def test_greedy_undoes_commuting_moves_in_either_order(oracle, scramble, bias):
    """Both orders of undoing two opposite-face moves are optimal; greedy may take either."""
    state = apply_sequence(solved_batch(1)[:, 0], parse_moves(scramble))
    exact = _policy(oracle)
    prefer_order = lambda s: exact(s) + bias * np.arange(18)  # noqa: E731
    for avoid in (False, True):
        result = greedy_rollout(state, CheckedModel(prefer_order, "policy"), avoid_revisits=avoid)
        _check(state, result, 2)


def test_astar_with_weight_one_and_admissible_heuristic_is_optimal(oracle, cubes):
    for state, optimum in cubes[:10]:
        result = astar(state, CheckedModel(_value(oracle), "value"), batch=1, weight=1.0)
        _check(state, result, optimum)
    # a weaker admissible heuristic (half the distance) still gives optimal paths
    half = lambda s: np.floor(oracle.table_distance(s) / 2).astype(np.float32)  # noqa: E731
    for state, optimum in cubes[-5:]:
        _check(state, astar(state, CheckedModel(half, "value"), batch=1, weight=1.0), optimum)


def test_solved_cube_needs_no_moves(oracle):
    solved = solved_batch(1)[:, 0]
    for result in (
        beam_search(solved, CheckedModel(_policy(oracle), "policy"), 4),
        greedy_rollout(solved, CheckedModel(_policy(oracle), "policy")),
        astar(solved, CheckedModel(_value(oracle), "value")),
    ):
        assert result.moves == () and result.model_calls == 0


def test_budgets_are_respected(oracle, cubes):
    state = cubes[0][0]
    uniform = lambda s: np.full((s.shape[1], 18), -np.log(18), np.float32)  # noqa: E731
    model = CheckedModel(uniform, "policy", limits=SearchLimits(max_nodes=50))
    result = beam_search(state, model, 32)
    assert result.moves is None and result.info["gave_up"] == "nodes"
    assert result.nodes_expanded <= 50 + 32
    model = CheckedModel(uniform, "policy", limits=SearchLimits(max_model_calls=3))
    result = beam_search(state, model, 32)
    assert result.moves is None and result.model_calls == 3
    model = CheckedModel(uniform, "policy", limits=SearchLimits(max_depth=3))
    assert beam_search(state, model, 32).info["gave_up"] == "max depth"
    far = random_states(1, np.random.default_rng(5))[:, 0]  # no uniform beam finds this
    start = time.monotonic()
    model = CheckedModel(uniform, "policy", limits=SearchLimits(deadline=start + 0.3))
    result = beam_search(far, model, 4096)
    assert result.moves is None and time.monotonic() - start < 1.5


def test_a_model_call_that_would_end_past_the_deadline_is_never_started():
    """A slow model (2 ms a state, by sleeping: the same on any CPU) and a 1 s budget: the
    third value-beam step (~3,000 children, ~6 s) is predicted and not begun. The clock
    learns from calls of 256 states or more after the first: a 300-state warm-up call,
    then the one it learns from."""

    def slow_value(states: np.ndarray) -> np.ndarray:
        time.sleep(0.002 * states.shape[1])
        return np.full(states.shape[1], 10.0, np.float32)

    far = random_states(1, np.random.default_rng(5))[:, 0]
    clock = ModelClock()
    warm = CheckedModel(slow_value, "value", clock=clock)
    warm(solved_batch(300)), warm(solved_batch(300))
    assert clock.predict(1000) == pytest.approx(1.5 * 2.0, rel=0.2)
    start = time.monotonic()
    model = CheckedModel(
        slow_value, "value", limits=SearchLimits(deadline=start + 1.0), clock=clock
    )
    result = beam_search(far, model, 10_000, "value")
    assert result.info["gave_up"] == "time" and result.model_calls == 2
    assert time.monotonic() - start < 1.0  # without the clock: ~7 s
    # the clock is kept across searches, so even a first call is sized to the time left
    start = time.monotonic()
    model = CheckedModel(
        slow_value, "value", limits=SearchLimits(deadline=start + 0.01), clock=clock
    )
    result = beam_search(far, model, 10_000, "value")
    assert result.info["gave_up"] == "time" and result.model_calls == 0


def test_model_calls_are_batched_and_counted(oracle, cubes):
    state = cubes[0][0]
    sizes = []
    value = _value(oracle)

    def counting(states):
        sizes.append(states.shape[1])
        return value(states)

    result = beam_search(state, CheckedModel(counting, "value", batch_size=100), 64, "value")
    assert result.moves is not None
    assert result.model_calls == len(sizes) and max(sizes) == 100  # full chunks, never more
    assert sum(sizes) > 5 * result.nodes_expanded  # the distinct children of every parent


def test_duplicates_are_merged_keeping_the_best_score():
    states = solved_batch(1)
    children = expand(expand(states))  # depth-2 children: many duplicates (U U' = I, ...)
    scores = np.random.default_rng(0).random(children.shape[1])
    unique = _dedup(children, scores, MOVE_SETS["htm"])
    distinct = np.unique(children.T, axis=0)
    assert len(unique) == len(distinct)
    for idx in unique[:50]:
        same = np.flatnonzero((children == children[:, [idx]]).all(axis=0))
        assert scores[idx] == scores[same].max()


@pytest.mark.parametrize("depth", [1, 2])
def test_policy_beam_finds_a_solved_child_of_any_parent(depth):
    """The policy step never builds all children: it spots a solved child through its parent.

    A model that prefers a wrong move everywhere still must stop as soon as the beam holds
    a cube one move from solved, and return the solving move.
    """
    scramble = [0, 3][:depth]  # U then R: no cancellation
    state = apply_sequence(SOLVED, scramble)
    stubborn = np.full(18, -5.0)
    stubborn[9] = 0.0  # always D first

    def policy(states):
        return np.tile(stubborn, (states.shape[1], 1))

    result = beam_search(state, CheckedModel(policy, "policy"), 18 * 18)
    assert result.moves is not None and len(result.moves) == depth
    assert is_solved(apply_sequence(state, result.moves))


@pytest.mark.parametrize(
    ("model", "kind", "message"),
    [
        (lambda s: np.zeros((s.shape[1], 17)), "policy", r"shape \(1, 17\) .* expected \(1, 18\)"),
        (lambda s: np.full((s.shape[1], 18), np.nan), "policy", "NaN or inf for 1 states"),
        (lambda s: np.zeros((s.shape[1], 2)), "value", "expected"),
        (lambda s: np.full(s.shape[1], np.inf), "value", "NaN or inf"),
    ],
)
def test_broken_models_give_clear_errors(cubes, model, kind, message):
    with pytest.raises(SearchError, match=message):
        beam_search(cubes[0][0], CheckedModel(model, kind), 8, kind)
