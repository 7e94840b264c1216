"""Training that accumulates across sittings: a run is its total step budget, its state is
one file, and a run stopped anywhere and continued ends exactly where an unbroken one does."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
import torch

from cubebench.harness.solver import ArgumentError
from cubebench.solvers.common.loop import LoopConfig, cosine_lr
from cubebench.solvers.common.state import read_state, state_path
from cubebench.solvers.common.trainer import train_loop
from cubebench.solvers.seq2seq_transformer.model import ModelConfig
from cubebench.solvers.seq2seq_transformer.train import DataConfig, main, make_task
from tests.envsettings import CAP_MINUTES, THREADS, KilledError, killed_at

TINY = ModelConfig(d_model=16, encoder_layers=1, decoder_layers=1, heads=2, max_moves=4)
TINY = replace(TINY, metric="qtm", norm_first=True)  # dropout on: the torch RNG matters
DATA = DataConfig(metric="qtm", batch_size=16, validation_pairs=64, scramble="canonical")
DATA = replace(DATA, max_length=4, trim=True)


def _config(out, **kw) -> LoopConfig:
    return LoopConfig(
        minutes=CAP_MINUTES, steps=40, eval_every_steps=10, warmup_steps=5, seed=3,
        threads=THREADS, out=str(out), precision="fp32", **kw,
    )  # fmt: skip


def _task(stop_at_batch: int | None = None):
    task = make_task(DATA, TINY, "cpu", seed=3)
    return task if stop_at_batch is None else killed_at(task, stop_at_batch)


def _weights(out) -> dict[str, torch.Tensor]:
    return read_state(state_path(out, "seq2seq-transformer-qtm"))["model"]


def test_a_run_stopped_anywhere_and_continued_ends_with_the_weights_of_one_never_stopped(
    tmp_path,
):
    unbroken = train_loop(_task(), _config(tmp_path / "a"), log=print)
    with pytest.raises(KilledError):  # during step 26: the state on disk is step 20's
        train_loop(_task(stop_at_batch=26), _config(tmp_path / "b"), log=print)
    assert (
        read_state(state_path(tmp_path / "b", "seq2seq-transformer-qtm"))["progress"]["step"] == 20
    )
    logs: list[str] = []
    resumed = train_loop(_task(), _config(tmp_path / "b"), log=logs.append)
    assert "resumed at step 20" in logs[0]
    a, b = _weights(tmp_path / "a"), _weights(tmp_path / "b")
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    assert resumed["sha256"] == unbroken["sha256"]  # the same best checkpoint, byte for byte
    # the card lists both sittings of the stopped run, and they add up to the budget
    sittings = resumed["training"]["sittings"]
    assert [s["from_step"] for s in sittings] == [0, 20]
    assert sum(s["steps"] for s in sittings) == 40 == resumed["training"]["totals"]["steps"]
    assert resumed["training"]["totals"]["samples"] == 40 * DATA.batch_size
    assert all(s["cpu"] and s["precision"] == "fp32" and s["threads"] == THREADS for s in sittings)
    # the validation curve runs over both sittings, point for point the unbroken run's
    curve = resumed["training"]["curve"]
    assert [p["step"] for p in curve] == [10, 20, 30, 40]
    as_saved = lambda c: json.loads(json.dumps(c))  # noqa: E731 (card keys are JSON's)
    assert as_saved(curve) == as_saved(unbroken["training"]["curve"])
    assert set(as_saved(curve)[-1]["sequence_accuracy_by_length"]) == {"1", "2", "3", "4"}
    # a stopped run that is ignored (--fresh) starts again and forgets the old sittings,
    # once told it may write over the model there
    with pytest.raises(ArgumentError, match="--replace to write over it"):
        train_loop(_task(), replace(_config(tmp_path / "b"), resume=False), log=print)
    fresh_config = replace(_config(tmp_path / "b"), resume=False, replace=True)
    fresh = train_loop(_task(), fresh_config, log=print)
    assert fresh["training"]["totals"]["sittings"] == 1


def test_the_schedule_is_fixed_by_the_budget_and_warms_up():
    config = LoopConfig(steps=100, warmup_steps=10, lr=1e-3, lr_floor=0.0)
    assert cosine_lr(config, 0.0, 0) == pytest.approx(1e-4)
    assert cosine_lr(config, 0.09, 9) == pytest.approx(1e-3)
    assert cosine_lr(config, 0.5, 50) == pytest.approx(5e-4)
    assert cosine_lr(config, 1.0, 100) == pytest.approx(0.0)


TINY_ARGS = [
    "--steps", "6", "--eval-every-steps", "3", "--d-model", "16", "--encoder-layers", "1",
    "--decoder-layers", "1", "--heads", "2", "--max-moves", "4", "--max-length", "4",
    "--batch-size", "8", "--threads", "1", "--precision", "fp32",
]  # fmt: skip


def test_bench_train_continues_a_saved_run_with_the_options_it_started_with(tmp_path):
    out = ["--out", str(tmp_path)]
    main([*TINY_ARGS, *out, "--sitting-steps", "3"])
    assert read_state(state_path(tmp_path, "seq2seq-transformer-qtm"))["progress"]["step"] == 3
    # no options: the saved run's architecture and budget (the defaults would not fit it)
    card = main(out)
    assert card["steps"] <= 6 and card["architecture"]["d_model"] == 16
    assert card["training"]["totals"] == {
        "sittings": 2, "steps": 6, "samples": 48, "wall_minutes": pytest.approx(
            card["training"]["totals"]["wall_minutes"]),
    }  # fmt: skip
    on_disk = json.loads((tmp_path / "seq2seq-transformer-qtm.json").read_text())
    assert on_disk["training"]["totals"]["steps"] == 6
    with pytest.raises(ArgumentError, match="--steps 9: the saved run .* --steps 6"):
        main([*out, "--steps", "9"])
    with pytest.raises(ArgumentError, match="--d-model 32: .*--d-model 16"):
        main([*out, "--d-model", "32"])
    assert main(out)["steps"] <= 6  # finished: a further sitting trains nothing
    assert read_state(state_path(tmp_path, "seq2seq-transformer-qtm"))["progress"]["step"] == 6


def test_sigterm_ends_a_sitting_after_saving_the_step_it_reached(tmp_path):
    """``kill PID`` on a background sitting: the loop stops after its current step,
    validates, saves the state there, and the next sitting continues from that step."""
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "run"
    command = [
        sys.executable, "-c", "from cubebench.harness.cli.main import main; main()", "train",
        "cayley-mlp", "--out", str(out),
        "--steps", "100000", "--eval-every-steps", "100000", "--threads", "1",
        "--hidden1", "16", "--hidden2", "8", "--residual-blocks", "0",
    ]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert "parameters" in process.stdout.readline()  # the loop is about to start
    time.sleep(2.0)  # some steps; how many does not matter
    process.send_signal(signal.SIGTERM)
    output, _ = process.communicate(timeout=120)
    assert process.returncode == 128 + signal.SIGTERM, output  # as `bench run` ends
    assert "stopped by SIGTERM at step" in output
    stopped_at = int(output.split("stopped by SIGTERM at step ")[1].split(":")[0])
    state = read_state(state_path(out, "cayley-mlp-qtm"))
    assert stopped_at >= 1 and state["progress"]["step"] == stopped_at
    assert state["sittings"][-1]["steps"] == stopped_at
    resumed = subprocess.run(
        [*command[:5], "--out", str(out), "--sitting-steps", "1", "--threads", "1"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert f"resumed at step {stopped_at}" in resumed.stdout, resumed.stdout + resumed.stderr


def test_value_iteration_can_start_from_a_distance_model_of_the_same_shape(tmp_path):
    """``--init-from X.json`` takes another solver's checkpoint when the networks match, and
    names the first layer that differs when they do not."""
    from cubebench.solvers.cayley_mlp import model as cayley_model
    from cubebench.solvers.cayley_mlp.train import DataConfig as WalkData
    from cubebench.solvers.cayley_mlp.train import train as train_walks
    from cubebench.solvers.deepcubea import model as deepcubea_model
    from cubebench.solvers.deepcubea.train import DataConfig as IterationData
    from cubebench.solvers.deepcubea.train import train as iterate

    walks = tmp_path / "walks"
    train_walks(
        replace(_config(walks), steps=5, eval_every_steps=5),
        WalkData(walks_per_batch=16),
        cayley_model.ModelConfig(32, 16, 1),
        log=print,
    )
    card_file = walks / "cayley-mlp-qtm.json"
    started = tmp_path / "started"
    card = iterate(
        replace(_config(started), steps=2, eval_every_steps=2, init_from=str(card_file)),
        IterationData(batch_size=64, oracle_radius=2),
        deepcubea_model.ModelConfig(32, 16, 1),
        log=print,
    )
    source = json.loads(card_file.read_text())["sha256"][:12]
    assert card["loop"]["run_options"]["init_from"]["sha256"] == source
    with pytest.raises(ArgumentError, match=r"--init-from .*cayley-mlp-qtm.json: .*net\.0\.weight"):
        iterate(
            replace(_config(tmp_path / "wrong"), steps=2, init_from=str(card_file)),
            IterationData(batch_size=64, oracle_radius=2),
            deepcubea_model.ModelConfig(64, 16, 1),
            log=print,
        )
