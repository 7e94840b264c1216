"""cube2-value: the shipped networks solve the 2×2×2 suites, verified by the harness."""

from __future__ import annotations

import pytest

from cubebench.harness import Budget
from cubebench.harness.registry import make_solver, resolve, resolve_solver_class
from cubebench.harness.settings import settings_info
from cubebench.harness.suites.catalog import load_suite
from cubebench.harness.testing import check_solver
from cubebench.harness.verify import judge, to_raw
from cubebench.solvers.cube2_value.checkpoint import SHIPPED

NAME = "cube2-value"


def shipped(metric: str) -> bool:
    return (SHIPPED.folder / f"{SHIPPED.stem_for(metric)}.json").exists()


@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_the_shipped_model_solves_shallow_and_random_cubes(metric):
    if not shipped(metric):
        pytest.skip(f"no shipped {NAME} {metric} checkpoint")
    solver = make_solver(NAME, {"metric": metric})
    for suite in ("cube2-depth-05-v1", "cube2-random-state-v1"):
        loaded = load_suite(suite, limit=40)
        states = loaded.states()
        for i, instance in enumerate(loaded.instances):
            attempt = solver.solve(states[:, i], Budget(max_nodes=10**6))
            record = judge(states[:, i], to_raw(attempt, 0.0), Budget(), solver=NAME,
                           suite=suite, instance=i, puzzle_name="cube2")  # fmt: skip
            assert record.status == "solved", (suite, i)
            assert getattr(record, f"length_{metric}") >= getattr(instance, f"optimal_{metric}")


def test_the_shipped_model_passes_conformance():
    if not shipped("htm"):
        pytest.skip(f"no shipped {NAME} checkpoint")
    check_solver(make_solver(NAME, {"astar_batch": 50}))


def test_it_names_its_puzzle_and_shows_no_3x3x3_only_setting():
    assert resolve(NAME).puzzles == ("cube2",)
    shown = {info.name for info in settings_info(resolve_solver_class(NAME).Settings)}
    assert not shown & {"mitm_radius", "starts", "value_symmetries", "value_bound"}
    assert {"metric", "search", "max_depth"} <= shown
