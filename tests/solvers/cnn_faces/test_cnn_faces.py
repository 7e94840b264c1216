"""cnn-faces: the seed's architecture, colour augmentation, a short training run, safe
checkpoints."""

from __future__ import annotations

import numpy as np
import pytest

from cubebench.harness.cube import apply_moves, random_states
from cubebench.harness.hardware import native_bf16
from cubebench.harness.registry import make_solver
from cubebench.harness.testing import check_solver
from cubebench.solvers.cnn_faces.checkpoint import CHECKPOINT_DIR, STEM, load_checkpoint
from cubebench.solvers.cnn_faces.model import CNNConfig, build_model, encode, permute_colours
from cubebench.solvers.cnn_faces.train import DataConfig, train
from cubebench.solvers.common.cards import CheckpointError
from tests.envsettings import loop_for_tests
from tests.shipped import assert_solves_first


def test_architecture_matches_the_seed_table():
    assert build_model(CNNConfig()).count_params() == 2_644_242  # seed 004's summary
    states = random_states(3, np.random.default_rng(0))
    assert encode(states).shape == (3, 6, 3, 3, 6)
    assert encode(states, "flat").shape == (3, 18, 3, 6)
    assert build_model(CNNConfig(variant="flat"))(encode(states, "flat")).shape == (3, 18)


def test_colour_permutation_commutes_with_moves():
    rng = np.random.default_rng(1)
    states = random_states(50, rng)
    moves = rng.integers(0, 18, size=50)
    permuted = permute_colours(states, np.random.default_rng(2))
    # relabelling colours and turning a face can happen in either order
    assert np.array_equal(
        apply_moves(permuted, moves),
        permute_colours(apply_moves(states, moves), np.random.default_rng(2)),
    )
    assert all(len(set(permuted[:, j])) == 6 for j in range(50))


def test_short_training_learns_depth_one_and_checkpoint_is_safe(tmp_path):
    card = train(
        loop_for_tests(steps=40, out=str(tmp_path)),
        DataConfig(max_depth=4, walks_per_batch=128, validation_walks=100),
        log=lambda _: None,
    )
    assert card["validation"]["accuracy_by_depth"][1] > 0.5  # chance is 1/18
    model, loaded = load_checkpoint(tmp_path)
    assert loaded["sha256"] and model.count_params() == 2_644_242
    data = bytearray((tmp_path / f"{STEM}.keras").read_bytes())
    data[len(data) // 2] ^= 0xFF
    (tmp_path / f"{STEM}.keras").write_bytes(bytes(data))
    with pytest.raises(CheckpointError, match="corrupt or replaced"):
        load_checkpoint(tmp_path)


SHIPPED = (CHECKPOINT_DIR / f"{STEM}.keras").exists()
needs_checkpoint = pytest.mark.skipif(not SHIPPED, reason="no shipped cnn-faces checkpoint")


@needs_checkpoint
def test_shipped_checkpoint_passes_conformance():
    check_solver(make_solver("cnn-faces", {"search": "beam", "beam_width": 64}))


@needs_checkpoint
def test_the_shipped_model_runs_at_either_precision_with_the_same_policy(monkeypatch):
    monkeypatch.delenv("CUBEBENCH_PRECISION", raising=False)
    if not native_bf16():  # under an ISA cap TF's oneDNN cannot even build a bf16 convolution
        assert make_solver("cnn-faces", {}).runtime_info["precision"] == "fp32"
        pytest.skip("bfloat16 is not native on this CPU: auto is fp32, checked")
    states = random_states(64, np.random.default_rng(3))
    fp32 = make_solver("cnn-faces", {"precision": "fp32"})
    bf16 = make_solver("cnn-faces", {"precision": "bf16"})
    assert fp32.model.layers[0].dtype_policy.name == "float32"
    assert bf16.model.layers[0].dtype_policy.name == "mixed_bfloat16"
    agree = (fp32.policy(states).argmax(1) == bf16.policy(states).argmax(1)).mean()
    assert agree > 0.9 and fp32.runtime_info["precision"] == "fp32"


@needs_checkpoint
@pytest.mark.parametrize("search", ["greedy", "beam"])
def test_shipped_checkpoint_solves_depth_three(search):
    solver = make_solver("cnn-faces", {"search": search, "beam_width": 64})
    assert_solves_first(solver, "depth-03-v1", 100)


def test_bench_solve_with_a_tensorflow_solver_prints_no_start_up_lines():
    """TensorFlow writes oneDNN, CPU-feature and absl lines at import; the harness keeps them
    out of a user's terminal and logs (the environment does not set their log level)."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"}
    done = subprocess.run(
        [sys.executable, "-c", "from cubebench.harness.cli.main import main; main()", "solve",
         "R U F", "-s", "cnn-faces"],
        capture_output=True, text=True, timeout=300, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "status:   solved" in done.stdout
    assert done.stderr.strip() == "", done.stderr
