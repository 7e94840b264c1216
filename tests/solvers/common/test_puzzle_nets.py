"""The networks of other cube sizes: walk data, value-iteration labels, short trainings that
learn, and checkpoints that load back."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from cubebench.harness import move_set, puzzle
from cubebench.solvers.common.puzzle_nets import (
    PuzzleNet,
    PuzzleNetConfig,
    encode,
    scrambled,
    walk_samples,
)
from cubebench.solvers.common.puzzle_train import PolicyData, ValueData, _Target
from cubebench.solvers.cube2_policy.train import train as train_policy
from cubebench.solvers.cube2_value.train import train as train_value
from tests.envsettings import KilledError, killed_at, loop_for_tests

TINY = {"hidden1": 64, "hidden2": 32, "residual_blocks": 1}


@pytest.mark.parametrize(("name", "metric"), [("cube2", "htm"), ("cube2", "qtm"), ("cube4", "htm")])
def test_a_label_undoes_the_walks_last_step(name, metric):
    cube = puzzle(name)
    states, labels, depths = walk_samples(20, 5, np.random.default_rng(0), metric, name)
    assert states.shape == (cube.num_stickers, 100) and set(depths) == {1, 2, 3, 4, 5}
    for column in range(20, 100):  # depth 2 onwards: one step back is the previous depth
        back = cube.apply(states[:, column], [int(labels[column])])
        assert np.array_equal(back, states[:, column - 20])
    first = [cube.apply(states[:, c], [int(labels[c])]) for c in range(20)]
    assert all(cube.is_solved(s) for s in first)
    assert set(labels) <= {int(cube.inverse[m]) for m in move_set(metric, name).moves}


def test_scrambles_have_the_lengths_they_say():
    states, lengths = scrambled(200, 6, np.random.default_rng(1), "htm", "cube2")
    cube = puzzle("cube2")
    assert lengths.min() == 0 and lengths.max() == 6
    assert all(cube.is_solved(states[:, i]) for i in np.flatnonzero(lengths == 0))
    assert not any(cube.is_solved(states[:, i]) for i in np.flatnonzero(lengths == 1))


def test_encoding_is_one_hot_per_sticker():
    x = encode(puzzle("cube4").solved[:, None])
    assert x.shape == (1, 96 * 6) and x.sum() == 96
    assert x.reshape(96, 6).argmax(1).tolist() == puzzle("cube4").solved.tolist()


def test_lookahead_labels_are_exact_next_to_solved_whatever_the_network_says():
    data = ValueData(batch_size=8)
    target = _Target(PuzzleNet(PuzzleNetConfig("cube2", "value", **TINY)), data)
    with torch.no_grad():
        for p in target.model.parameters():
            p.fill_(0.3)
    cube, moves = puzzle("cube2"), move_set("htm", "cube2")
    one_away = moves.expand(cube.solved[:, None])  # (24, 9)
    states = np.concatenate([cube.solved[:, None], one_away], axis=1)
    labels = target.labels(states)
    assert labels[0] == 0 and torch.all(labels[1:] == 1)


def test_a_short_policy_training_learns_depth_one(tmp_path):
    card = train_policy(
        loop_for_tests(steps=150, out=str(tmp_path)),
        PolicyData(walks_per_batch=64, walk_length=6, validation_walks=200),
        PuzzleNetConfig("cube2", "policy", **TINY),
    )
    assert card["validation"]["accuracy_by_depth"][1] > 0.9  # chance is 1/9
    assert card["architecture"]["puzzle"] == "cube2" and (tmp_path / "cube2-policy.pt").exists()


def test_a_short_value_iteration_values_depth_one_below_depth_four(tmp_path):
    card = train_value(
        loop_for_tests(steps=150, out=str(tmp_path)),
        ValueData(batch_size=256, max_scramble=6, update_every=10, validation_states=600),
        PuzzleNetConfig("cube2", "value", **TINY),
    )
    assert card["validation"]["target_updates"] == 15
    mae = card["validation"]["mae_by_distance"]
    assert mae[1] < 0.5 and mae[0] < 0.5  # against the exact table: near solved it is right
    means = card["validation"]["mean_by_walk_length"]
    assert means[2] < means[4] < means[6]


@pytest.mark.parametrize(("kill_at", "holds_target"), [(11, False), (14, True)])
def test_a_stopped_value_iteration_resumes_exactly(tmp_path, kill_at, holds_target):
    """A run killed after a validation continues as one never stopped. A state written just
    as the target was refreshed (step 10, every 5 steps) holds no second copy of the
    weights; one written between refreshes (step 12) holds the target's own."""
    from dataclasses import replace

    from cubebench.solvers.common.state import read_state, state_path
    from cubebench.solvers.common.trainer import train_loop
    from cubebench.solvers.cube2_value.train import make_task

    data = ValueData(batch_size=64, max_scramble=6, update_every=5, validation_states=64)
    every = 10 if kill_at == 11 else 12

    def run(out, kill: int | None = None) -> dict:
        loop = replace(loop_for_tests(steps=24, out=str(out)), eval_every_steps=every)
        loop = replace(loop, precision="fp32", seed=3, resume=True)
        task = make_task(data, PuzzleNetConfig("cube2", "value", **TINY), "cpu", loop.seed)
        train_loop(task if kill is None else killed_at(task, kill), loop, log=print)
        return read_state(state_path(out, "cube2-value"))

    unbroken = run(tmp_path / "a")
    with pytest.raises(KilledError):
        run(tmp_path / "b", kill=kill_at)
    halfway = read_state(state_path(tmp_path / "b", "cube2-value"))
    assert halfway["progress"]["step"] == every
    assert ("net" in halfway["task"]) is holds_target
    assert halfway["task"].get("net_is_model", False) is not holds_target
    resumed = run(tmp_path / "b")
    assert resumed["task"]["updates"] == unbroken["task"]["updates"] == 4
    a, b = unbroken["model"], resumed["model"]
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
