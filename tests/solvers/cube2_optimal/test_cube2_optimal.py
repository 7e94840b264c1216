"""cube2-optimal: its answers equal the exact table on every instance, and the runner verifies."""

from __future__ import annotations

import numpy as np
import pytest

from cubebench.harness import Budget
from cubebench.harness.cube.puzzle import puzzle
from cubebench.harness.registry import make_solver
from cubebench.harness.suites.catalog import load_suite
from cubebench.harness.verify import judge, to_raw


@pytest.fixture(scope="module")
def solvers():
    return {m: make_solver("cube2-optimal", {"metric": m}) for m in ("htm", "qtm")}


@pytest.mark.parametrize("suite", ["cube2-random-state-v1", "cube2-depth-11-v1"])
def test_every_answer_is_replayed_solved_at_the_suites_optimum(solvers, suite):
    loaded = load_suite(suite, limit=250)
    states = loaded.states()
    for metric, solver in solvers.items():
        for i, instance in enumerate(loaded.instances):
            attempt = solver.solve(states[:, i], Budget())
            record = judge(states[:, i], to_raw(attempt, 0.0), Budget(), solver="o",
                           suite=suite, instance=i, puzzle_name="cube2")  # fmt: skip
            assert record.status == "solved", (metric, i)
            assert getattr(record, f"length_{metric}") == getattr(instance, f"optimal_{metric}")


def test_a_shallow_scramble_in_quarter_turns_is_answered_in_quarter_turns(solvers):
    cube = puzzle("cube2")
    state = cube.apply(cube.solved, cube.parse_moves("R2 U"))
    attempt = solvers["qtm"].solve(state, Budget())
    assert len(attempt.moves) == 3 and all(cube.move_names[m][-1] != "2" for m in attempt.moves)
    assert cube.is_solved(cube.apply(state, attempt.moves))


def test_an_optimum_over_the_length_budget_is_given_up(solvers):
    cube = puzzle("cube2")
    state = cube.apply(cube.solved, cube.parse_moves("R U F"))
    attempt = solvers["htm"].solve(state, Budget(max_length=2))
    assert attempt.moves == () and "over the length budget" in attempt.info["gave_up"]


def test_a_solved_cube_in_any_orientation_gets_no_moves(solvers):
    cube = puzzle("cube2")
    turned = cube.apply(cube.solved, cube.parse_moves("R L' U D'"))
    assert solvers["htm"].solve(turned, Budget()).moves == ()
    assert np.array_equal(cube.solved, puzzle("cube2").solved)
