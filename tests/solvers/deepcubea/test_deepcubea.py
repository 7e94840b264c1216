"""deepcubea: lookahead labels, both target-update rules, a short run that learns, shipped model."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from cubebench.harness.cube import apply_sequence, facelets_to_state, is_solved
from cubebench.harness.cube.moves import MOVE_QTM
from cubebench.harness.registry import make_solver
from cubebench.harness.settings import SettingsError
from cubebench.harness.solver import ArgumentError, Budget, SolverLoadError
from cubebench.harness.suites.catalog import load_suite
from cubebench.harness.testing import check_solver
from cubebench.solvers.common.torch_cube import TorchCube
from cubebench.solvers.deepcubea.checkpoint import CHECKPOINT_DIR, load_checkpoint, stem_for
from cubebench.solvers.deepcubea.model import CostToGo, ModelConfig
from cubebench.solvers.deepcubea.train import DataConfig, TargetNetwork, main, train
from tests.envsettings import KilledError, killed_at, loop_for_tests

TINY = ModelConfig(64, 32, 1)


def _target(rule: str = "copy", **data) -> TargetNetwork:
    model = CostToGo(TINY)
    config = DataConfig(target_update=rule, update_every=2, **data)
    return TargetNetwork(model, config, TorchCube("qtm"), bf16=False)


def test_lookahead_labels_are_exact_next_to_solved_whatever_the_network_says():
    target = _target()
    cube = target.cube
    solved = cube.solved[None]  # (1, 54)
    one_away = cube.children(solved)[0]  # (12, 54): every quarter turn of solved
    labels = target.labels(torch.cat([solved, one_away]))
    assert labels[0] == 0 and (labels[1:] == 1).all()
    two_away = cube.children(one_away).reshape(-1, 54)  # U U' among them: solved again
    back = cube.is_solved(two_away)
    labels = target.labels(two_away)
    assert back.sum() == 12 and (labels[back] == 0).all()
    assert (labels[~back] >= 1).all()  # 1 + a cost that is never negative


def test_copy_rule_copies_only_below_the_loss_threshold():
    target = _target("copy", loss_threshold=0.1)
    target.labels(target.cube.solved[None])  # makes the target network
    with torch.no_grad():
        target.model.net[0].weight.add_(1.0)
    target.after_step(1, 0.05)
    target.after_step(2, 0.5)  # window mean 0.275: above the threshold, no copy
    assert target.updates == 0
    assert not torch.equal(target.net.net[0].weight, target.model.net[0].weight)
    target.after_step(3, 0.05)
    target.after_step(4, 0.05)
    assert target.updates == 1
    assert torch.equal(target.net.net[0].weight, target.model.net[0].weight)


def test_soft_rule_blends_a_share_of_the_trained_weights_every_g_steps():
    target = _target("soft", tau=0.25)
    target.labels(target.cube.solved[None])
    before = target.net.net[0].weight.clone()
    with torch.no_grad():
        target.model.net[0].weight.add_(4.0)
    target.after_step(1, 9.0)
    assert torch.equal(target.net.net[0].weight, before)  # not yet G steps
    target.after_step(2, 9.0)  # the soft rule ignores the loss
    assert torch.allclose(target.net.net[0].weight, before + 1.0, atol=1e-5)
    assert target.updates == 1


@pytest.mark.parametrize(
    "bad, match",
    [
        ({"batch_size": 0}, "batch_size=0"),
        ({"tau": 1.5}, "tau=1.5"),
        ({"loss_threshold": 0.0}, "loss_threshold=0.0"),
        ({"metric": "htm", "oracle_radius": 5}, "oracle_radius=5"),
    ],
)
def test_bad_training_settings_name_the_value(bad, match):
    with pytest.raises(ArgumentError, match=match):
        DataConfig(**bad)


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("deepcubea")
    data = DataConfig(
        batch_size=256,
        max_scramble=8,
        target_update="soft",
        update_every=5,
        oracle_radius=3,
        validation_states=400,
    )
    card = train(loop_for_tests(steps=120, out=str(out)), data, TINY, reference=None, log=print)
    return out, card


def test_short_training_values_depth_one_below_depth_four(tiny_run):
    out, card = tiny_run
    assert card["steps"] == 120 and card["validation"]["target_updates"] == 24
    solver = make_solver("deepcubea", {"checkpoint": str(out), "precision": "fp32"})
    values = {}
    for depth in (1, 4):
        suite = load_suite(f"depth-{depth:02d}-v1").instances[:50]
        states = np.stack([facelets_to_state(i.facelets) for i in suite], axis=1)
        values[depth] = solver.value(states).mean()
    assert values[1] < values[4], values
    _model, loaded = load_checkpoint(out, metric="qtm")
    assert loaded["model"] == stem_for("qtm") and len(loaded["sha256"]) == 64


def test_the_command_line_trains_and_refuses_bad_settings(tmp_path):
    args = ["--steps", "2", "--out", str(tmp_path), "--batch-size", "64", "--oracle-radius", "2"]
    card = main([*args, "--hidden1", "32", "--hidden2", "16", "--residual-blocks", "1"])
    assert card["architecture"] == {"hidden1": 32, "hidden2": 16, "residual_blocks": 1}
    assert (tmp_path / "deepcubea-qtm.pt").exists()
    with pytest.raises(ArgumentError, match="tau=0.0"):
        main([*args, "--tau", "0", "--fresh"])  # a new run: the saved one keeps its tau


def test_a_half_turn_model_is_a_setting_and_searches_half_turns(tmp_path):
    args = ["--steps", "2", "--out", str(tmp_path), "--batch-size", "64", "--metric", "htm"]
    card = main([*args, "--oracle-radius", "2", "--hidden1", "32", "--hidden2", "16"])
    assert card["metric"] == "htm" and (tmp_path / "deepcubea.pt").exists()
    with pytest.raises(SolverLoadError, match="ships checkpoints for qtm only"):
        make_solver("deepcubea", {"metric": "htm"})
    with pytest.raises(SettingsError, match="mitm_radius=7 exceeds 6, the largest htm table"):
        make_solver("deepcubea", {"metric": "htm", "checkpoint": str(tmp_path), "mitm_radius": 7})
    solver = make_solver("deepcubea", {"metric": "htm", "checkpoint": str(tmp_path)})
    state = apply_sequence(facelets_to_state(load_suite("depth-01-v1").instances[0].facelets), ())
    attempt = solver.solve(state, Budget(wall_seconds=60))
    assert len(attempt.moves) == 1 and is_solved(apply_sequence(state, attempt.moves))


def test_shipped_checkpoint_solves_depth_three():
    if not (CHECKPOINT_DIR / f"{stem_for('qtm')}.json").exists():
        pytest.skip("no shipped deepcubea checkpoint")
    solver = make_solver("deepcubea", {"astar_batch": 100})
    check_solver(solver)
    for inst in load_suite("depth-03-v1").instances[:100]:
        state = facelets_to_state(inst.facelets)
        attempt = solver.solve(state, Budget(wall_seconds=60))
        assert attempt.moves and is_solved(apply_sequence(state, attempt.moves)), inst.id
        assert (MOVE_QTM[list(attempt.moves)] == 1).all()
        assert len(attempt.moves) <= 2 * inst.optimal_htm


def test_a_stopped_value_iteration_resumes_with_its_target_network(tmp_path):
    """The target network is part of the run: a run killed between validations and continued
    labels its batches through the same target as one never stopped, so it ends with the
    same weights (were the target remade from the trained weights at resume, it would not)."""
    from dataclasses import replace

    from cubebench.solvers.common.state import read_state, state_path
    from cubebench.solvers.common.trainer import train_loop
    from cubebench.solvers.deepcubea.train import make_task

    data = DataConfig(
        batch_size=64, max_scramble=6, target_update="soft", tau=0.5, update_every=3,
        oracle_radius=2, validation_states=64,
    )  # fmt: skip

    def run(out, kill_at: int | None = None) -> dict:
        loop = replace(loop_for_tests(steps=20, out=str(out)), eval_every_steps=10, resume=True)
        loop = replace(loop, precision="fp32", seed=5)
        task = make_task(data, TINY, loop, reference=None)
        train_loop(task if kill_at is None else killed_at(task, kill_at), loop, log=print)
        return read_state(state_path(out, stem_for("qtm")))

    unbroken = run(tmp_path / "a")
    with pytest.raises(KilledError):  # during step 14: the state on disk is step 10's
        run(tmp_path / "b", kill_at=14)
    halfway = read_state(state_path(tmp_path / "b", stem_for("qtm")))
    assert halfway["progress"]["step"] == 10 and halfway["task"]["updates"] == 3
    resumed = run(tmp_path / "b")
    assert resumed["task"]["updates"] == unbroken["task"]["updates"] == 6
    for part in ("model", "task"):
        a = unbroken[part] if part == "model" else unbroken[part]["net"]
        b = resumed[part] if part == "model" else resumed[part]["net"]
        assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a), part
