"""The learned solvers of other sizes through the shared adapter: the shipped 2×2×2
networks solve the 2×2×2 suites in both metrics, the 4×4×4 ones shallow cubes turned
whole, verified by the harness; each passes conformance, names its puzzle and shows none
of the 3×3×3's own settings."""

from __future__ import annotations

import pytest

from cubebench.harness import Budget, puzzle
from cubebench.harness.cube.movesets import _rotations
from cubebench.harness.registry import make_solver, resolve, resolve_solver_class
from cubebench.harness.settings import SettingsError, settings_info
from cubebench.harness.suites.catalog import load_suite
from cubebench.harness.testing import check_solver
from cubebench.harness.verify import judge, to_raw

# each solver with the settings that keep its conformance run short
SOLVERS = {"cube2-policy": {"beam_width": 64}, "cube2-value": {"astar_batch": 50}}
# the 4×4×4's: the suite whose first cubes each solves at its scramble's length or shorter
CUBE4 = {"cube4-policy": ("cube4-depth-05-v1", 20), "cube4-value": ("cube4-depth-03-v1", 10)}


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


@pytest.mark.parametrize("name", list(CUBE4))
def test_the_shipped_4x4x4_model_solves_shallow_cubes_in_any_orientation(name):
    if not _shipped(name, "htm"):
        pytest.skip(f"no shipped {name} checkpoint")
    solver = make_solver(name, {"beam_width": 256})
    suite, count = CUBE4[name]
    loaded = load_suite(suite, limit=count)
    states = loaded.states()
    for i, instance in enumerate(loaded.instances):
        state = puzzle("cube4").apply(states[:, i], _rotations("cube4")[i])  # turned whole
        attempt = solver.solve(state, Budget(max_nodes=10**6))
        record = judge(state, to_raw(attempt, 0.0), Budget(), solver=name, suite=suite,
                       instance=i, puzzle_name="cube4")  # fmt: skip
        assert record.status == "solved", i
        assert record.length_htm <= instance.depth


@pytest.mark.parametrize(
    ("name", "settings"),
    [*SOLVERS.items(), *((n, {"beam_width": 64, "max_depth": 12}) for n in CUBE4)],
)
def test_the_shipped_model_passes_conformance(name, settings):
    if not _shipped(name, "htm"):
        pytest.skip(f"no shipped {name} checkpoint")
    check_solver(make_solver(name, settings))


@pytest.mark.parametrize("name", list(SOLVERS))
def test_it_names_its_puzzle_and_shows_no_3x3x3_only_setting(name):
    assert resolve(name).puzzles == ("cube2",)
    shown = {info.name for info in settings_info(resolve_solver_class(name).Settings)}
    assert not shown & {"mitm_radius", "starts", "value_symmetries", "value_bound"}
    assert {"metric", "search", "max_depth"} <= shown


@pytest.mark.parametrize(
    ("name", "moves"), [("cube2-policy", "9 face turns"), ("cube4-value", "36 face and wide")]
)
def test_its_settings_say_its_own_moves_and_precisions(name, moves):
    shown = {info.name: info for info in settings_info(resolve_solver_class(name).Settings)}
    assert moves in shown["metric"].help and "18 face turns" not in shown["metric"].help
    assert shown["precision"].kind == "auto | fp32 | bf16"  # no int8: it is not offered
    with pytest.raises(SettingsError, match="precision='int8'"):
        make_solver(name, {"precision": "int8"})
