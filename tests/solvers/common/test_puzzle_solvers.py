"""The learned 2×2×2 solvers through the shared adapter: the shipped networks solve the
2×2×2 suites, verified by the harness, in both metrics, and pass conformance; each names
its puzzle and shows none of the 3×3×3's own settings."""

from __future__ import annotations

import pytest

from cubebench.harness import Budget
from cubebench.harness.registry import make_solver, resolve, resolve_solver_class
from cubebench.harness.settings import settings_info
from cubebench.harness.suites.catalog import load_suite
from cubebench.harness.testing import check_solver
from cubebench.harness.verify import judge, to_raw

# each solver with the settings that keep its conformance run short
SOLVERS = {"cube2-policy": {"beam_width": 64}, "cube2-value": {"astar_batch": 50}}


def _shipped(name: str, metric: str) -> bool:
    shipped = resolve_solver_class(name).SHIPPED
    return (shipped.folder / f"{shipped.stem_for(metric)}.json").exists()


@pytest.mark.parametrize("metric", ["htm", "qtm"])
@pytest.mark.parametrize("name", list(SOLVERS))
def test_the_shipped_model_solves_shallow_and_random_cubes(name, metric):
    if not _shipped(name, metric):
        pytest.skip(f"no shipped {name} {metric} checkpoint")
    solver = make_solver(name, {"metric": metric})
    for suite in ("cube2-depth-05-v1", "cube2-random-state-v1"):
        loaded = load_suite(suite, limit=40)
        states = loaded.states()
        for i, instance in enumerate(loaded.instances):
            attempt = solver.solve(states[:, i], Budget(max_nodes=10**6))
            record = judge(states[:, i], to_raw(attempt, 0.0), Budget(), solver=name,
                           suite=suite, instance=i, puzzle_name="cube2")  # fmt: skip
            assert record.status == "solved", (suite, i)
            assert getattr(record, f"length_{metric}") >= getattr(instance, f"optimal_{metric}")


@pytest.mark.parametrize("name", list(SOLVERS))
def test_the_shipped_model_passes_conformance(name):
    if not _shipped(name, "htm"):
        pytest.skip(f"no shipped {name} checkpoint")
    check_solver(make_solver(name, SOLVERS[name]))


@pytest.mark.parametrize("name", list(SOLVERS))
def test_it_names_its_puzzle_and_shows_no_3x3x3_only_setting(name):
    assert resolve(name).puzzles == ("cube2",)
    shown = {info.name for info in settings_info(resolve_solver_class(name).Settings)}
    assert not shown & {"mitm_radius", "starts", "value_symmetries", "value_bound"}
    assert {"metric", "search", "max_depth"} <= shown
