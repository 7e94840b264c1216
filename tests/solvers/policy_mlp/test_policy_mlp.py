"""policy-mlp: data labels, a short training run that learns, and the shipped checkpoint."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from cubebench.harness.cube import (
    MOVE_INVERSE,
    apply_moves,
    apply_sequence,
    facelets_to_state,
    is_solved,
)
from cubebench.harness.cube.moves import MOVE_QTM
from cubebench.harness.registry import make_solver
from cubebench.harness.solver import Budget
from cubebench.harness.suites.catalog import load_suite
from cubebench.harness.testing import check_solver
from cubebench.solvers.common.walks import random_walks, walk_samples
from cubebench.solvers.policy_mlp.checkpoint import (
    CARD,
    CHECKPOINT_DIR,
    WEIGHTS,
    CheckpointError,
    load_checkpoint,
)
from cubebench.solvers.policy_mlp.train import DataConfig, train
from tests.envsettings import loop_for_tests

SHIPPED = (CHECKPOINT_DIR / WEIGHTS).exists()
needs_checkpoint = pytest.mark.skipif(not SHIPPED, reason="no shipped policy-mlp checkpoint")


def test_labels_undo_the_last_scramble_move():
    rng = np.random.default_rng(0)
    states, labels, depths = walk_samples(50, 6, rng)
    n = 50
    for step in range(1, 6):
        here = states[:, step * n : (step + 1) * n]
        back = apply_moves(here, labels[step * n : (step + 1) * n])
        assert np.array_equal(back, states[:, (step - 1) * n : step * n])
    assert is_solved(apply_moves(states[:, :n], labels[:n])).all()
    assert (depths[:n] == 1).all() and (depths[-n:] == 6).all()


def test_walks_never_turn_a_face_twice():
    walks = random_walks(500, 20, np.random.default_rng(1))
    assert not (walks[:, 1:] // 3 == walks[:, :-1] // 3).any()
    assert (MOVE_INVERSE[walks] // 3 == walks // 3).all()


def test_short_training_learns_depth_one_far_above_chance(tmp_path):
    card = train(
        loop_for_tests(steps=20, out=str(tmp_path)),
        log=lambda _: None,
    )
    assert card["validation"]["accuracy_by_depth"][1] > 0.5  # chance is 1/18
    model, loaded = load_checkpoint(tmp_path)
    assert loaded["steps"] == card["steps"] and len(loaded["sha256"]) == 64
    assert sum(p.numel() for p in model.parameters()) == card["parameters"]


@needs_checkpoint
@pytest.mark.parametrize("precision", ["auto", "fp32", "int8"])
def test_shipped_checkpoint_passes_conformance(precision):
    check_solver(make_solver("policy-mlp", {"beam_width": 256, "precision": precision}))


@needs_checkpoint
def test_shipped_checkpoint_solves_depth_five():
    solver = make_solver("policy-mlp", {"beam_width": 256})
    instances = load_suite("depth-05-v1").instances[:200]
    for inst in instances:
        state = facelets_to_state(inst.facelets)
        attempt = solver.solve(state, Budget(wall_seconds=30))
        assert attempt.moves and is_solved(apply_sequence(state, attempt.moves)), inst.id


@needs_checkpoint
def test_checkpoint_is_small_and_tampering_is_refused(tmp_path):
    assert (CHECKPOINT_DIR / WEIGHTS).stat().st_size < 10 * 2**20
    copy = tmp_path / "ckpt"
    shutil.copytree(CHECKPOINT_DIR, copy, ignore=shutil.ignore_patterns("*train-state*", "*-qtm*"))
    data = bytearray((copy / WEIGHTS).read_bytes())
    data[len(data) // 2] ^= 0xFF
    (copy / WEIGHTS).write_bytes(bytes(data))
    with pytest.raises(CheckpointError, match="corrupt or replaced"):
        load_checkpoint(copy)
    (copy / CARD).unlink()
    with pytest.raises(CheckpointError, match="no model card"):
        load_checkpoint(copy)


@pytest.mark.skipif(
    not (CHECKPOINT_DIR / "policy-mlp-qtm.json").exists(), reason="no shipped QTM checkpoint"
)
def test_shipped_quarter_turn_checkpoint_solves_depth_three_in_quarter_turns():
    solver = make_solver("policy-mlp", {"metric": "qtm", "beam_width": 256})
    assert solver.card["metric"] == "qtm"
    for inst in load_suite("depth-03-v1").instances[:40]:
        state = facelets_to_state(inst.facelets)
        attempt = solver.solve(state, Budget(wall_seconds=60))
        assert attempt.moves and is_solved(apply_sequence(state, attempt.moves)), inst.id
        assert (MOVE_QTM[list(attempt.moves)] == 1).all()
        assert attempt.info["metric"] == "qtm"


def test_quarter_turn_training_writes_its_own_checkpoint(tmp_path):
    card = train(
        loop_for_tests(steps=10, out=str(tmp_path)), DataConfig.for_metric("qtm"), log=print
    )
    assert card["metric"] == "qtm" and (tmp_path / "policy-mlp-qtm.pt").exists()
    assert not (tmp_path / "policy-mlp.json").exists()
    with pytest.raises(CheckpointError, match="holds a qtm model"):
        load_checkpoint(tmp_path)  # the half-turn model is asked for by default
