"""The gather form of the residual MLP computes the trained network's function."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch import nn

from cubebench.harness import random_states
from cubebench.solvers.common.resmlp import (
    PIECE_ROWS,
    GatherResMLP,
    encode,
    piece_rows,
    residual_mlp,
    sticker_rows,
)


@pytest.fixture(scope="module")
def trained() -> nn.Sequential:
    """A residual MLP whose batch norms hold statistics far from the identity."""
    torch.manual_seed(0)
    net = residual_mlp(64, 32, 2, 3)
    with torch.no_grad():
        for norm in (m for m in net.modules() if isinstance(m, nn.BatchNorm1d)):
            norm.running_mean.uniform_(-1, 1)
            norm.running_var.uniform_(0.5, 2)
            norm.weight.uniform_(0.5, 1.5)
            norm.bias.uniform_(-0.5, 0.5)
    return net.eval()


def test_sticker_rows_point_at_the_ones_of_the_one_hot_input():
    states = random_states(50, np.random.default_rng(1))
    rows = sticker_rows(states)
    dense = encode(states)  # (50, 288)
    assert rows.shape == (50, 48) and rows.dtype == torch.int64
    assert torch.equal(dense.sum(axis=1), torch.full((50,), 48.0))
    assert (dense.gather(1, rows) == 1).all()


def test_piece_rows_give_each_slot_its_own_block_and_each_colouring_its_own_row():
    states = random_states(2000, np.random.default_rng(3))
    rows = piece_rows(states).numpy()  # (2000, 20)
    assert rows.shape == (2000, 20) and rows.min() >= 0 and rows.max() < PIECE_ROWS
    # corners own blocks of 216 rows, edges of 36, in slot order
    starts = np.concatenate([np.arange(8) * 216, 1728 + np.arange(12) * 36])
    sizes = np.array([216] * 8 + [36] * 12)
    assert ((rows >= starts) & (rows < starts + sizes)).all()
    # a legal cube shows 24 colourings per slot (8 corners x 3 twists, 12 edges x 2 flips)
    assert all(np.unique(rows[:, k]).size == 24 for k in range(20))
    # recolouring one sticker changes the row of the one slot that holds it
    recoloured = states[:, :1].copy()
    recoloured[0, 0] = (recoloured[0, 0] + 1) % 6  # facelet 0: a U corner sticker
    changed = piece_rows(recoloured).numpy()[0] != rows[0]
    assert changed.sum() == 1 and changed[:8].any()


@pytest.mark.parametrize("by", ["pieces", "stickers"])
@pytest.mark.parametrize(
    ("precision", "tolerance"), [("fp32", 1e-4), ("bf16", 0.05), ("int8", 0.1)]
)
def test_the_gather_form_equals_the_dense_network(trained, precision, tolerance, by):
    states = random_states(500, np.random.default_rng(2))
    with torch.inference_mode():
        expected = trained(encode(states))  # (500, 3)
        gather = GatherResMLP(trained, precision, by)
        got = gather(gather.rows(states)).float()
    scale = expected.abs().max()
    assert got.shape == expected.shape
    assert (got - expected).abs().max() <= tolerance * scale
    # the original is left as it was (the gather form works on a copy)
    assert any(isinstance(m, nn.BatchNorm1d) for m in trained.modules())
