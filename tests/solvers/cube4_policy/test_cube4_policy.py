"""cube4-policy: the shipped network solves shallow 4×4×4 cubes in any orientation, verified
by the harness, and a short training learns."""

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
from cubebench.solvers.cube4_policy.checkpoint import SHIPPED
from cubebench.solvers.cube4_policy.train import data_for, train
from tests.envsettings import loop_for_tests

NAME = "cube4-policy"
needs_checkpoint = pytest.mark.skipif(
    not (SHIPPED.folder / "cube4-policy.json").exists(), reason="no shipped cube4-policy"
)


@needs_checkpoint
def test_the_shipped_model_solves_five_move_cubes_and_turned_ones():
    solver = make_solver(NAME, {"beam_width": 256})
    loaded = load_suite("cube4-depth-05-v1", limit=20)
    states = loaded.states()
    cube = puzzle("cube4")
    for i in range(states.shape[1]):
        state = cube.apply(states[:, i], _rotations("cube4")[i])  # any orientation
        attempt = solver.solve(state, Budget(max_nodes=10**6))
        record = judge(state, to_raw(attempt, 0.0), Budget(), solver=NAME,
                       suite="cube4-depth-05-v1", instance=i, puzzle_name="cube4")  # fmt: skip
        assert record.status == "solved", i
        assert record.length_htm <= 5


@needs_checkpoint
def test_the_shipped_model_passes_conformance():
    check_solver(make_solver(NAME, {"beam_width": 64, "max_depth": 12}))


def test_it_names_its_puzzle():
    assert resolve(NAME).puzzles == ("cube4",)


def test_a_short_training_learns_depth_one(tmp_path):
    data = data_for("htm")
    small = type(data)(data.puzzle, data.metric, walks_per_batch=16, walk_length=6,
                       validation_walks=100)  # fmt: skip
    config = PuzzleNetConfig("cube4", "policy", hidden1=64, hidden2=32, residual_blocks=1)
    card = train(loop_for_tests(steps=120, out=str(tmp_path)), small, config)
    assert card["validation"]["accuracy_by_depth"][1] > 0.5  # chance is 1/36
    assert card["architecture"]["puzzle"] == "cube4"
    assert np.isfinite(card["validation"]["val_loss"])
