"""value-transformer: the model's shapes, and a short training run that learns to rank."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from cubebench.harness import ArgumentError
from cubebench.harness.cube import apply_sequence, random_states, solved_batch
from cubebench.harness.cube.scramble import canonical_scrambles
from cubebench.harness.registry import make_solver
from cubebench.harness.testing import check_solver
from cubebench.solvers.value_transformer.checkpoint import CHECKPOINT_DIR, STEM, load_checkpoint
from cubebench.solvers.value_transformer.model import TransformerConfig, ValueTransformer, encode
from cubebench.solvers.value_transformer.train import DataConfig, make_task, train
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


def test_path_phase_steps_see_about_as_many_states_as_plain_ones():
    # Whole walks by default: 1024 // 8 = 128 walks of 8 states each, every depth 1..8 once.
    data = DataConfig(phase="path", walk_length=8, validation_walks=8)
    task = make_task(data, TransformerConfig(layers=1, width=16, heads=1, feedforward=32), "cpu", 0)
    tokens, target = task.make_batch(np.random.default_rng(0))
    assert len(tokens) == len(target) == 1024
    assert np.bincount(target.numpy().astype(int)).tolist() == [0] + [128] * 8
    assert task.card["data"]["walks_per_batch"] == 128
    plain = DataConfig(walks_per_batch=32, walk_length=8, validation_walks=8)
    plain_task = make_task(
        plain, TransformerConfig(layers=1, width=16, heads=1, feedforward=32), "cpu", 0
    )
    assert len(plain_task.make_batch(np.random.default_rng(0))[1]) == 32


@pytest.mark.parametrize("field", ["walks_per_batch", "walk_length", "validation_walks"])
def test_data_settings_refuse_bad_values_by_name(field):
    with pytest.raises(ArgumentError, match=f"{field}=-1"):
        DataConfig(**{field: -1})


SHIPPED = (CHECKPOINT_DIR / f"{STEM}.pt").exists()
needs_checkpoint = pytest.mark.skipif(not SHIPPED, reason="no shipped value-transformer checkpoint")


@needs_checkpoint
def test_shipped_checkpoint_passes_conformance():
    check_solver(make_solver("value-transformer", {"beam_width": 64}))


@needs_checkpoint
@pytest.mark.parametrize(("search", "cubes"), [("beam", 100), ("astar", 25)])
def test_shipped_checkpoint_solves_depth_three(search, cubes):
    # A* takes ~15x the beam's time a cube here (57 s against 3.7 s for 100 cubes).
    solver = make_solver("value-transformer", {"search": search, "beam_width": 100})
    assert_solves_first(solver, "depth-03-v1", cubes)


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
