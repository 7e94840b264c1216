"""A training command never trains on a state that is not its run's, and never writes over a
model it did not start."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cubebench.harness.solver import ArgumentError
from cubebench.solvers.common.state import (
    digest,
    load_payload,
    read_state,
    save_payload,
    state_path,
)
from cubebench.solvers.seq2seq_transformer.train import main
from tests.solvers.common.test_trainer import TINY_ARGS

STEM = "seq2seq-transformer-qtm"


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.fixture(scope="module")
def saved_run(tmp_path_factory) -> tuple[Path, Path]:
    """A run stopped at step 3 of 6 (its state and checkpoint), and the same run unbroken."""
    stopped = tmp_path_factory.mktemp("stopped")
    main([*TINY_ARGS, "--out", str(stopped), "--sitting-steps", "3"])
    unbroken = tmp_path_factory.mktemp("unbroken")
    main([*TINY_ARGS, "--out", str(unbroken)])
    return stopped, unbroken


def _weights(folder: Path) -> dict[str, torch.Tensor]:
    return read_state(state_path(folder, STEM))["model"]


def _forge(path: Path, **changes) -> None:
    """Edit a state and give it a matching checksum, as a careful forger would."""
    state = load_payload(path)
    state.update(changes)
    state["digest"] = digest(state)
    save_payload(path, state)


EDITS = ("truncate", "flip", "step", "negative", "swap", "json", "drop", "same")


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(edit=st.sampled_from(EDITS), where=st.floats(0.0, 1.0))
def test_any_edit_of_a_state_continues_its_run_exactly_or_is_refused(
    saved_run, tmp_path_factory, edit, where
):
    stopped, unbroken = saved_run
    folder = tmp_path_factory.mktemp("edit")
    for path in stopped.iterdir():
        shutil.copy(path, folder / path.name)
    state = state_path(folder, STEM)
    data = state.read_bytes()
    position = int(where * (len(data) - 1))
    if edit == "truncate":
        state.write_bytes(data[:position])
    elif edit == "flip":
        state.write_bytes(data[:position] + bytes([data[position] ^ 0x5A]) + data[position + 1 :])
    elif edit == "step":
        _forge(state, progress='{"step": 1000000000, "elapsed": 1.0, "samples": 8, "best": 1.0}')
    elif edit == "negative":
        _forge(state, progress='{"step": -4, "elapsed": 1.0, "samples": 8, "best": 1.0}')
    elif edit == "json":
        _forge(state, rng="{not json")
    elif edit == "drop":
        raw = load_payload(state)
        del raw["optimizer"]
        save_payload(state, raw)
    elif edit == "swap":  # another model's state under this model's name
        other = tmp_path_factory.mktemp("other")
        subprocess.run(
            [sys.executable, "-m", "cubebench.solvers.cayley_mlp.train", "--out", str(other),
             "--steps", "2", "--eval-every-steps", "1", "--threads", "1", "--hidden1", "16",
             "--hidden2", "8", "--residual-blocks", "0", "--sitting-steps", "1"],
            check=True, capture_output=True, timeout=300,
        )  # fmt: skip
        shutil.copy(state_path(other, "cayley-mlp-qtm"), state)
    before = _files(folder)
    try:
        # the sitting's own conditions as the unbroken run's: threads and precision change the
        # arithmetic, not the run
        main(["--out", str(folder), "--threads", "1", "--precision", "fp32"])
    except ArgumentError as exc:
        assert len(str(exc).splitlines()) == 1, str(exc)
        assert str(state) in str(exc)
        assert _files(folder) == before  # nothing written over
        return
    assert edit in ("same", "flip", "truncate"), f"{edit} was continued"
    a, b = _weights(folder), _weights(unbroken)
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def test_a_foreign_state_names_what_does_not_match(saved_run, tmp_path):
    stopped, _ = saved_run
    for path in stopped.iterdir():
        shutil.copy(path, tmp_path / path.name)
    target = state_path(tmp_path, STEM)
    shutil.copy(target, state_path(tmp_path, "seq2seq-transformer"))
    with pytest.raises(ArgumentError, match="state of 'seq2seq-transformer-qtm', not of"):
        read_state(state_path(tmp_path, "seq2seq-transformer"))
    _forge(target, progress='{"step": 1000000000, "elapsed": 1.0, "samples": 8, "best": 1.0}')
    with pytest.raises(ArgumentError, match="step 1000000000 is past the run's budget of 6"):
        read_state(target)


def test_a_state_is_compressed_and_an_uncompressed_one_continues_the_same_run(saved_run, tmp_path):
    """States are gzip files (a 4×4×4 policy's stays under 25 MB); one written plain by
    ``torch.save``, as states were before, reads to the same contents and continues exactly."""
    stopped, unbroken = saved_run
    state = state_path(stopped, STEM)
    assert state.read_bytes()[:2] == b"\x1f\x8b"
    for path in stopped.iterdir():
        shutil.copy(path, tmp_path / path.name)
    plain = state_path(tmp_path, STEM)
    torch.save(load_payload(state), plain)
    assert plain.read_bytes()[:2] != b"\x1f\x8b"
    assert read_state(plain)["progress"] == read_state(state)["progress"]
    main(["--out", str(tmp_path), "--threads", "1", "--precision", "fp32"])
    a, b = _weights(tmp_path), _weights(unbroken)
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def test_a_new_run_never_replaces_a_model_it_did_not_start(saved_run, tmp_path):
    """A finished model (a card, no state) in --out: refused, files unchanged; --replace."""
    _, unbroken = saved_run
    for path in unbroken.iterdir():
        if ".train-state" not in path.name:
            shutil.copy(path, tmp_path / path.name)
    before = _files(tmp_path)
    with pytest.raises(ArgumentError, match=r"holds the model .*\.json.*--replace"):
        main([*TINY_ARGS, "--out", str(tmp_path)])
    with pytest.raises(ArgumentError, match="--replace"):
        main([*TINY_ARGS, "--out", str(tmp_path), "--fresh"])
    assert _files(tmp_path) == before
    card = main([*TINY_ARGS, "--out", str(tmp_path), "--replace", "--steps", "2"])
    assert card["steps"] <= 2


def test_bench_train_over_a_shipped_model_stops_in_one_line(tmp_path):
    from cubebench.solvers.policy_mlp.checkpoint import CHECKPOINT_DIR

    for path in Path(CHECKPOINT_DIR).iterdir():
        if path.suffix in (".json", ".pt") and ".train-state" not in path.name:
            shutil.copy(path, tmp_path / path.name)
    before = _files(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", "from cubebench.harness.cli.main import main; main()", "train",
         "policy-mlp", "--steps", "2", "--out", str(tmp_path), "--threads", "1"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "--replace" in done.stderr
    assert _files(tmp_path) == before


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--minutes", "nan"], "--minutes nan: must be more than 0"),
        (["--lr", "nan"], "--lr nan: must be more than 0"),
        (["--lr", "-0.1"], "--lr -0.1: must be more than 0"),
        (["--threads", "0"], "--threads 0: must be from 1"),
        (["--threads", "-1"], "--threads -1: must be from 1"),
        (["--device", "tpu"], "--device 'tpu': choose cpu, cuda or cuda:N"),
        (["--init-from", "/etc/passwd"], "--init-from /etc/passwd: give a checkpoint folder"),
    ],
)
def test_a_bad_training_option_is_refused_in_one_line_before_anything_is_written(
    tmp_path, extra, message
):
    out = tmp_path / "out"
    with pytest.raises(ArgumentError, match=re.escape(message)) as caught:
        main([*TINY_ARGS, "--out", str(out), *extra])
    assert len(str(caught.value).splitlines()) == 1
    assert not out.exists() or not any(out.iterdir())


def test_cuda_without_a_gpu_and_an_out_that_is_a_file_are_refused(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("mine\n")
    with pytest.raises(ArgumentError, match="a file, not a folder"):
        main([*TINY_ARGS, "--out", str(afile)])
    assert afile.read_text() == "mine\n"
    if not torch.cuda.is_available():
        with pytest.raises(ArgumentError, match="torch sees no CUDA device"):
            main([*TINY_ARGS, "--out", str(tmp_path / "gpu"), "--device", "cuda"])
