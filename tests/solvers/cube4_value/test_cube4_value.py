"""cube4-value: value iteration on the 4×4×4 learns distances from its own lookahead; the
shipped model's searches are in tests/solvers/common/test_puzzle_solvers.py."""

from __future__ import annotations

import numpy as np

from cubebench.harness.registry import resolve
from cubebench.solvers.common.puzzle_nets import PuzzleNetConfig
from cubebench.solvers.cube2_value.train import data_for as cube2_data
from cubebench.solvers.cube4_value.train import data_for, train
from tests.envsettings import loop_for_tests

NAME = "cube4-value"


def test_it_names_its_puzzle_and_shows_the_value_searches():
    solver = resolve(NAME)
    assert solver.puzzles == ("cube4",)
    assert solver.settings.MODEL == "value" and solver.settings.search == "beam"


def test_labels_run_in_the_loops_precision_only_where_asked():
    assert data_for("htm").label_in_precision and data_for("qtm").label_in_precision
    assert not cube2_data("htm").label_in_precision  # its shipped runs labelled in float32
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
