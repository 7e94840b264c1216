"""The torch copy of the move tables agrees with the numpy engine, sticker for sticker."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from cubebench.harness.cube import scrambled_batch
from cubebench.harness.cube.movesets import move_set
from cubebench.harness.suites.oracle import DistanceOracle
from cubebench.solvers.common.resmlp import encode
from cubebench.solvers.common.torch_cube import TorchCube


@pytest.mark.parametrize("metric", ["qtm", "htm"])
@given(seed=st.integers(0, 2**32 - 1))
def test_children_and_encoding_match_the_engine(metric, seed):
    states = scrambled_batch(np.random.default_rng(seed).integers(0, 18, (8, 12)))  # (54, 8)
    cube = TorchCube(metric)
    tensor = TorchCube.from_engine(states)
    children = cube.children(tensor)  # (8, k, 54)
    expected = move_set(metric).expand(states)  # (54, k * 8), child m * 8 + j
    for m in range(cube.size):
        assert np.array_equal(children[:, m].numpy().T, expected[:, m * 8 : (m + 1) * 8])
    assert torch.equal(cube.encode(tensor), encode(states))


@pytest.mark.parametrize("metric", ["qtm", "htm"])
def test_scrambles_are_walks_no_longer_than_their_length(metric):
    cube = TorchCube(metric)
    states, depths = cube.scrambles(3000, 4, torch.Generator().manual_seed(5))
    assert set(depths.tolist()) == {0, 1, 2, 3, 4}
    assert torch.equal(cube.is_solved(states), depths == 0)
    exact = DistanceOracle.build(4, metric=metric).table_distance(states.numpy().T.copy())
    assert (exact <= depths.numpy()).all()
    assert (exact[depths.numpy() == 1] == 1).all()
    # non-backtracking: no two-move walk comes back towards solved
    assert (exact[depths.numpy() == 2] == 2).all()
