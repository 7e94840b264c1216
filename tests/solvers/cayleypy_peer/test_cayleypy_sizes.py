"""cayleypy-cube2 and cayleypy-cube4: CayleyPy's own 2×2×2 and 4×4×4 graphs behind the harness.

Both engines agree move for move (on the 2×2×2 after the whole-cube rotation that takes
CayleyPy's fixed corner to the harness's); a short run of CayleyPy's recipe on the 2×2×2
learns and its beam solves cubes in any orientation, verified by the harness; the 4×4×4
solver offers only the metric CayleyPy has a graph for; the shipped models solve through
``bench run``.
"""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from cubebench.harness import Budget, SettingsError, move_set
from cubebench.harness.cube.puzzle import puzzle
from cubebench.harness.registry import make_solver, resolve
from cubebench.harness.suites.catalog import load_suite
from cubebench.harness.testing import check_solver
from cubebench.harness.verify import judge, to_raw
from tests.envsettings import loop_for_tests
from tests.harness.bench_process import bench

pytest.importorskip("cayleypy", reason="the peers extra (cubebench[peers])")

from cubebench.solvers.cayleypy_peer.checkpoint import SHIPPED_BY_PUZZLE
from cubebench.solvers.cayleypy_peer.graph import cube_graph, peer_cube
from cubebench.solvers.cayleypy_peer.train import DataConfig, train

GRAPHS = [("cube2", "htm"), ("cube2", "qtm"), ("cube4", "qtm")]


def _walked(puzzle_name: str, metric: str, seed: int, count: int = 4) -> np.ndarray:
    """(S, count) states 30 random moves of the harness's move set from solved (on the
    2×2×2, the frame its move set keeps: the DBL corner home)."""
    cube, moves = puzzle(puzzle_name), move_set(metric, puzzle_name).moves
    rng = np.random.default_rng(seed)
    return np.stack(
        [cube.apply(cube.solved, [int(m) for m in rng.choice(moves, 30)]) for _ in range(count)],
        axis=1,
    )


@pytest.mark.parametrize(("puzzle_name", "metric"), GRAPHS)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_cayleypys_graph_and_the_harness_agree_move_for_move(puzzle_name, metric, seed):
    graph, mapping = cube_graph(metric, puzzle_name=puzzle_name), peer_cube(metric, puzzle_name)
    cube = puzzle(puzzle_name)
    states = _walked(puzzle_name, metric, seed)
    peer = torch.as_tensor(mapping.states_to_peer(states))
    solved = mapping.states_to_peer(cube.solved[:, None])[0]
    assert (solved == np.asarray(graph.central_state)).all()
    for g in range(graph.definition.n_generators):
        theirs = graph.apply_path(peer, [g]).numpy()
        ours = mapping.states_to_peer(cube.apply(states, [int(mapping.moves[g])]))
        assert (theirs == ours).all(), (metric, graph.definition.generator_names[g])


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    out = tmp_path_factory.mktemp("cayleypy-cube2")
    loop = replace(loop_for_tests(steps=300, out=str(out)), lr=3e-3)
    data = DataConfig(metric="htm", puzzle="cube2", walks_per_batch=192, walk_length=11)
    return out, train(loop, data, log=print)


def test_a_short_run_on_the_2x2x2_learns_and_its_beam_solves_any_orientation(tiny):
    out, card = tiny
    means = card["validation"]["mean_by_depth"]
    assert means[1] < means[3] < means[6]
    assert card["architecture"]["input_size"] == 24 and card["architecture"]["graph_hash"]
    solver = make_solver("cayleypy-cube2", {"checkpoint": str(out), "beam_width": 1024})
    loaded = load_suite("cube2-random-state-v1", limit=12)
    cube = puzzle("cube2")
    turn = cube.parse_moves("R L' U D'")  # the whole cube turned: its DBL corner elsewhere
    states = np.stack([cube.apply(s, turn) for s in loaded.states().T], axis=1)
    turned = 0
    for i, instance in enumerate(loaded.instances):
        attempt = solver.solve(states[:, i], Budget(wall_seconds=300))
        turned += bool(attempt.info.get("turned"))
        record = judge(states[:, i], to_raw(attempt, 0.0), Budget(), solver="cayleypy-cube2",
                       suite="cube2-random-state-v1", instance=i, puzzle_name="cube2")  # fmt: skip
        assert record.status == "solved", i
        assert record.length_htm >= instance.optimal_htm
    assert turned == len(loaded.instances)


def test_the_4x4x4_solver_offers_its_graphs_metric_only_and_names_its_puzzles():
    assert resolve("cayleypy-cube4").puzzles == ("cube4",)
    assert resolve("cayleypy-cube2").puzzles == ("cube2",)
    assert resolve("cayleypy").puzzles == ("cube3",)
    for setting, choices in (("metric='htm'", "qtm"), ("search='cubebench'", "cayleypy")):
        key, value = setting.split("=")
        with pytest.raises(SettingsError, match=f"setting {setting}: choose one of {choices}$"):
            make_solver("cayleypy-cube4", {key: value.strip("'")})


def _shipped(puzzle_name: str, metric: str) -> bool:
    shipped = SHIPPED_BY_PUZZLE[puzzle_name]
    return (shipped.folder / f"{shipped.stem_for(metric)}.json").exists()


@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_the_shipped_2x2x2_models_solve_random_states_through_bench_run(metric, tmp_path):
    if not _shipped("cube2", metric):
        pytest.skip(f"no shipped cayleypy-cube2 {metric} model")
    check_solver(make_solver("cayleypy-cube2", {"metric": metric, "beam_width": 64}))
    done = bench(
        "run", "-s", "cayleypy-cube2", "--set", f"metric={metric}", "--set", "beam_width=256",
        "--suite", "cube2-random-state-v1", "--limit", "10", "--out", str(tmp_path),
        "--run-id", "peer", "--quiet", "--no-report",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in (tmp_path / "peer/records.jsonl").open()]
    assert [r["status"] for r in records] == ["solved"] * 10
    assert {r["info"]["cayleypy"] for r in records} == {"0.2.0"}


def test_the_shipped_4x4x4_model_passes_conformance_and_solves_one_move_cubes():
    """Conformance (every one-move cube solved, legal answers, budgets kept), and the suite's
    one-move cubes each solved in no more quarter turns than its scramble has (a wide half
    turn is four): the mapping there and back, on the shipped model."""
    if not _shipped("cube4", "qtm"):
        pytest.skip("no shipped cayleypy-cube4 model")
    solver = make_solver("cayleypy-cube4", {"beam_width": 64, "max_depth": 12})
    check_solver(solver)
    cube = puzzle("cube4")
    loaded = load_suite("cube4-depth-01-v1", limit=20)
    states = loaded.states()
    for i, instance in enumerate(loaded.instances):
        attempt = solver.solve(states[:, i], Budget(wall_seconds=300))
        record = judge(states[:, i], to_raw(attempt, 0.0), Budget(), solver="cayleypy-cube4",
                       suite="cube4-depth-01-v1", instance=i, puzzle_name="cube4")  # fmt: skip
        assert record.status == "solved", i
        assert record.length_qtm <= cube.length(cube.parse_moves(instance.scramble), "qtm")
