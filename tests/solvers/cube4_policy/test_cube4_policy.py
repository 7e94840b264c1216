"""cube4-policy: a short training learns the move that undoes depth one; the shipped model's
searches are in tests/solvers/common/test_puzzle_solvers.py."""

from __future__ import annotations

import numpy as np

from cubebench.harness.registry import resolve
from cubebench.solvers.common.puzzle_nets import PuzzleNetConfig
from cubebench.solvers.cube4_policy.train import data_for, train
from tests.envsettings import loop_for_tests

NAME = "cube4-policy"


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
