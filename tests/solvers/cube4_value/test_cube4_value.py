"""cube4-value: value iteration on the 4×4×4 learns distances from its own lookahead, and
the shipped network solves shallow cubes in any orientation, verified by the harness."""

from __future__ import annotations

import numpy as np
import pytest

from cubebench.harness import Budget, puzzle
from cubebench.harness.cube.movesets import _rotations
from cubebench.harness.registry import make_solver, resolve
from cubebench.harness.suites.catalog import load_suite
from cubebench.harness.testing import check_solver
from cubebench.harness.verify import judge, to_raw
from cubebench.solvers.common.puzzle_nets import PuzzleNetConfig
from cubebench.solvers.cube4_value.checkpoint import SHIPPED
from cubebench.solvers.cube4_value.train import data_for, train
from tests.envsettings import loop_for_tests

NAME = "cube4-value"
needs_checkpoint = pytest.mark.skipif(
    not (SHIPPED.folder / "cube4-value.json").exists(), reason="no shipped cube4-value"
)


@needs_checkpoint
def test_the_shipped_model_solves_three_move_cubes_and_turned_ones():
    solver = make_solver(NAME, {"beam_width": 256})
    states = load_suite("cube4-depth-03-v1", limit=10).states()
    cube = puzzle("cube4")
    for i in range(states.shape[1]):
        state = cube.apply(states[:, i], _rotations("cube4")[i])  # any orientation
        attempt = solver.solve(state, Budget(max_nodes=10**6))
        record = judge(state, to_raw(attempt, 0.0), Budget(), solver=NAME,
                       suite="cube4-depth-03-v1", instance=i, puzzle_name="cube4")  # fmt: skip
        assert record.status == "solved", i
        assert record.length_htm <= 3


@needs_checkpoint
def test_the_shipped_model_passes_conformance():
    check_solver(make_solver(NAME, {"beam_width": 64, "max_depth": 12}))


def test_it_names_its_puzzle_and_shows_the_value_searches():
    solver = resolve(NAME)
    assert solver.puzzles == ("cube4",)
    assert solver.settings.MODEL == "value" and solver.settings.search == "beam"


def test_labels_run_in_the_loops_precision_only_where_asked():
    assert data_for("htm").label_in_precision and data_for("qtm").label_in_precision
    assert data_for("htm").max_scramble == 30 and data_for("qtm").max_scramble == 40


def test_a_short_value_iteration_orders_shallow_states(tmp_path):
    data = data_for("htm")
    small = type(data)(data.puzzle, data.metric, batch_size=64, max_scramble=4,
                       update_every=20, validation_states=400,
                       label_in_precision=True)  # fmt: skip
    config = PuzzleNetConfig("cube4", "value", hidden1=64, hidden2=32, residual_blocks=1)
    card = train(loop_for_tests(steps=200, out=str(tmp_path)), small, config)
    by_walk = card["validation"]["mean_by_walk_length"]
    assert by_walk[0] < 0.5 < by_walk[2] < by_walk[4]  # solved near 0, farther is larger
    assert card["validation"]["target_updates"] == 10
    assert card["data"]["label_in_precision"] is True
    assert card["architecture"]["puzzle"] == "cube4"
    assert np.isfinite(card["validation"]["val_loss"])
