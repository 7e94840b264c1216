"""value-transformer: the model's shapes, and a short training run that learns to rank."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from cubebench.harness.cube import apply_sequence, random_states, solved_batch
from cubebench.harness.cube.scramble import canonical_scrambles
from cubebench.harness.registry import make_solver
from cubebench.harness.testing import check_solver
from cubebench.solvers.value_transformer.checkpoint import CHECKPOINT_DIR, STEM, load_checkpoint
from cubebench.solvers.value_transformer.model import TransformerConfig, ValueTransformer, encode
from cubebench.solvers.value_transformer.train import DataConfig, train
from tests.envsettings import loop_for_tests
from tests.shipped import assert_solves_first


def test_heads_and_readouts():
    states = random_states(5, np.random.default_rng(0))
    reg = ValueTransformer(TransformerConfig(head="regression")).eval()
    cls = ValueTransformer(TransformerConfig(head="classification", max_distance=26)).eval()
    with torch.inference_mode():
        assert reg(encode(states)).shape == (5,)
        logits = cls(encode(states))
        assert logits.shape == (5, 27)
        mean, mode = cls.distance(logits, "mean"), cls.distance(logits, "mode")
    assert ((mean >= 0) & (mean <= 26)).all() and set(mode.tolist()) <= set(range(27))


def _states_at(depth: int, n: int, seed: int) -> np.ndarray:
    scrambles = canonical_scrambles(n, depth, np.random.default_rng(seed))
    return np.stack([apply_sequence(solved_batch(1)[:, 0], s.tolist()) for s in scrambles], 1)


def test_short_training_ranks_depth_one_below_depth_three(tmp_path):
    card = train(
        loop_for_tests(steps=150, out=str(tmp_path)),
        DataConfig(walks_per_batch=256, walk_length=8, validation_walks=100),
        log=lambda _: None,
    )
    assert {"vs_true_distance_depth_le_7", "vs_walk_length_deep"} <= set(card["validation"])
    model, _ = load_checkpoint(tmp_path)
    with torch.inference_mode():
        one = model.distance(model(encode(_states_at(1, 200, 1)))).mean().item()
        three = model.distance(model(encode(_states_at(3, 200, 2)))).mean().item()
    assert one + 1 < three


SHIPPED = (CHECKPOINT_DIR / f"{STEM}.pt").exists()
needs_checkpoint = pytest.mark.skipif(not SHIPPED, reason="no shipped value-transformer checkpoint")


@needs_checkpoint
def test_shipped_checkpoint_passes_conformance():
    check_solver(make_solver("value-transformer", {"beam_width": 64}))


@needs_checkpoint
@pytest.mark.parametrize("search", ["beam", "astar"])
def test_shipped_checkpoint_solves_depth_three(search):
    solver = make_solver("value-transformer", {"search": search, "beam_width": 100})
    assert_solves_first(solver, "depth-03-v1", 100)


@needs_checkpoint
def test_shipped_checkpoint_ranks_by_depth():
    model, card = load_checkpoint(CHECKPOINT_DIR)
    assert len(card["sha256"]) == 64
    with torch.inference_mode():
        means = [
            model.distance(model(encode(_states_at(d, 100, 10 + d)))).mean().item()
            for d in (1, 3, 5, 7)
        ]
    assert means == sorted(means) and means[-1] - means[0] > 4
