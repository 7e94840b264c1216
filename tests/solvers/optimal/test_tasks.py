"""The deep bounds walked as tasks: the same sequences as the plain walk, in another order.

The tasks are checked against the harness's own canonical form (every sequence of their
depth that no shorter one equals, once), and solves with tasks at every bound against the
breadth-first oracle, through pauses at any node.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubebench.harness import Budget
from cubebench.harness.cube import SOLVED, apply_sequence, is_solved, length_qtm, reduce_moves
from cubebench.solvers.optimal import solver
from cubebench.solvers.optimal.tasks import DEPTH

from .small import oracle, small_solver

QUARTER = [m for m in range(18) if m % 3 != 1]


def _length(moves: list[int], metric: str) -> int:
    return len(moves) if metric == "htm" else length_qtm(moves)


@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_the_tasks_are_each_canonical_sequence_of_their_depth_once(
    metric: str, table_folder: str
) -> None:
    tasks = small_solver(metric, table_folder)._tasks
    prefixes = [list(map(int, row)) for row in tasks.prefixes]
    assert tasks.prefixes.shape[1] == DEPTH
    alphabet = range(18) if metric == "htm" else QUARTER
    forms = set()
    for seq in itertools.product(alphabet, repeat=DEPTH):
        form = reduce_moves(list(seq))
        if _length(form, metric) == DEPTH:  # nothing cancels: a sequence of this length
            forms.add(tuple(form))
    ours = [tuple(reduce_moves(p)) for p in prefixes]
    assert all(_length(list(f), metric) == DEPTH for f in ours)
    assert len(set(ours)) == len(ours) == len(forms)  # each form once, and every one
    if metric == "htm":
        assert len(ours) == 43_254  # the task count nissy's H48 documents (doc/h48.md)
    else:  # no two canonical sequences this short meet: the states 4 quarter turns away
        assert len(ours) == 10_011


def test_a_prefix_with_fewer_ways_on_comes_first_at_equal_nodes(table_folder: str) -> None:
    tasks = small_solver("htm", table_folder)._tasks
    prefixes = [list(map(int, row)) for row in tasks.prefixes]
    u_last = prefixes.index([3, 6, 3, 0])  # R F R U: U may be followed by D
    d_last = prefixes.index([3, 6, 3, 9])  # R F R D: D by neither U nor D
    assert tasks.weights[u_last] > tasks.weights[d_last]
    nodes = np.zeros(len(prefixes), np.int64)
    nodes[[u_last, d_last]] = 1000
    order = list(tasks.order(nodes))
    assert order[:2] == [d_last, u_last]
    assert list(tasks.order(None)) == list(range(len(prefixes)))  # the walk's own order


@pytest.mark.parametrize("metric", ["htm", "qtm"])
@pytest.mark.parametrize("chunk", [1 << 21, 37])
@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_solves_walked_as_tasks_get_the_oracles_distance(
    metric: str, chunk: int, table_folder: str, data
) -> None:
    """Every bound past the task depth walked as tasks, paused every ``chunk`` nodes."""
    moves = data.draw(st.lists(st.integers(0, 17), min_size=5, max_size=8))
    state = apply_sequence(SOLVED, moves)
    distance, exact = oracle(metric).distances(state.reshape(54, 1), 4)
    if not exact[0]:
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solver, "TASK_NODES", 0)
        patch.setattr(solver, "CHUNK_NODES", chunk)
        attempt = small_solver(metric, table_folder).solve(state, Budget(wall_seconds=3600))
    assert is_solved(apply_sequence(state, list(attempt.moves)))
    assert _length(list(attempt.moves), metric) == distance[0]
    assert attempt.info[f"optimal_{metric}"] == distance[0]


def test_a_budget_spent_among_the_tasks_claims_only_the_bounds_walked(
    table_folder: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(solver, "TASK_NODES", 0)
    state = apply_sequence(SOLVED, [0, 6, 14, 3, 11, 17, 7, 9])
    distance, exact = oracle("htm").distances(state.reshape(54, 1), 4)
    assert exact[0] and distance[0] == 8
    small = small_solver("htm", table_folder)
    walked = []
    real = small._walk

    def counting(bound, budget, root, walk, tasks=None):  # type: ignore[no-untyped-def]
        walked.append(tasks is not None)
        return real(bound, budget, root, walk, tasks)

    monkeypatch.setattr(small, "_walk", counting)
    attempt = small.solve(state, Budget(max_nodes=3000, wall_seconds=3600))
    assert attempt.moves == ()
    assert any(walked)  # the budget ran out among the tasks
    assert attempt.info["optimal_htm_min"] <= 8
    assert attempt.nodes_expanded is not None and attempt.nodes_expanded >= 3000
